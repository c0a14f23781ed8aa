/**
 * PodDisruptionBudget condition helpers shared by the eviction subresource and the disruption
 * controller: apimachinery `meta.SetStatusCondition` / `FindStatusCondition` (metav1.Condition
 * lists such as PDB `status.conditions`) and component-helpers `poddisruptionbudget`
 * `UpdateDisruptionAllowedCondition` / `ConditionsAreUpToDate`.
 * Pure: every function returns new arrays and never edits its input; `now` is epoch ms.
 *
 * @module
 */

import { isJsonObject } from '../object.js';
import { formatTime } from '../time.js';

/** The PDB condition type (`policy.DisruptionAllowedCondition`). */
export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';
/** Reason when the controller failed to compute the status (`policy.SyncFailedReason`). */
export const SYNC_FAILED_REASON = 'SyncFailed';
/** Reason when at least one disruption is allowed (`policy.SufficientPodsReason`). */
export const SUFFICIENT_PODS_REASON = 'SufficientPods';
/** Reason when no disruption is allowed (`policy.InsufficientPodsReason`). */
export const INSUFFICIENT_PODS_REASON = 'InsufficientPods';

/** A `metav1.Condition` as it appears on the wire. */
export interface MetaCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** The condition a caller wants set; `lastTransitionTime` is filled from `now` when absent. */
export type ConditionUpdate = Omit<MetaCondition, 'lastTransitionTime'> & {
  lastTransitionTime?: string;
};

/** Reads a condition list; anything that is not an array of objects counts as empty. */
export function readConditions(v: unknown): MetaCondition[] {
  if (!Array.isArray(v)) return [];
  return v.filter((c): c is MetaCondition => isJsonObject(c) && typeof c.type === 'string');
}

/** `meta.FindStatusCondition`. */
export function findCondition(
  conditions: readonly MetaCondition[],
  type: string,
): MetaCondition | undefined {
  return conditions.find((c) => c.type === type);
}

/**
 * `meta.SetStatusCondition`: appends a missing condition (transition time = now unless given);
 * on an existing one, the transition time moves only when `status` changes, while reason,
 * message and observedGeneration are always overwritten.
 */
export function setStatusCondition(
  conditions: readonly MetaCondition[],
  update: ConditionUpdate,
  now: number,
): MetaCondition[] {
  const stamp = update.lastTransitionTime ?? formatTime(now);
  const index = conditions.findIndex((c) => c.type === update.type);
  const out = conditions.map((c) => ({ ...c }));
  const existing = out[index];
  if (existing === undefined) {
    out.push(withDefinedGeneration({ ...update, lastTransitionTime: stamp }));
    return out;
  }
  if (existing.status !== update.status) {
    existing.status = update.status;
    existing.lastTransitionTime = stamp;
  }
  existing.reason = update.reason;
  existing.message = update.message;
  if (update.observedGeneration === undefined) delete existing.observedGeneration;
  else existing.observedGeneration = update.observedGeneration;
  return out;
}

/** Go's `observedGeneration,omitempty`: a zero generation is not written. */
function withDefinedGeneration(c: MetaCondition): MetaCondition {
  const { observedGeneration, ...rest } = c;
  return observedGeneration ? { ...rest, observedGeneration } : rest;
}

/**
 * `UpdateDisruptionAllowedCondition`: `True/SufficientPods` when disruptions are allowed, else
 * `False/InsufficientPods`; the message is empty and the generation is the status's.
 */
export function disruptionAllowedConditions(
  conditions: readonly MetaCondition[],
  disruptionsAllowed: number,
  observedGeneration: number | undefined,
  now: number,
): MetaCondition[] {
  const allowed = disruptionsAllowed > 0;
  return setStatusCondition(
    conditions,
    {
      type: DISRUPTION_ALLOWED_CONDITION,
      status: allowed ? 'True' : 'False',
      reason: allowed ? SUFFICIENT_PODS_REASON : INSUFFICIENT_PODS_REASON,
      message: '',
      ...(observedGeneration ? { observedGeneration } : {}),
    },
    now,
  );
}

/**
 * `ConditionsAreUpToDate`: the DisruptionAllowed condition exists, the status generation is
 * current, and status/reason agree with `disruptionsAllowed`.
 */
export function conditionsAreUpToDate(
  conditions: readonly MetaCondition[],
  disruptionsAllowed: number,
  observedGeneration: number,
  generation: number,
): boolean {
  const cond = findCondition(conditions, DISRUPTION_ALLOWED_CONDITION);
  if (cond === undefined || observedGeneration !== generation) return false;
  return disruptionsAllowed > 0
    ? cond.status === 'True' && cond.reason === SUFFICIENT_PODS_REASON
    : cond.status === 'False' && cond.reason === INSUFFICIENT_PODS_REASON;
}
