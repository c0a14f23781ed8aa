/**
 * The pod half of the simulated kubelets: one work queue keyed `namespace/name` for every pod
 * bound to any simulated node. A reconcile re-reads the pod, plays the pure lifecycle
 * (`planSteps` over `plan`) and applies the result: the status through `pods/status` (only when
 * it changed, with the resourceVersion as precondition), or the final delete with
 * `gracePeriodSeconds: 0` and a uid precondition, as the kubelet's status manager does. Timed
 * stages come back through `requeueAfter` on the injected clock.
 *
 * Before its first plan a pod goes through the kubelet's admission (`admission-ledger.ts`: the
 * pure `admitPod` against the pods this node admitted before, in creation-time order at start
 * and arrival order afterwards). A rejected pod gets a `Warning` Event with the admission
 * reason and is written `Failed` (`admission-status.ts`) instead of being run.
 *
 * Pods of a node marked down are not touched (no status, no termination); when it comes back
 * they are all queued and catch up. The kubelet's in-memory state — back-off entries and pod
 * IPs — lives here, keyed by pod uid, and is dropped when the pod is gone.
 *
 * A status write is followed by the watch event of that write, which queues the pod again; the
 * written object is kept until the cache has it (`OwnWrites`), so a timer firing first does not
 * plan from a stale copy (which would only earn a 409).
 *
 * @module
 */

import { asKind } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { type ApiClient, isConflict, isNotFound } from '../../client/api-client.js';
import type { Lister } from '../../client/shared-informer.js';
import { splitKey } from '../../client/store.js';
import { RESOURCES } from '../../controller/context.js';
import type { ReconcileResult } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { podsUsingClaim } from '../../controller/pod-indexes.js';
import { childSignal } from '../../util/abort-fan-out.js';
import type { Clock } from '../../util/clock.js';
import type { Rejection } from './admission.js';
import { AdmissionLedger } from './admission-ledger.js';
import { rejectedStatus } from './admission-status.js';
import type { RuntimeState } from './backoff.js';
import { configObjectsFor } from './config-objects.js';
import { exhaustedMessage, IpAllocator } from './ip-allocator.js';
import { isKubeletPod, type KubeletPod, type PodStatus } from './kubelet-pod.js';
import type { NodeIdentity, ResolvedOptions } from './node-config.js';
import { isNodeDown } from './node-heartbeat.js';
import { initialNode } from './node-registration.js';
import { planSteps } from './plan-steps.js';
import { podEvents } from './pod-events.js';
import type { PlanContext } from './pod-lifecycle.js';
import {
  claimVolumeError,
  FAILED_ATTACH,
  FAILED_MOUNT,
  multiAttachError,
  waitsForVolumes,
} from './volumes.js';

/** Retry period after a sandbox (IP) failure, as the pod worker's back-off (10 s). */
const SANDBOX_RETRY_MS = 10_000;

export interface PodRunnerDeps {
  /** The write client of the kubelet of `node` (each acts as `system:node:<node>`). */
  clientFor(node: string): ApiClient;
  clock: Clock;
  pods: Lister<KubeObject>;
  nodes: Lister<KubeObject>;
  configMaps: Lister<KubeObject>;
  secrets: Lister<KubeObject>;
  /** PersistentVolumeClaims, for the volume gate; without it claims never hold a pod. */
  claims?: Lister<KubeObject>;
  events: EventRecorder;
  opts: ResolvedOptions;
}

interface SimNode {
  id: NodeIdentity;
  ips: IpAllocator;
}

const TERMINAL = new Set(['Succeeded', 'Failed']);

export class PodRunner {
  readonly #deps: PodRunnerDeps;
  readonly #nodes = new Map<string, SimNode>();
  readonly #runtime = new Map<string, RuntimeState>();
  readonly #ownWrites = new OwnWrites<KubeObject>();
  readonly #ledger = new AdmissionLedger((key) => this.#newest(key));

  constructor(deps: PodRunnerDeps) {
    this.#deps = deps;
    for (const id of deps.opts.nodes) {
      this.#nodes.set(id.name, { id, ips: new IpAllocator(id.podCIDR) });
    }
  }

  /** Whether `obj` is a pod bound to one of the simulated nodes. */
  owns(obj: KubeObject): boolean {
    const nodeName = asKind(obj, 'Pod').spec?.nodeName;
    return nodeName !== undefined && this.#nodes.has(nodeName);
  }

  /**
   * Takes over the pods found at start: records the IPs of live pods (a restarted process
   * keeps them) and admits them again in creation-time order, as a starting kubelet does.
   */
  seed(pods: readonly KubeObject[]): void {
    for (const obj of pods) {
      const pod = asKind(obj, 'Pod');
      const node = this.#nodes.get(pod.spec?.nodeName ?? '');
      const ip = pod.status?.podIP;
      if (node && ip && !TERMINAL.has(pod.status?.phase ?? '')) {
        node.ips.reserve(pod.metadata?.uid ?? '', ip);
      }
    }
    const ours = pods.filter((p) => this.owns(p));
    for (const { pod, rejection } of this.#ledger.seed(ours, (name) => this.#nodeObject(name))) {
      this.#recordRejection(pod, rejection);
    }
  }

  /** Forgets a deleted pod: its IP, back-off memory and written copy. */
  forget(obj: KubeObject, key: string): void {
    const pod = asKind(obj, 'Pod');
    const uid = pod.metadata?.uid ?? '';
    this.#nodes.get(pod.spec?.nodeName ?? '')?.ips.release(uid);
    this.#runtime.delete(uid);
    this.#ledger.forget(uid);
    this.#ownWrites.forget(key, uid);
  }

  /** IPs in use on `nodeName` (for tests and metrics). */
  ipsInUse(nodeName: string): number {
    return this.#nodes.get(nodeName)?.ips.size ?? 0;
  }

  /** The newest copy of a pod: the cache's, or the one this runner wrote while the cache lags. */
  #newest(key: string): KubeObject | undefined {
    const [namespace, name] = splitKey(key);
    return this.#ownWrites.newest(key, this.#deps.pods.get(namespace, name));
  }

  /**
   * The Node object admission reads; before the informer has it, the Node this kubelet
   * registers (upstream `getNodeAnyWay` falls back to the kubelet's initial node too).
   */
  #nodeObject(name: string): KubeObject | undefined {
    const node = this.#nodes.get(name);
    if (node === undefined) return undefined;
    return (
      this.#deps.nodes.get('', name) ??
      initialNode(node.id, this.#deps.opts, this.#deps.clock.now())
    );
  }

  /** Upstream `rejectPod` records a Warning Event with the bare admission message, once. */
  #recordRejection(obj: KubeObject, rejection: Rejection): void {
    this.#deps.events.event(obj, 'Warning', rejection.reason, rejection.message);
  }

  /** The admission verdict: undefined = admitted (now or before), else the rejection. */
  #admission(obj: KubeObject, nodeName: string): Rejection | undefined {
    const node = this.#nodeObject(nodeName);
    if (node === undefined) return undefined;
    const decision = this.#ledger.decide(obj, node);
    if (decision.rejection && decision.fresh) this.#recordRejection(obj, decision.rejection);
    return decision.rejection;
  }

  /** Writes the rejected pod's `Failed` status; its watch event brings it back as terminal. */
  async #reject(
    pod: KubeletPod,
    key: string,
    rejection: Rejection,
    signal: AbortSignal,
  ): Promise<ReconcileResult> {
    const status = rejectedStatus(pod, rejection, this.#deps.clock.now());
    return (await this.#writeStatus(pod, key, status, signal)) ? {} : { requeue: true };
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const pod = this.#newest(key);
    if (pod === undefined || !isKubeletPod(pod)) return {};
    const node = this.#nodes.get(pod.spec.nodeName ?? '');
    if (node === undefined || isNodeDown(this.#deps.nodes.get('', node.id.name))) return {};
    const uid = pod.metadata.uid ?? '';
    if (TERMINAL.has(pod.status?.phase ?? '')) node.ips.release(uid); // The sandbox is gone.
    const rejection = this.#admission(pod, node.id.name);
    if (rejection) return this.#reject(pod, key, rejection, signal);
    let exhausted = false;
    const attachError = this.#attachError(pod);
    const volumeError = this.#claimError(pod) ?? attachError;
    const allocatePodIP = (): string => {
      const ip = node.ips.allocate(uid);
      exhausted = ip === undefined;
      return ip ?? '';
    };
    const p = planSteps(pod, this.#planContext(pod, node, allocatePodIP, volumeError));
    if (exhausted) {
      const [first, last] = node.ips.range;
      const message = `Failed to create pod sandbox: ${exhaustedMessage(first, last)}`;
      this.#deps.events.event(pod, 'Warning', 'FailedCreatePodSandBox', message);
      return { requeueAfter: SANDBOX_RETRY_MS };
    }
    if (p.deletePod) return this.#delete(pod, key, signal);
    this.#reportVolumes(pod, volumeError, attachError);
    if (p.status) {
      const written = await this.#writeStatus(pod, key, p.status, signal);
      if (!written) return { requeue: true };
      for (const e of podEvents(pod, p.status))
        this.#deps.events.event(pod, e.type, e.reason, e.message);
    }
    if (p.runtime) this.#runtime.set(uid, p.runtime);
    return this.#next(p.requeueAfterMs, p.status !== undefined);
  }

  #planContext(
    pod: KubeletPod,
    node: SimNode,
    allocatePodIP: () => string,
    volumeError: string | undefined,
  ): PlanContext {
    const uid = pod.metadata.uid ?? '';
    const { failingImage, timing } = this.#deps.opts;
    return {
      now: this.#deps.clock.now(),
      node: { name: node.id.name, up: true, ip: node.id.ip },
      allocatePodIP,
      ...(this.#runtime.has(uid) ? { runtime: this.#runtime.get(uid) } : {}),
      ...(failingImage ? { failingImage } : {}),
      ...(timing.shutdownDelayMs !== undefined ? { shutdownDelayMs: timing.shutdownDelayMs } : {}),
      ...configObjectsFor(pod, this.#deps.configMaps, this.#deps.secrets),
      ...(volumeError ? { volumeError } : {}),
    };
  }

  /** Why the pod's claims cannot be mounted yet (the volume gate), or undefined. */
  #claimError(pod: KubeletPod): string | undefined {
    const claims = this.#deps.claims;
    if (claims === undefined) return undefined;
    return claimVolumeError(pod, (ns, name) => claims.get(ns, name));
  }

  /** A ReadWriteOnce claim attached to another node (the attach/detach controller's check). */
  #attachError(pod: KubeletPod): string | undefined {
    const claims = this.#deps.claims;
    if (claims === undefined) return undefined;
    return multiAttachError(
      pod,
      (ns, name) => claims.get(ns, name),
      (key) => podsUsingClaim(this.#deps.pods, key),
    );
  }

  /**
   * Upstream records FailedMount (FailedAttachVolume for a Multi-Attach refusal) on every failed
   * attempt; the correlator aggregates repeats.
   */
  #reportVolumes(pod: KubeletPod, volumeError?: string, attachError?: string): void {
    if (volumeError === undefined || !waitsForVolumes(pod)) return;
    const reason = volumeError === attachError ? FAILED_ATTACH : FAILED_MOUNT;
    this.#deps.events.event(pod, 'Warning', reason, volumeError);
  }

  /** After a write the watch event brings the pod back; otherwise wake as planned. */
  #next(requeueAfterMs: number | undefined, wrote: boolean): ReconcileResult {
    if (requeueAfterMs === undefined) return {};
    if (requeueAfterMs > 0) return { requeueAfter: requeueAfterMs };
    return wrote ? {} : { requeue: true };
  }

  /** PUT pods/status; false on a conflict (a newer pod is on its way). */
  async #writeStatus(
    obj: KubeObject,
    key: string,
    status: PodStatus,
    signal: AbortSignal,
  ): Promise<boolean> {
    const ref = {
      ...RESOURCES.pods,
      namespace: obj.metadata?.namespace ?? '',
      name: obj.metadata?.name ?? '',
    };
    try {
      const node = podNode(obj);
      const client = this.#deps.clientFor(node);
      // Per node (abort-fan-out.ts): 256 workers' requests do not share one listener list.
      const written = await client.updateStatus(
        ref,
        { ...obj, status },
        { signal: childSignal(signal, node) },
      );
      this.#ownWrites.record(key, obj.metadata?.resourceVersion, written);
      return true;
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) return false;
      throw err;
    }
  }

  async #delete(obj: KubeObject, key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = {
      ...RESOURCES.pods,
      namespace: obj.metadata?.namespace ?? '',
      name: obj.metadata?.name ?? '',
    };
    try {
      await this.#deps.clientFor(podNode(obj)).delete(ref, {
        gracePeriodSeconds: 0,
        preconditions: { uid: obj.metadata?.uid ?? '' },
        signal: childSignal(signal, podNode(obj)),
      });
    } catch (err) {
      // Gone already, or a new pod of the same name (uid precondition): nothing to do.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
    this.#ownWrites.forget(key);
    return {};
  }
}

/** The node a pod is bound to ('' before binding, which this kubelet never writes). */
function podNode(obj: KubeObject): string {
  return asKind(obj, 'Pod').spec?.nodeName ?? '';
}
