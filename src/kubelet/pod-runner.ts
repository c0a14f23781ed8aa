/**
 * The pod half of the simulated kubelets: one work queue keyed `namespace/name` for every pod
 * bound to any simulated node. A reconcile re-reads the pod, plays the pure lifecycle
 * (`planSteps` over `plan`) and applies the result: the status through `pods/status` (only when
 * it changed, with the resourceVersion as precondition), or the final delete with
 * `gracePeriodSeconds: 0` and a uid precondition, as the kubelet's status manager does. Timed
 * stages come back through `requeueAfter` on the injected clock.
 *
 * Pods of a node marked down are not touched (no status, no termination); when it comes back
 * they are all queued and catch up. The kubelet's in-memory state — back-off entries and pod
 * IPs — lives here, keyed by pod uid, and is dropped when the pod is gone.
 *
 * A status write is followed by the watch event of that write, which queues the pod again; the
 * written object is kept until the cache has it, so a timer firing first does not plan from a
 * stale copy (which would only earn a 409).
 *
 * @module
 */

import type { KubeObject } from '../api/object.js';
import { type ApiClient, isConflict, isNotFound } from '../client/api-client.js';
import type { Lister } from '../client/shared-informer.js';
import { RESOURCES } from '../controller/context.js';
import type { ReconcileResult } from '../controller/controller.js';
import type { EventRecorder } from '../controller/events.js';
import { podsUsingClaim } from '../controller/pod-indexes.js';
import type { Clock } from '../util/clock.js';
import type { RuntimeState } from './backoff.js';
import { configObjectsFor } from './config-objects.js';
import { exhaustedMessage, IpAllocator } from './ip-allocator.js';
import type { NodeIdentity, ResolvedOptions } from './node-config.js';
import { isNodeDown } from './node-heartbeat.js';
import { planSteps } from './plan-steps.js';
import { podEvents } from './pod-events.js';
import type { PlanContext } from './pod-lifecycle.js';
import type { Pod } from './types.js';
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
  client: ApiClient;
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

function asPod(obj: KubeObject): Pod {
  return obj as unknown as Pod;
}

/** Numeric resourceVersion comparison (fleetyard's are revision numbers); false when unknown. */
function newer(a: KubeObject, b: KubeObject): boolean {
  try {
    return BigInt(a.metadata?.resourceVersion ?? '') > BigInt(b.metadata?.resourceVersion ?? '');
  } catch {
    return false;
  }
}

export class PodRunner {
  readonly #deps: PodRunnerDeps;
  readonly #nodes = new Map<string, SimNode>();
  readonly #runtime = new Map<string, RuntimeState>();
  readonly #written = new Map<string, KubeObject>();

  constructor(deps: PodRunnerDeps) {
    this.#deps = deps;
    for (const id of deps.opts.nodes) {
      this.#nodes.set(id.name, { id, ips: new IpAllocator(id.podCIDR) });
    }
  }

  /** Whether `obj` is a pod bound to one of the simulated nodes. */
  owns(obj: KubeObject): boolean {
    const nodeName = asPod(obj).spec?.nodeName;
    return nodeName !== undefined && this.#nodes.has(nodeName);
  }

  /** Records the IPs of live pods found at start (a restarted process keeps them). */
  seed(pods: readonly KubeObject[]): void {
    for (const obj of pods) {
      const pod = asPod(obj);
      const node = this.#nodes.get(pod.spec?.nodeName ?? '');
      const ip = pod.status?.podIP;
      if (node && ip && !TERMINAL.has(pod.status?.phase ?? '')) {
        node.ips.reserve(pod.metadata.uid ?? '', ip);
      }
    }
  }

  /** Forgets a deleted pod: its IP, back-off memory and written copy. */
  forget(obj: KubeObject, key: string): void {
    const pod = asPod(obj);
    const uid = pod.metadata.uid ?? '';
    this.#nodes.get(pod.spec?.nodeName ?? '')?.ips.release(uid);
    this.#runtime.delete(uid);
    const mine = this.#written.get(key);
    if (mine?.metadata?.uid === uid) this.#written.delete(key);
  }

  /** IPs in use on `nodeName` (for tests and metrics). */
  ipsInUse(nodeName: string): number {
    return this.#nodes.get(nodeName)?.ips.size ?? 0;
  }

  #current(key: string): KubeObject | undefined {
    const slash = key.indexOf('/');
    const cached = this.#deps.pods.get(key.slice(0, slash), key.slice(slash + 1));
    const mine = this.#written.get(key);
    if (cached === undefined) {
      this.#written.delete(key);
      return undefined;
    }
    if (mine && mine.metadata?.uid === cached.metadata?.uid && newer(mine, cached)) return mine;
    this.#written.delete(key);
    return cached;
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const obj = this.#current(key);
    if (obj === undefined) return {};
    const pod = asPod(obj);
    const node = this.#nodes.get(pod.spec.nodeName ?? '');
    if (node === undefined || isNodeDown(this.#deps.nodes.get('', node.id.name))) return {};
    const uid = pod.metadata.uid ?? '';
    if (TERMINAL.has(pod.status?.phase ?? '')) node.ips.release(uid); // The sandbox is gone.
    let exhausted = false;
    const attachError = this.#attachError(pod);
    const volumeError = this.#claimError(pod) ?? attachError;
    const ctx: PlanContext = {
      now: this.#deps.clock.now(),
      node: { name: node.id.name, up: true, ip: node.id.ip },
      allocatePodIP: () => {
        const ip = node.ips.allocate(uid);
        exhausted = ip === undefined;
        return ip ?? '';
      },
      ...(this.#runtime.has(uid) ? { runtime: this.#runtime.get(uid) } : {}),
      ...(this.#deps.opts.failingImage ? { failingImage: this.#deps.opts.failingImage } : {}),
      ...(this.#deps.opts.timing.shutdownDelayMs !== undefined
        ? { shutdownDelayMs: this.#deps.opts.timing.shutdownDelayMs }
        : {}),
      ...configObjectsFor(pod, this.#deps.configMaps, this.#deps.secrets),
      ...(volumeError ? { volumeError } : {}),
    };
    const p = planSteps(pod, ctx);
    if (exhausted) {
      const [first, last] = node.ips.range;
      const message = `Failed to create pod sandbox: ${exhaustedMessage(first, last)}`;
      this.#deps.events.event(obj, 'Warning', 'FailedCreatePodSandBox', message);
      return { requeueAfter: SANDBOX_RETRY_MS };
    }
    if (p.deletePod) return this.#delete(obj, key, signal);
    this.#reportVolumes(obj, volumeError, attachError);
    if (p.status) {
      const written = await this.#writeStatus(obj, key, p.status, signal);
      if (!written) return { requeue: true };
      for (const e of podEvents(pod, p.status))
        this.#deps.events.event(obj, e.type, e.reason, e.message);
    }
    if (p.runtime) this.#runtime.set(uid, p.runtime);
    return this.#next(p.requeueAfterMs, p.status !== undefined);
  }

  /** Why the pod's claims cannot be mounted yet (the volume gate), or undefined. */
  #claimError(pod: Pod): string | undefined {
    const claims = this.#deps.claims;
    if (claims === undefined) return undefined;
    return claimVolumeError(pod, (ns, name) => claims.get(ns, name));
  }

  /** A ReadWriteOnce claim attached to another node (the attach/detach controller's check). */
  #attachError(pod: Pod): string | undefined {
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
  #reportVolumes(obj: KubeObject, volumeError?: string, attachError?: string): void {
    if (volumeError === undefined || !waitsForVolumes(asPod(obj))) return;
    const reason = volumeError === attachError ? FAILED_ATTACH : FAILED_MOUNT;
    this.#deps.events.event(obj, 'Warning', reason, volumeError);
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
    status: Pod['status'],
    signal: AbortSignal,
  ): Promise<boolean> {
    const ref = {
      ...RESOURCES.pods,
      namespace: obj.metadata?.namespace ?? '',
      name: obj.metadata?.name ?? '',
    };
    try {
      this.#written.set(
        key,
        await this.#deps.client.updateStatus(ref, { ...obj, status }, { signal }),
      );
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
      await this.#deps.client.delete(ref, {
        gracePeriodSeconds: 0,
        preconditions: { uid: obj.metadata?.uid ?? '' },
        signal,
      });
    } catch (err) {
      // Gone already, or a new pod of the same name (uid precondition): nothing to do.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
    this.#written.delete(key);
    return {};
  }
}
