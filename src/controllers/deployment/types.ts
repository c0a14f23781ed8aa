/**
 * Field accessors of the Deployment and its ReplicaSets that carry upstream's conventions: the
 * `MaxInt32` "unset" sentinel, absent counters read as 0, and the one way to resize a ReplicaSet
 * copy. The objects themselves are the API's types (`Deployment`, `ReplicaSet` in
 * `src/api/model/`).
 *
 * @module
 */
import type { Deployment, ReplicaSet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';

/** Go's `math.MaxInt32`: the "unset" sentinel of progressDeadlineSeconds and the history limit. */
export const MAX_INT32 = 2147483647;

/** `HasProgressDeadline`: set and not MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return typeof s === 'number' && s !== MAX_INT32;
}

/** `HasRevisionHistoryLimit`: set and not MaxInt32. */
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = d.spec?.revisionHistoryLimit;
  return typeof l === 'number' && l !== MAX_INT32;
}

/** Status counters of a ReplicaSet (absent → 0). */
export function rsStatusReplicas(rs: ReplicaSet | undefined): number {
  return rs?.status?.replicas ?? 0;
}

export function rsReadyReplicas(rs: ReplicaSet | undefined): number {
  return rs?.status?.readyReplicas ?? 0;
}

export function uidOf(obj: KubeObject | undefined): string {
  return obj?.metadata?.uid ?? '';
}

/**
 * `rs` with `spec.replicas` set (a new object; `rs` is untouched). A ReplicaSet without a spec,
 * which the server never stores, gets one with an empty selector.
 */
export function withReplicas(rs: ReplicaSet, replicas: number): ReplicaSet {
  const spec = rs.spec === undefined ? { selector: {}, replicas } : { ...rs.spec, replicas };
  return { ...rs, spec };
}
