/**
 * Upstream NodeResourcesFit `LeastAllocated` score (weight 1) and
 * NodeResourcesBalancedAllocation (weight 1), both over cpu and memory with weight 1 each.
 *
 * LeastAllocated uses "non-zero" requests (missing cpu/memory count as 100m/200Mi):
 * per resource (allocatable − requested) × 100 / allocatable, 0 when over; then the mean.
 * Example: 4 cpu with 1 requested → 75; 8Gi with 6Gi → 25; score 50.
 *
 * BalancedAllocation uses real requests: with fractions f = requested/allocatable (capped at 1)
 * for cpu and memory, score = (1 − |f_cpu − f_mem| / 2) × 100; a pod requesting neither
 * resource is skipped (upstream ≥ 1.32).
 *
 * @module
 */
import { podRequests } from '../resources.js';
import { MAX_NODE_SCORE, type NodeInfo, type ScorePlugin } from '../types.js';

const SCORED = ['cpu', 'memory'] as const;

function leastAllocated(requested: readonly bigint[], allocatable: readonly bigint[]): number {
  let sum = 0n;
  let weights = 0n;
  requested.forEach((req, i) => {
    const cap = allocatable[i] ?? 0n;
    if (cap === 0n) return;
    sum += req > cap ? 0n : ((cap - req) * BigInt(MAX_NODE_SCORE)) / cap;
    weights += 1n;
  });
  return weights === 0n ? 0 : Number(sum / weights);
}

function balanced(requested: readonly bigint[], allocatable: readonly bigint[]): number {
  const fractions: number[] = [];
  requested.forEach((req, i) => {
    const cap = allocatable[i] ?? 0n;
    if (cap === 0n) return;
    fractions.push(Math.min(1, Number(req) / Number(cap)));
  });
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs(((fractions[0] ?? 0) - (fractions[1] ?? 0)) / 2);
  } else if (fractions.length > 2) {
    const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
    std = Math.sqrt(fractions.reduce((a, f) => a + (f - mean) ** 2, 0) / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

function vectors(node: NodeInfo, pod: ReadonlyMap<string, bigint>, nonZero: boolean) {
  const base = nonZero ? node.nonZeroRequested : node.requested;
  return {
    requested: SCORED.map((r) => (base.get(r) ?? 0n) + (pod.get(r) ?? 0n)),
    allocatable: SCORED.map((r) => node.allocatable.get(r) ?? 0n),
  };
}

export const leastAllocatedScore: ScorePlugin = {
  name: 'NodeResourcesFit',
  weight: 1,
  score(ctx, feasible) {
    const pod = podRequests(ctx.podSpec, true);
    const out = new Map<string, number>();
    for (const node of feasible) {
      const v = vectors(node, pod, true);
      out.set(node.name, leastAllocated(v.requested, v.allocatable));
    }
    return out;
  },
};

export const balancedAllocationScore: ScorePlugin = {
  name: 'NodeResourcesBalancedAllocation',
  weight: 1,
  score(ctx, feasible) {
    const pod = podRequests(ctx.podSpec, false);
    if (SCORED.every((r) => (pod.get(r) ?? 0n) === 0n)) return null;
    const out = new Map<string, number>();
    for (const node of feasible) {
      const v = vectors(node, pod, false);
      out.set(node.name, balanced(v.requested, v.allocatable));
    }
    return out;
  },
};
