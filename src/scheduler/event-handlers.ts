/**
 * Informer events into the scheduler's queue and cache, after upstream
 * `pkg/scheduler/eventhandlers.go`:
 *
 * | event                               | cache                | queue                                |
 * |-------------------------------------|----------------------|--------------------------------------|
 * | unassigned pod of ours added        | —                    | add (gated pods wait apart)          |
 * | unassigned pod updated              | —                    | update (skipped while assumed)       |
 * | unassigned pod deleted / not ours   | forget if assumed    | delete                               |
 * | pod bound (add, or update to bound) | add/confirm assumed  | delete; wake pods with pod affinity or spread constraints |
 * | bound pod updated                   | update               | wake all if labels or spec changed   |
 * | bound pod deleted or terminal       | remove               | wake all (resources freed)           |
 * | node added                          | add                  | wake all                             |
 * | node updated                        | update               | wake all if a scheduling property changed |
 * | node deleted                        | remove               | —                                    |
 *
 * "Ours" is upstream `responsibleForPod`: `spec.schedulerName` is `default-scheduler` (the
 * API defaults it), not terminal and not being deleted. Terminal pods hold no resources,
 * as upstream's informer drops them with a field selector.
 *
 * @module
 */
import type { Node, Pod } from '../api/model/index.js';
import {
  type DeletedFinalStateUnknown,
  deletedObject,
  type EventHandler,
} from '../client/shared-informer.js';
import { hasPodAffinity } from './affinity-terms.js';
import { boundNodeOf, isTerminal, podSpecOf } from './pod-view.js';
import type { SchedulerCache } from './scheduler-cache.js';
import { podKey, type SchedulingQueue } from './scheduling-queue.js';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** Upstream `responsibleForPod` plus the unscheduled-pod informer's filter. */
export function isOursToSchedule(pod: Pod, schedulerName = DEFAULT_SCHEDULER_NAME): boolean {
  const name = pod.spec?.schedulerName;
  return (
    boundNodeOf(pod) === '' &&
    (name === undefined || name === '' || name === schedulerName) &&
    !isTerminal(pod) &&
    !pod.metadata?.deletionTimestamp
  );
}

/** Pods a newly bound pod may help: inter-pod affinity and topology spread read other pods. */
function readsOtherPods(pod: Pod): boolean {
  return hasPodAffinity(pod) || (podSpecOf(pod).topologySpreadConstraints ?? []).length > 0;
}

function countedOnNode(pod: Pod): boolean {
  return boundNodeOf(pod) !== '' && !isTerminal(pod);
}

export function podEventHandler(
  queue: SchedulingQueue,
  cache: SchedulerCache,
  schedulerName = DEFAULT_SCHEDULER_NAME,
): EventHandler<Pod> {
  const onBoundAdd = (pod: Pod): void => {
    cache.setPod(pod);
    queue.moveAllToActiveOrBackoff(readsOtherPods);
  };
  return {
    onAdd(pod) {
      if (countedOnNode(pod)) onBoundAdd(pod);
      else if (isOursToSchedule(pod, schedulerName)) queue.add(pod);
    },
    onUpdate(oldPod, newPod) {
      if (boundNodeOf(newPod) !== '') {
        queue.delete(newPod);
        const wasCounted = countedOnNode(oldPod);
        if (isTerminal(newPod)) {
          cache.removePod(newPod);
          if (wasCounted) queue.moveAllToActiveOrBackoff();
        } else if (!wasCounted) {
          onBoundAdd(newPod);
        } else {
          cache.setPod(newPod);
          if (boundPodChanged(oldPod, newPod)) queue.moveAllToActiveOrBackoff();
        }
        return;
      }
      if (cache.isAssumed(podKey(newPod))) return;
      if (isOursToSchedule(newPod, schedulerName)) queue.update(oldPod, newPod);
      else queue.delete(newPod);
    },
    onDelete(obj: Pod | DeletedFinalStateUnknown<Pod>) {
      const pod = deletedObject(obj);
      queue.delete(pod);
      const held = cache.nodeOf(podKey(pod)) !== undefined;
      cache.removePod(pod);
      if (held) queue.moveAllToActiveOrBackoff();
    },
  };
}

/** Labels or spec (requests after an in-place resize) of a bound pod changed. */
function boundPodChanged(oldPod: Pod, newPod: Pod): boolean {
  return (
    JSON.stringify(oldPod.metadata?.labels ?? {}) !==
      JSON.stringify(newPod.metadata?.labels ?? {}) ||
    JSON.stringify(oldPod.spec) !== JSON.stringify(newPod.spec)
  );
}

/**
 * Upstream `nodeSchedulingPropertiesChange`: unschedulable, allocatable, labels, taints,
 * annotations, or conditions other than their heartbeat times. A kubelet heartbeat alone
 * wakes nobody.
 */
export function nodeSchedulingPropertiesChanged(oldNode: Node, newNode: Node): boolean {
  const view = (n: Node): string => {
    const { spec, status } = n;
    const conditions = (status?.conditions ?? []).map(({ lastHeartbeatTime: _h, ...rest }) => rest);
    return JSON.stringify([
      spec?.unschedulable ?? false,
      spec?.taints ?? [],
      status?.allocatable ?? {},
      n.metadata?.labels ?? {},
      n.metadata?.annotations ?? {},
      conditions,
    ]);
  };
  return view(oldNode) !== view(newNode);
}

export function nodeEventHandler(
  queue: SchedulingQueue,
  cache: SchedulerCache,
): EventHandler<Node> {
  return {
    onAdd(node) {
      cache.setNode(node);
      queue.moveAllToActiveOrBackoff();
    },
    onUpdate(oldNode, newNode) {
      cache.setNode(newNode);
      if (nodeSchedulingPropertiesChanged(oldNode, newNode)) queue.moveAllToActiveOrBackoff();
    },
    onDelete(obj) {
      cache.removeNode(deletedObject(obj).metadata?.name ?? '');
    },
  };
}
