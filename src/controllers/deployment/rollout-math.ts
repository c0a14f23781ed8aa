/**
 * Deployment rollout arithmetic, following upstream `deployment/util/deployment_util.go`
 * (`ResolveFenceposts`, `MaxSurge`, `MaxUnavailable`, `NewRSNewReplicas`), apimachinery
 * `intstr.GetScaledValueFromIntOrPercent`, and `rolling.go` (`reconcileNewReplicaSet`,
 * `reconcileOldReplicaSets`, `cleanupUnhealthyReplicas`, `scaleDownOldReplicaSetsForRollingUpdate`).
 * Pure planners: they return target sizes; the controller performs the writes.
 *
 * @module
 */

import type { Deployment, IntOrString, ReplicaSet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { replicasOf } from '../../controller/workload-defaults.js';
import { withReplicas } from './types.js';

export type { IntOrString };

/** Go `strconv.Atoi` syntax: optional sign, then decimal digits. */
const ATOI = /^[+-]?[0-9]+$/;

/**
 * `GetScaledValueFromIntOrPercent`: ints as-is; "N%" of `total`, rounded up or down. Throws with
 * upstream's message for a string that is not a percentage or whose number does not parse.
 */
export function scaledValueFromIntOrPercent(
  value: IntOrString,
  total: number,
  roundUp: boolean,
): number {
  if (typeof value === 'number') return Math.trunc(value);
  if (!value.endsWith('%')) {
    throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  }
  const digits = value.slice(0, -1);
  if (!ATOI.test(digits)) {
    throw new Error(
      `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${digits}": invalid syntax`,
    );
  }
  // Same float64 expression as upstream: value * total / 100, then ceil or floor.
  const scaled = (Number(digits) * total) / 100;
  return (roundUp ? Math.ceil(scaled) : Math.floor(scaled)) + 0;
}

export interface Fenceposts {
  maxSurge: number;
  maxUnavailable: number;
}

/**
 * `ResolveFenceposts`: surge rounds up, unavailable rounds down, an absent value counts as 0, and
 * if both resolve to 0 unavailable becomes 1 (validation forbids explicit 0/0, but rounding down
 * can produce it; 1 is preferred because surge may be blocked by quota).
 */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined | null,
  maxUnavailable: IntOrString | undefined | null,
  desired: number,
): Fenceposts {
  const surge = scaledValueFromIntOrPercent(maxSurge ?? 0, desired, true);
  const unavailable = scaledValueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  return { maxSurge: surge, maxUnavailable: surge === 0 && unavailable === 0 ? 1 : unavailable };
}

/** `spec.replicas`, defaulted to 1. */
export function deploymentReplicas(d: Deployment): number {
  return replicasOf(d);
}

/** `spec.strategy.type`, defaulted to RollingUpdate. */
export function strategyType(d: Deployment): string {
  return d.spec?.strategy?.type ?? 'RollingUpdate';
}

/** The rolling-update parameters with the API defaults (25% / 25%) for absent fields. */
function rollingParams(d: Deployment): { surge: IntOrString; unavailable: IntOrString } {
  const ru = d.spec?.strategy?.rollingUpdate;
  return { surge: ru?.maxSurge ?? '25%', unavailable: ru?.maxUnavailable ?? '25%' };
}

/** Resolved fenceposts of a RollingUpdate deployment (throws on an invalid value). */
export function deploymentFenceposts(d: Deployment): Fenceposts {
  const { surge, unavailable } = rollingParams(d);
  return resolveFenceposts(surge, unavailable, deploymentReplicas(d));
}

/** `MaxSurge`: 0 unless RollingUpdate. */
export function maxSurge(d: Deployment): number {
  return strategyType(d) === 'RollingUpdate' ? deploymentFenceposts(d).maxSurge : 0;
}

/** `MaxUnavailable`: 0 unless RollingUpdate with replicas > 0; never more than replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (strategyType(d) !== 'RollingUpdate' || replicas === 0) return 0;
  return Math.min(deploymentFenceposts(d).maxUnavailable, replicas);
}

/** ReplicaSet `spec.replicas` (absent → 0 here, as every controller-made RS sets it). */
export function rsReplicas(rs: ReplicaSet | undefined): number {
  return rs?.spec?.replicas ?? 0;
}

/** ReplicaSet `status.availableReplicas`. */
export function rsAvailable(rs: ReplicaSet | undefined): number {
  return rs?.status?.availableReplicas ?? 0;
}

export function rsName(rs: KubeObject): string {
  return rs.metadata?.name ?? '';
}

function createdMs(rs: KubeObject): number {
  const t = rs.metadata?.creationTimestamp;
  const ms = typeof t === 'string' ? Date.parse(t) : Number.NaN;
  // Go's zero time is the earliest instant.
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** `ReplicaSetsByCreationTimestamp`: older first, ties by name. */
export function byCreationTimestamp(a: KubeObject, b: KubeObject): number {
  const ta = createdMs(a);
  const tb = createdMs(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return rsName(a) < rsName(b) ? -1 : rsName(a) > rsName(b) ? 1 : 0;
}

/** `FilterActiveReplicaSets`: spec.replicas > 0. */
export function activeReplicaSets(rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return rss.filter((rs): rs is ReplicaSet => rs !== undefined && rsReplicas(rs) > 0);
}

/** Σ spec.replicas (`GetReplicaCountForReplicaSets`). */
export function replicaCount(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + rsReplicas(rs), 0);
}

/** Σ status.availableReplicas (`GetAvailableReplicaCountForReplicaSets`). */
export function availableReplicaCount(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + rsAvailable(rs), 0);
}

/**
 * `NewRSNewReplicas`: the size the new ReplicaSet may grow to this sync. RollingUpdate: if Σ
 * spec.replicas of all RSes already reaches replicas + maxSurge, unchanged; else grow by the room
 * left, never past replicas. Recreate: replicas. Other types throw upstream's error.
 * Note: surge here is the raw rounded-up percentage (no fencepost fix-up), as upstream.
 */
export function newRsNewReplicas(
  d: Deployment,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet,
): number {
  const type = strategyType(d);
  const replicas = deploymentReplicas(d);
  if (type === 'Recreate') return replicas;
  if (type !== 'RollingUpdate') throw new Error(`deployment type ${type} isn't supported`);
  const surge = scaledValueFromIntOrPercent(rollingParams(d).surge, replicas, true);
  const current = replicaCount(allRSs);
  const maxTotal = replicas + surge;
  if (current >= maxTotal) return rsReplicas(newRS);
  return rsReplicas(newRS) + Math.min(maxTotal - current, replicas - rsReplicas(newRS));
}

/**
 * `reconcileNewReplicaSet`'s target: equal → unchanged; larger than replicas → replicas; else
 * `newRsNewReplicas`. The caller scales only when the result differs from the current size.
 */
export function newReplicaSetTarget(
  d: Deployment,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet,
): number {
  const replicas = deploymentReplicas(d);
  if (rsReplicas(newRS) >= replicas) return replicas;
  return newRsNewReplicas(d, allRSs, newRS);
}

/** One planned ReplicaSet resize. */
export interface ScaleStep {
  name: string;
  from: number;
  to: number;
}

/** The scale-down half of a rolling update. */
export interface OldScaleDownPlan {
  /** allPods − minAvailable − newRS unavailable; nothing happens when ≤ 0. */
  maxScaledDown: number;
  /** Steps of `cleanupUnhealthyReplicas` (unavailable old replicas first, oldest RS first). */
  cleanup: ScaleStep[];
  /** Steps of `scaleDownOldReplicaSetsForRollingUpdate` (available budget, oldest RS first). */
  scaleDown: ScaleStep[];
}

function cleanupUnhealthy(oldRSs: ReplicaSet[], budget: number, steps: ScaleStep[]): ReplicaSet[] {
  let done = 0;
  return oldRSs.map((rs) => {
    const spec = rsReplicas(rs);
    const unhealthy = spec - rsAvailable(rs);
    if (done >= budget || spec === 0 || unhealthy === 0) return rs;
    const by = Math.min(budget - done, unhealthy);
    // available > spec would make this a scale UP; upstream refuses with this error.
    if (by < 0) {
      const ref = `${rs.metadata?.namespace ?? ''}/${rsName(rs)}`;
      throw new Error(
        `when cleaning up unhealthy replicas, got invalid request to scale down ${ref} ${spec} -> ${spec - by}`,
      );
    }
    done += by;
    steps.push({ name: rsName(rs), from: spec, to: spec - by });
    return withReplicas(rs, spec - by);
  });
}

function scaleDownAvailable(
  d: Deployment,
  oldRSs: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  steps: ScaleStep[],
): void {
  const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
  // Counted over ACTIVE old RSes (as they were before cleanup) + newRS only.
  const available = availableReplicaCount([...oldRSs, newRS]);
  if (available <= minAvailable) return;
  const budget = available - minAvailable;
  let done = 0;
  for (const rs of oldRSs) {
    if (done >= budget) break;
    const spec = rsReplicas(rs);
    if (spec === 0) continue;
    const by = Math.min(spec, budget - done);
    done += by;
    steps.push({ name: rsName(rs), from: spec, to: spec - by });
  }
}

/**
 * `reconcileOldReplicaSets`. `allRSs` is every RS of the deployment (new and all old, any size);
 * `oldRSs` the old ones (filtered to active here). Returns the planned steps; the second phase
 * sees the sizes left by the first. A cleanup step and a scale-down step may name the same RS:
 * apply them in order (the later `to` wins).
 */
export function planOldReplicaSetsScaleDown(
  d: Deployment,
  allRSs: readonly (ReplicaSet | undefined)[],
  oldRSs: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
): OldScaleDownPlan {
  const active = activeReplicaSets(oldRSs).sort(byCreationTimestamp);
  const plan: OldScaleDownPlan = { maxScaledDown: 0, cleanup: [], scaleDown: [] };
  if (replicaCount(active) === 0) return plan;
  const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
  const newUnavailable = rsReplicas(newRS) - rsAvailable(newRS);
  plan.maxScaledDown = replicaCount(allRSs) - minAvailable - newUnavailable;
  if (plan.maxScaledDown <= 0) return plan;
  const afterCleanup = cleanupUnhealthy(active, plan.maxScaledDown, plan.cleanup);
  scaleDownAvailable(d, afterCleanup, newRS, plan.scaleDown);
  return plan;
}
