/**
 * Deployment scaling events, following upstream `sync.go: scale` with `deployment_util.go:
 * FindActiveOrLatest`, `IsSaturated`, `GetProportion`, `getReplicaSetFraction`,
 * `ReplicasAnnotationsNeedUpdate` and `controller_utils.go: ReplicaSetsBySizeNewer/Older`.
 * Pure: returns the new size of every ReplicaSet the controller must write.
 *
 * @module
 */

import type { Deployment, ReplicaSet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import {
  activeReplicaSets,
  byCreationTimestamp,
  deploymentReplicas,
  maxSurge,
  replicaCount,
  rsAvailable,
  rsName,
  rsReplicas,
  strategyType,
} from './rollout-math.js';

export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';

const INT32_MAX = 2147483647;

/**
 * Reads a replicas annotation as newer upstream does (`getNonNegativeInt32FromAnnotation`:
 * ParseUint base 10, ≤ MaxInt32). Absent or invalid → `undefined`.
 */
export function replicasAnnotation(rs: KubeObject, key: string): number | undefined {
  const raw = rs.metadata?.annotations?.[key];
  if (raw === undefined || !/^[0-9]+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= INT32_MAX ? n : undefined;
}

/** The annotation values every scaled RS must carry: desired = replicas, max = replicas + surge. */
export function replicasAnnotations(d: Deployment): { desired: number; max: number } {
  const desired = deploymentReplicas(d);
  return { desired, max: desired + maxSurge(d) };
}

/** `ReplicasAnnotationsNeedUpdate`: either annotation differs from its decimal string. */
export function replicasAnnotationsNeedUpdate(
  rs: KubeObject,
  desired: number,
  max: number,
): boolean {
  const a = rs.metadata?.annotations;
  return (
    a?.[DESIRED_REPLICAS_ANNOTATION] !== String(desired) ||
    a?.[MAX_REPLICAS_ANNOTATION] !== String(max)
  );
}

/** `isScalingEvent`: some active RS has a valid desired-replicas annotation ≠ spec.replicas. */
export function isScalingEvent(
  d: Deployment,
  allRSs: readonly (ReplicaSet | undefined)[],
): boolean {
  const replicas = deploymentReplicas(d);
  return activeReplicaSets(allRSs).some((rs) => {
    const desired = replicasAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
    return desired !== undefined && desired !== replicas;
  });
}

/**
 * `FindActiveOrLatest`: with at most one active RS, the one to scale (the active one; if none is
 * active, newRS, else the newest old RS). `undefined` when several are active or none exist.
 */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): ReplicaSet | undefined {
  if (newRS === undefined && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

/** `IsSaturated`: newRS has replicas, desired annotation and available all equal to d.replicas. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (rs === undefined) return false;
  const replicas = deploymentReplicas(d);
  const desired = replicasAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
  return rsReplicas(rs) === replicas && desired === replicas && rsAvailable(rs) === replicas;
}

/** Go `integer.RoundToInt32`: round half away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? Math.ceil(x - 0.5) : Math.floor(x + 0.5);
}

/**
 * `getReplicaSetFraction`: how far proportional scaling would move this RS. Scaling to 0 removes
 * it all; else round(size × (replicas + surge) / annotated max) − size, where the annotated max
 * falls back to `d.status.replicas`. A zero denominator yields 0 here (upstream divides by zero).
 */
function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  const replicas = deploymentReplicas(d);
  if (replicas === 0) return -rsReplicas(rs);
  const before = replicasAnnotation(rs, MAX_REPLICAS_ANNOTATION) ?? d.status?.replicas ?? 0;
  if (before === 0) return 0;
  return roundHalfAway((rsReplicas(rs) * (replicas + maxSurge(d))) / before) - rsReplicas(rs);
}

/** `GetProportion`: the fraction clamped so the running total never overshoots `toAdd`. */
function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** Larger first; equal sizes newer first when growing (`BySizeNewer`), older first when shrinking. */
function bySize(growing: boolean): (a: ReplicaSet, b: ReplicaSet) => number {
  return (a, b) =>
    rsReplicas(b) - rsReplicas(a) ||
    (growing ? byCreationTimestamp(b, a) : byCreationTimestamp(a, b));
}

/** One RS write planned by a scaling event (size may be unchanged: annotations are still synced). */
export interface ScaleTarget {
  name: string;
  from: number;
  to: number;
}

export interface ScalePlan {
  /** Which branch of upstream `scale` applied. */
  kind: 'none' | 'active-or-latest' | 'saturated' | 'proportional';
  /** RSes to write, in upstream's update order. */
  targets: ScaleTarget[];
  /** Annotation values to stamp on every written RS (when they differ, even without a resize). */
  annotations: { desired: number; max: number };
}

function target(rs: ReplicaSet, to: number): ScaleTarget {
  return { name: rsName(rs), from: rsReplicas(rs), to };
}

function proportionalTargets(d: Deployment, all: ReplicaSet[]): ScaleTarget[] {
  const replicas = deploymentReplicas(d);
  const allowed = replicas > 0 ? replicas + maxSurge(d) : 0;
  const toAdd = allowed - replicaCount(all);
  if (toAdd !== 0) all.sort(bySize(toAdd > 0));
  let added = 0;
  const sizes = all.map((rs) => {
    const p = proportion(rs, d, toAdd, added);
    added += p;
    return rsReplicas(rs) + p;
  });
  // Leftovers (rounding) go to the first, i.e. largest, RS — floored at 0.
  if (toAdd !== 0 && sizes.length > 0) sizes[0] = Math.max(0, (sizes[0] ?? 0) + toAdd - added);
  return all.map((rs, i) => target(rs, sizes[i] ?? rsReplicas(rs)));
}

/**
 * Upstream `scale` as a plan. `newRS` may be absent (paused deployment with a changed template).
 * 1. ≤ 1 active RS → that (or the latest) RS gets spec.replicas (no write if already equal).
 * 2. newRS saturated → every active old RS goes to 0.
 * 3. RollingUpdate → proportional distribution of replicas + maxSurge over the active RSes.
 * Recreate with several active RSes → no change.
 */
export function proportionalScale(
  d: Deployment,
  replicaSets: { newRS?: ReplicaSet | undefined; oldRSs: readonly ReplicaSet[] },
): ScalePlan {
  const { newRS, oldRSs } = replicaSets;
  const annotations = replicasAnnotations(d);
  const replicas = deploymentReplicas(d);
  const only = findActiveOrLatest(newRS, oldRSs);
  // Upstream's FindActiveOrLatest sorts oldRSs newest-first in place; later steps see that order.
  if (only !== undefined) {
    const targets = rsReplicas(only) === replicas ? [] : [target(only, replicas)];
    return { kind: targets.length ? 'active-or-latest' : 'none', targets, annotations };
  }
  if (isSaturated(d, newRS)) {
    return {
      kind: 'saturated',
      targets: activeReplicaSets(oldRSs).map((rs) => target(rs, 0)),
      annotations,
    };
  }
  if (strategyType(d) !== 'RollingUpdate') return { kind: 'none', targets: [], annotations };
  const all = activeReplicaSets([...[...oldRSs].sort((a, b) => byCreationTimestamp(b, a)), newRS]);
  return { kind: 'proportional', targets: proportionalTargets(d, all), annotations };
}
