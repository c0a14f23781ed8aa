/**
 * NoExecute taint eviction planning, after upstream `pkg/controller/tainteviction/taint_eviction.go`
 * (`processPodOnNode`, `getMinTolerationTime`) and `addConditionAndDeletePod`. Pure: `now` is
 * epoch ms; the caller sets the DisruptionTarget condition, issues an ordinary (graceful) delete
 * for `evictNow`, and requeues at the earliest `evictAt`.
 *
 * A pod is deleted at once when some NoExecute taint on its node has no matching toleration (or
 * the matching one has `tolerationSeconds` ≤ 0); kept forever when every matching toleration has
 * no `tolerationSeconds`; otherwise deleted when the shortest toleration has run out.
 *
 * Deviation: upstream starts a pod's toleration clock when its workers first see the pod on the
 * tainted node and keeps the timer in memory. Here the clock for each taint starts at the later of
 * the taint's `timeAdded` and the pod's binding time (PodScheduled `lastTransitionTime`, else
 * `creationTimestamp`), so a restart neither forgets nor restarts an eviction, and a pod that
 * arrives on a long-tainted node still gets its full toleration. Pods already terminating are not
 * planned again (upstream re-issues the delete, which changes nothing).
 *
 * @module
 */

import type { Node, Pod } from '../../api/model/index.js';
import type { PodCondition } from '../../api/policy/pod-conditions.js';
import { formatTime, parseTime } from '../../api/time.js';
import { nodeTaints, podNodeName, podTolerations, type Taint, toleratesTaint } from './taints.js';

export interface ScheduledEviction {
  pod: Pod;
  /** Epoch ms at which the pod's shortest toleration runs out. */
  at: number;
}

export interface TaintEvictionPlan {
  /** Pods to delete now (with the DisruptionTarget condition first). */
  evictNow: Pod[];
  /** Pods to delete later; requeue the node at the earliest `at`. */
  evictAt: ScheduledEviction[];
}

/**
 * The condition `addConditionAndDeletePod` patches onto the pod before deleting it, as it goes
 * on the wire (Go's zero `lastProbeTime` is `null`).
 */
export function taintEvictionCondition(now: number): PodCondition {
  return {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'DeletionByTaintManager',
    message: 'Taint manager: deleting due to NoExecute taint',
    lastProbeTime: null,
    lastTransitionTime: formatTime(now),
  };
}

/** Epoch ms the pod landed on its node: PodScheduled=True transition, else creation. */
function boundAt(pod: Pod): number | undefined {
  const scheduled = pod.status?.conditions?.find(
    (c) => c.type === 'PodScheduled' && c.status === 'True',
  );
  return parseTime(scheduled?.lastTransitionTime) ?? parseTime(pod.metadata?.creationTimestamp);
}

/**
 * When the pod must go: `now` for at once, a later time, or `undefined` for never. Uses the
 * first matching toleration per taint, like `GetMatchingTolerations`.
 */
export function evictionTime(taints: readonly Taint[], pod: Pod, now: number): number | undefined {
  const tolerations = podTolerations(pod);
  const bound = boundAt(pod);
  let earliest: number | undefined;
  for (const taint of taints) {
    const tol = tolerations.find((t) => toleratesTaint(t, taint));
    if (tol === undefined) return now;
    const seconds = tol.tolerationSeconds;
    // A JSON null is the same as absent: tolerate forever.
    if (seconds == null) continue;
    if (seconds <= 0) return now;
    const start = Math.max(
      parseTime(taint.timeAdded) ?? bound ?? now,
      bound ?? Number.NEGATIVE_INFINITY,
    );
    const at = start + seconds * 1000;
    earliest = earliest === undefined ? at : Math.min(earliest, at);
  }
  return earliest === undefined ? undefined : Math.max(earliest, now);
}

/** Plans NoExecute evictions for the pods bound to `node`. */
export function taintEvictions(
  node: Node,
  podsOnNode: readonly Pod[],
  now: number,
): TaintEvictionPlan {
  const plan: TaintEvictionPlan = { evictNow: [], evictAt: [] };
  const taints = nodeTaints(node).filter((t) => t.effect === 'NoExecute');
  if (taints.length === 0) return plan;
  const nodeName = node.metadata?.name ?? '';
  for (const pod of podsOnNode) {
    if (podNodeName(pod) !== nodeName || pod.metadata?.deletionTimestamp) continue;
    const at = evictionTime(taints, pod, now);
    if (at === undefined) continue;
    if (at <= now) plan.evictNow.push(pod);
    else plan.evictAt.push({ pod, at });
  }
  return plan;
}
