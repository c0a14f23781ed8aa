/**
 * The destructive half of a RollingUpdate (upstream `stateful_set_control.go`: the tail of
 * `updateStatefulSet`, `updateStatefulSetAfterInvariantEstablished`,
 * `getStatefulSetMaxUnavailable`; docs/design/statefulset.md §8.2–§8.3). Runs only after the replica and condemned
 * passes finished without blocking.
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import { getScaledValueFromIntOrPercent } from '../../api/validation/int-or-string.js';
import { isTerminating, isUnavailable, podRevision, type SetView } from './plan-spec.js';

/**
 * Upstream `getStatefulSetMaxUnavailable`: the value (default 1), a percent of `replicas` rounded
 * DOWN, then at least 1 (so 10% of 5 replicas is 1, 50% of 5 is 2).
 */
export function maxUnavailableOf(value: number | string | undefined, replicas: number): number {
  const n = getScaledValueFromIntOrPercent(value ?? 1, replicas, false);
  return Math.max(n, 1);
}

export interface UpdateContext {
  view: SetView;
  replicas: readonly Pod[];
  updateRevision: string;
  now: number;
  gate: boolean;
}

function needsUpdate(pod: Pod, updateRevision: string): boolean {
  return podRevision(pod) !== updateRevision && !isTerminating(pod);
}

/** Gate off: delete the highest not-updated pod, but only while every higher one is available. */
function oneAtATime(ctx: UpdateContext): Pod[] {
  const min = ctx.view.partition ?? 0;
  for (let target = ctx.replicas.length - 1; target >= min; target--) {
    const pod = ctx.replicas[target];
    if (pod === undefined) continue;
    if (needsUpdate(pod, ctx.updateRevision)) return [pod];
    if (isUnavailable(pod, ctx.view.minReadySeconds, ctx.now)) return [];
  }
  return [];
}

/**
 * Gate on: count unavailable replicas over the WHOLE range (partition ignored), then delete up to
 * `maxUnavailable − unavailable` not-updated pods from the highest index down to the partition.
 */
function withinBudget(ctx: UpdateContext): Pod[] {
  const v = ctx.view;
  const min = v.partition ?? 0;
  // rollingUpdate nil → maxUnavailable 1, as upstream.
  const max = v.partition === undefined ? 1 : maxUnavailableOf(v.maxUnavailable, v.replicas);
  const unavailable = ctx.replicas.filter((p) =>
    isUnavailable(p, v.minReadySeconds, ctx.now),
  ).length;
  if (unavailable >= max) return [];
  const victims: Pod[] = [];
  for (let target = ctx.replicas.length - 1; target >= min; target--) {
    if (victims.length >= max - unavailable) break;
    const pod = ctx.replicas[target];
    if (pod !== undefined && needsUpdate(pod, ctx.updateRevision)) victims.push(pod);
  }
  return victims;
}

/** The pods to delete for the update this sync, in deletion order. */
export function updateVictims(ctx: UpdateContext): Pod[] {
  return ctx.gate ? withinBudget(ctx) : oneAtATime(ctx);
}
