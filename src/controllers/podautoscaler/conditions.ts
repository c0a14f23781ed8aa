/**
 * The HPA's status conditions (upstream `setConditionInList`): `AbleToScale`, `ScalingActive`
 * and `ScalingLimited`, each set in place with its reason and message; the transition time moves
 * only when the status changes (or the condition is new).
 *
 * @module
 */
import type { HorizontalPodAutoscalerCondition } from '../../api/model/index.js';

export type ConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A condition to set, without its transition time. */
export interface ConditionChange {
  readonly type: ConditionType;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/** `list` with `change` applied (a new list; the condition keeps its place, or is appended). */
export function setCondition(
  list: readonly HorizontalPodAutoscalerCondition[],
  change: ConditionChange,
  nowIso: string,
): HorizontalPodAutoscalerCondition[] {
  const next = [...list];
  const i = next.findIndex((c) => c.type === change.type);
  const existing = i >= 0 ? next[i] : undefined;
  const lastTransitionTime =
    existing !== undefined && existing.status === change.status && existing.lastTransitionTime
      ? existing.lastTransitionTime
      : nowIso;
  const updated: HorizontalPodAutoscalerCondition = {
    type: change.type,
    status: change.status,
    lastTransitionTime,
    reason: change.reason,
    message: change.message,
  };
  if (i >= 0) next[i] = updated;
  else next.push(updated);
  return next;
}

/** Upstream `getUnableComputeReplicaCountCondition`'s condition. */
export function unableToCompute(reason: string, error: string): ConditionChange {
  return {
    type: 'ScalingActive',
    status: 'False',
    reason,
    message: `the HPA was unable to compute the replica count: ${error}`,
  };
}
