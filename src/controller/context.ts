/**
 * What every controller gets from the controller manager: one write client, one shared
 * informer per resource, one clock, a logger, an event recorder, metrics hooks and the stop
 * signal. A controller is a {@link ControllerDefinition}: `start` registers its informers and
 * handlers, waits for their caches, and runs its workers until `ctx.signal` aborts.
 *
 * The same context runs a controller inside `fleetyard up` and, unchanged, against a remote API
 * server: only the {@link ConnectionOptions} differ (see `src/controller/manager.ts`).
 *
 * @module
 */
import type { Registry } from 'prom-client';
import type { KubeObject } from '../api/object.js';
import type { ApiClient } from '../client/api-client.js';
import type { ResourceType } from '../client/resource-path.js';
import type { SharedInformer } from '../client/shared-informer.js';
import type { Indexers } from '../client/store.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { ControllerMetrics } from './controller.js';
import type { EventHostOf, EventRecorder } from './events.js';
import type { WorkQueueMetrics } from './workqueue.js';

/** Hands out one {@link SharedInformer} per resource type (and selector), started on first use. */
export interface InformerFactory {
  /**
   * The shared informer of `type` over all namespaces. The first call creates and starts it;
   * later calls return the same instance (their `indexers` are added if new). Its objects are
   * plain `KubeObject`s, as listed and watched: a controller narrows them to its kinds with
   * `asKind` where it reads them (`kindLister`, `kindHandler` in `kind-informer.ts`).
   */
  informer(
    type: ResourceType,
    options?: { readonly indexers?: Indexers<KubeObject> },
  ): SharedInformer<KubeObject>;
  /** Resolves true once every given informer has synced; false if the signal aborts first. */
  waitForSync(
    informers: readonly SharedInformer<KubeObject>[],
    signal: AbortSignal,
  ): Promise<boolean>;
}

/** Everything a controller needs; built once per manager and shared by its controllers. */
export interface ControllerContext {
  readonly client: ApiClient;
  /**
   * The PEM CA bundle the manager's connection trusts (upstream: the client config's
   * `CAData`), which the root CA publisher publishes; undefined when the connection has none.
   */
  readonly rootCA?: string;
  readonly informers: InformerFactory;
  /** The process's one clock: queues, timers, conditions' transition times. */
  readonly clock: Clock;
  /** Source of randomness (jitter, pod name suffixes are the server's). */
  readonly random: () => number;
  readonly log: Logger;
  /**
   * A recorder whose Events name `component` as their source (e.g. `replicaset-controller`),
   * and as their host the process's hostname, or what `hostOf` says for the object (a
   * kubelet names its node, as upstream's does).
   */
  eventRecorder(component: string, hostOf?: EventHostOf): EventRecorder;
  /** Hooks for `runController` and the work queues (Prometheus series in the manager). */
  readonly metrics: { readonly controller: ControllerMetrics; readonly queue: WorkQueueMetrics };
  /** Aborts when the manager stops (or loses its lease). */
  readonly signal: AbortSignal;
  /**
   * A write client that authenticates as `username` (a simulated kubelet writes as
   * `system:node:<name>`), sharing this controller's agent; `ctx.client` when the manager holds
   * no credential for that user (a manager with one credential for everything).
   */
  clientAs(username: string): ApiClient;
}

/** One controller the manager can run. */
export interface ControllerDefinition {
  /** Its name in logs, metrics and the `--controllers` flag. */
  readonly name: string;
  /**
   * The User-Agent product its writes carry, which the API server records as the field manager
   * in `managedFields`: upstream's binaries are `kube-controller-manager`, `kube-scheduler`
   * and `kubelet`. @default 'kube-controller-manager'
   */
  readonly agent?: string;
  /**
   * The user it acts as (upstream's identity of the component: `system:serviceaccount:
   * kube-system:replicaset-controller`, `system:kube-scheduler`): its writes use the manager's
   * credential for that user, when it has one (`ControllerManagerOptions.credentials`).
   */
  readonly identity?: string;
  /**
   * Its informers are its own, under its identity, rather than the manager's shared ones: a
   * component that is a separate process on a real cluster (the celld operator), whose reads
   * its own RBAC must allow.
   */
  readonly ownInformers?: boolean;
  /** Runs until `ctx.signal` aborts; resolves after in-flight reconciles finished. */
  start(ctx: ControllerContext): Promise<void>;
  /**
   * Adds the controller's own series (beyond the per-controller and per-queue ones every
   * controller gets) to the manager's registry, e.g. the celld operator's `celld_fleet_*`.
   */
  registerMetrics?(registry: Registry): void | Promise<void>;
}

/** Common resource types, so controllers do not spell group/version/plural twice. */
export const RESOURCES = {
  pods: { group: '', version: 'v1', plural: 'pods' },
  nodes: { group: '', version: 'v1', plural: 'nodes' },
  namespaces: { group: '', version: 'v1', plural: 'namespaces' },
  events: { group: '', version: 'v1', plural: 'events' },
  configmaps: { group: '', version: 'v1', plural: 'configmaps' },
  secrets: { group: '', version: 'v1', plural: 'secrets' },
  services: { group: '', version: 'v1', plural: 'services' },
  persistentvolumeclaims: { group: '', version: 'v1', plural: 'persistentvolumeclaims' },
  persistentvolumes: { group: '', version: 'v1', plural: 'persistentvolumes' },
  replicasets: { group: 'apps', version: 'v1', plural: 'replicasets' },
  deployments: { group: 'apps', version: 'v1', plural: 'deployments' },
  statefulsets: { group: 'apps', version: 'v1', plural: 'statefulsets' },
  controllerrevisions: { group: 'apps', version: 'v1', plural: 'controllerrevisions' },
  poddisruptionbudgets: { group: 'policy', version: 'v1', plural: 'poddisruptionbudgets' },
  leases: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' },
} as const satisfies Record<string, ResourceType>;
