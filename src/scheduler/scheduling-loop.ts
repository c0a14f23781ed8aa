/**
 * The scheduler's main loop, after upstream `pkg/scheduler/schedule_one.go`:
 *
 * 1. **Scheduling cycle** (sequential): pop the next pod, decide against the cache (which
 *    includes assumed pods), and on success assume the pod on the chosen node.
 * 2. **Binding cycle** (concurrent, at most `maxConcurrentBinds` in flight): the volume hook's
 *    PreBind, then `POST …/pods/{name}/binding`, then the `Scheduled` event. A failure forgets
 *    the assumed pod, wakes unschedulable pods (its resources are free again) and retries the
 *    pod after backoff.
 * 3. **Failure**: a `FailedScheduling` Warning event with the fit error, the `PodScheduled=False`
 *    condition when it changed, and the pod back to the queue (unschedulable, or backoff after
 *    an error) unless it was deleted or bound meanwhile.
 *
 * Decisions stay sequential so each one sees every earlier one; only the API round trips
 * overlap. The loop yields to the event loop every few milliseconds so informers, bindings and
 * the API server (same process) keep running during a burst.
 *
 * @module
 */
import { setMaxListeners } from 'node:events';
import type { Pod } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import type { ApiClient } from '../client/api-client.js';
import type { Lister } from '../client/shared-informer.js';
import { RESOURCES } from '../controller/context.js';
import type { ControllerMetrics, ReconcileOutcome } from '../controller/controller.js';
import type { EventRecorder } from '../controller/events.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import type { NodeRotation } from './nodes-to-find.js';
import {
  EVENT_FAILED_SCHEDULING,
  EVENT_SCHEDULED,
  REASON_SCHEDULER_ERROR,
  REASON_UNSCHEDULABLE,
  scheduledMessage,
  truncateMessage,
  unschedulablePatch,
} from './pod-status.js';
import type { Preemptor } from './preemption/preemptor.js';
import { failureStatusPatch } from './preemption/status-patch.js';
import {
  feasibleNodes,
  type ScheduleOptions,
  scheduleOnNodeInfos,
  schedulingContext,
} from './schedule.js';
import type { SchedulerCache } from './scheduler-cache.js';
import { podKey, type QueuedPod, type SchedulingQueue } from './scheduling-queue.js';
import type { NodeInfo } from './types.js';
import type { VolumeBindingHook } from './volume-binding-hook.js';

/** Binding requests in flight at once; more only queue up in the HTTP agent. */
export const DEFAULT_MAX_CONCURRENT_BINDS = 32;
/** Longest stretch of synchronous scheduling before yielding to I/O. */
const YIELD_AFTER_MS = 5;

export interface SchedulingLoopOptions {
  readonly client: ApiClient;
  readonly queue: SchedulingQueue;
  readonly cache: SchedulerCache;
  /** The pod informer's lister: the newest state when an attempt fails. */
  readonly pods: Lister<Pod>;
  readonly recorder: EventRecorder;
  readonly clock: Clock;
  readonly log: Logger;
  readonly schedule: ScheduleOptions;
  readonly volumeBinding?: VolumeBindingHook;
  readonly maxConcurrentBinds?: number;
  readonly signal: AbortSignal;
  /**
   * Records each scheduling attempt as a reconcile of `name` (upstream's
   * `scheduler_scheduling_attempt_duration_seconds`: scheduled → success, unschedulable →
   * requeue, an error → error); the binding that follows is not timed, as upstream.
   */
  readonly metrics?: { readonly name: string; readonly controller: ControllerMetrics };
  /**
   * DefaultPreemption (PostFilter): pods that fit nowhere may preempt lower-priority pods.
   * Without it a pod that does not fit only waits.
   */
  readonly preemptor?: Preemptor;
}

type FailureReason = typeof REASON_UNSCHEDULABLE | typeof REASON_SCHEDULER_ERROR;

export class SchedulingLoop {
  readonly #o: SchedulingLoopOptions;
  readonly #maxBinds: number;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #bindWaiters: (() => void)[] = [];
  /** Upstream `nextStartNodeIndex`: where the next pod's node search starts. */
  readonly #rotation: NodeRotation = { next: 0 };
  #binding = 0;

  /** Follows the caller's signal; every binding request in flight listens to it. */
  readonly #stop = new AbortController();

  constructor(options: SchedulingLoopOptions) {
    this.#o = options;
    this.#maxBinds = options.maxConcurrentBinds ?? DEFAULT_MAX_CONCURRENT_BINDS;
    // One abort listener per binding in flight (up to maxConcurrentBinds, 32 by default).
    setMaxListeners(0, this.#stop.signal);
    const forward = (): void => this.#stop.abort(options.signal.reason);
    if (options.signal.aborted) forward();
    else options.signal.addEventListener('abort', forward, { once: true });
  }

  /** Schedules until the queue closes, then waits for bindings and status writes in flight. */
  async run(): Promise<void> {
    let sliceStart = performance.now();
    for (;;) {
      const info = await this.#o.queue.pop();
      if (info === undefined) break;
      this.scheduleOne(info);
      if (performance.now() - sliceStart >= YIELD_AFTER_MS) {
        await new Promise<void>((r) => setImmediate(r));
        sliceStart = performance.now();
      }
    }
    await Promise.allSettled([...this.#inFlight]);
  }

  /** One scheduling cycle (synchronous); the binding continues in the background. */
  scheduleOne(info: QueuedPod): void {
    const started = performance.now();
    const outcome = this.#attempt(info);
    const m = this.#o.metrics;
    if (outcome !== undefined)
      m?.controller.reconciled?.(m.name, outcome, performance.now() - started);
  }

  #attempt(info: QueuedPod): ReconcileOutcome | undefined {
    const { queue, cache } = this.#o;
    const pod = info.pod;
    // Upstream skipPodSchedule: being deleted, or already placed by an earlier attempt.
    if (pod.metadata?.deletionTimestamp || cache.nodeOf(info.key) !== undefined) {
      queue.done(info.key);
      return undefined;
    }
    let result: ReturnType<typeof scheduleOnNodeInfos>;
    // Nominated pods of at least this priority hold their nodes' room (upstream addNominatedPods).
    const nodeInfos = this.#o.preemptor?.nodeInfosFor(pod, cache.nodeInfos()) ?? cache.nodeInfos();
    try {
      result = scheduleOnNodeInfos(pod, nodeInfos, {
        ...this.#o.schedule,
        rotation: this.#rotation,
      });
    } catch (err) {
      this.#o.log.error({ err, pod: info.key }, 'Error selecting node for pod');
      this.#fail(info, REASON_SCHEDULER_ERROR, String(err));
      return 'error';
    }
    if ('node' in result) {
      this.#o.preemptor?.forget(pod);
      cache.assumePod(pod, result.node);
      queue.done(info.key);
      this.#track(this.#bind(info, result.node));
      return 'success';
    }
    if ('unschedulable' in result) {
      const post = this.#postFilter(pod, nodeInfos);
      if (post === undefined) this.#fail(info, REASON_UNSCHEDULABLE, result.unschedulable.message);
      else this.#fail(info, REASON_UNSCHEDULABLE, post.message, post.nominatedNodeName);
      return 'requeue';
    }
    // Gated pods wait outside activeQ; one gated meanwhile waits for its next update.
    queue.done(info.key);
    return undefined;
  }

  /**
   * Upstream RunPostFilterPlugins after a FitError; undefined when no preemptor runs or the
   * failure came before the filters (no nodes, a volume PreFilter rejection), which keep the
   * schedule's own message.
   */
  #postFilter(pod: Pod, nodeInfos: readonly NodeInfo[]) {
    const { preemptor, schedule } = this.#o;
    if (preemptor === undefined || nodeInfos.length === 0) return undefined;
    if ((schedule.volumeBinding?.preFilter?.(pod) ?? null) !== null) return undefined;
    try {
      const { rejected } = feasibleNodes(schedulingContext(pod, nodeInfos, schedule), schedule);
      return preemptor.postFilter(pod, nodeInfos, rejected);
    } catch (err) {
      this.#o.log.error({ err, pod: podKey(pod) }, 'Error preempting for pod');
      return undefined;
    }
  }

  async #bind(info: QueuedPod, node: string): Promise<void> {
    await this.#acquire();
    const { pod, key } = info;
    const { signal } = this.#stop;
    let step = 'PreBind plugin "VolumeBinding"';
    try {
      // Stopping: bindings not yet sent are dropped; the next scheduler places the pods.
      if (signal.aborted) return;
      await this.#o.volumeBinding?.preBind?.(pod, node, signal);
      step = 'Bind plugin "DefaultBinder"';
      await this.#o.client.createSubresource(podRef(pod), 'binding', bindingOf(pod, node), {
        signal,
      });
      this.#o.cache.finishBinding(key);
      this.#o.recorder.event(pod, 'Normal', EVENT_SCHEDULED, scheduledMessage(pod, node));
    } catch (err) {
      if (signal.aborted) return;
      this.#o.cache.forgetPod(key);
      // Forgetting frees the node's resources, as a deleted bound pod would.
      this.#o.queue.moveAllToActiveOrBackoff();
      const message = `running ${step}: ${err instanceof Error ? err.message : String(err)}`;
      this.#o.log.info({ pod: key, node, err }, 'Failed to bind pod');
      this.#fail(info, REASON_SCHEDULER_ERROR, message);
    } finally {
      this.#release();
    }
  }

  /** Upstream `handleSchedulingFailure`. */
  #fail(info: QueuedPod, reason: FailureReason, message: string, nominatedNodeName?: string): void {
    const { queue, pods, recorder } = this.#o;
    recorder.event(info.pod, 'Warning', EVENT_FAILED_SCHEDULING, truncateMessage(message));
    const ns = info.pod.metadata?.namespace ?? '';
    const current = pods.get(ns, info.pod.metadata?.name ?? '');
    if (current === undefined || current.spec?.nodeName) {
      // Deleted, or bound meanwhile: nothing to retry and no condition to write.
      queue.done(info.key);
      return;
    }
    info.pod = current;
    if (reason === REASON_UNSCHEDULABLE) queue.addUnschedulable(info);
    else queue.addBackoff(info);
    const now = this.#o.clock.now();
    const patch =
      nominatedNodeName === undefined
        ? unschedulablePatch(current, reason, message, now)
        : failureStatusPatch(current, reason, message, now, nominatedNodeName);
    if (patch === null) return;
    this.#track(
      this.#o.client
        .patch(podRef(current), patch, 'strategic', { subresource: 'status' })
        .then(() => undefined)
        .catch((err: unknown) => {
          this.#o.log.info({ err, pod: info.key }, 'Error updating pod');
        }),
    );
  }

  #track(p: Promise<void>): void {
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p));
  }

  async #acquire(): Promise<void> {
    if (this.#binding < this.#maxBinds) {
      this.#binding++;
      return;
    }
    await new Promise<void>((r) => this.#bindWaiters.push(r));
  }

  #release(): void {
    const next = this.#bindWaiters.shift();
    if (next !== undefined) next();
    else this.#binding--;
  }
}

function podRef(pod: KubeObject) {
  return {
    ...RESOURCES.pods,
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
  };
}

/** Upstream DefaultBinder's `v1.Binding`: the pod's identity and the target node. */
function bindingOf(pod: KubeObject, node: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: {
      name: pod.metadata?.name ?? '',
      namespace: pod.metadata?.namespace ?? '',
      ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}),
    },
    target: { kind: 'Node', name: node },
  };
}
