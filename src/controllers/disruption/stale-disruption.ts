/**
 * Upstream `nonTerminatingPodHasStaleDisruptionCondition` and `syncStalePodDisruption`: a pod
 * that got `DisruptionTarget=True` (an eviction that was then not carried out) but is neither
 * deleting nor terminal has the condition reset to False 2 minutes after it was set. The
 * kubelet's own `TerminationByKubelet` conditions are never stale. Pure; `now` is epoch ms.
 *
 * @module
 */

import type { Pod } from '../../api/model/index.js';
import {
  DISRUPTION_TARGET_CONDITION,
  type PodCondition,
  updatePodCondition,
} from '../../api/policy/pod-conditions.js';
import { formatTime, parseTime } from '../../api/time.js';

/** Upstream `stalePodDisruptionTimeout`. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;

/** Whether a pod's DisruptionTarget is (or will become) stale; `waitMs` 0 means reset it now. */
export type StaleDisruption =
  | { readonly stale: false }
  | { readonly stale: true; readonly waitMs: number };

export function staleDisruption(pod: Pod, now: number): StaleDisruption {
  const deleting = pod.metadata?.deletionTimestamp;
  const phase = pod.status?.phase;
  if (
    (deleting !== undefined && deleting !== null) ||
    phase === 'Succeeded' ||
    phase === 'Failed'
  ) {
    return { stale: false };
  }
  const cond = (pod.status?.conditions ?? []).find((c) => c.type === DISRUPTION_TARGET_CONDITION);
  if (cond === undefined || cond.status !== 'True' || cond.reason === 'TerminationByKubelet') {
    return { stale: false };
  }
  const since = parseTime(cond.lastTransitionTime) ?? Number.NEGATIVE_INFINITY;
  return { stale: true, waitMs: Math.max(0, since + STALE_POD_DISRUPTION_TIMEOUT_MS - now) };
}

/**
 * The pod's conditions with `DisruptionTarget` reset to False (reason and message cleared), or
 * undefined when that changes nothing.
 */
export function resetDisruptionTarget(pod: Pod, now: number): PodCondition[] | undefined {
  const next = updatePodCondition(pod.status?.conditions, {
    type: DISRUPTION_TARGET_CONDITION,
    status: 'False',
    lastProbeTime: null,
    lastTransitionTime: formatTime(now),
  });
  return next.changed ? next.conditions : undefined;
}
