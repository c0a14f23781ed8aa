/**
 * Upstream PodTopologySpread filter (`whenUnsatisfiable: DoNotSchedule` constraints).
 *
 * For each constraint, eligible nodes (inclusion policies, and carrying every constraint's
 * topology key) form domains; a domain's count is its matching pods. Placing the pod on a node
 * gives skew = count(node's domain) + (1 if the pod matches its own selector) − min(count);
 * the node fits when skew ≤ maxSkew. With fewer domains than `minDomains` the minimum is 0.
 * Example: zones a=2, b=0, maxSkew 1 → a gives 3−0 = 3 > 1 (rejected), b gives 1 (fits).
 *
 * @module
 */
import { pairKey } from '../affinity-terms.js';
import {
  countMatching,
  hasAllTopologyKeys,
  nodeIncluded,
  type SpreadConstraint,
  spreadConstraints,
} from '../topology-spread.js';
import type { FilterPlugin, FilterStatus, SchedulingContext } from '../types.js';

export const SPREAD_REASON = "node(s) didn't match pod topology spread constraints";
export const SPREAD_MISSING_LABEL_REASON = `${SPREAD_REASON} (missing required label)`;

interface SpreadState {
  readonly counts: Map<string, number>;
  /** Per constraint: the minimum domain count used for skew. */
  readonly minimums: number[];
}

function computeState(
  ctx: SchedulingContext,
  constraints: readonly SpreadConstraint[],
): SpreadState {
  const counts = new Map<string, number>();
  const domains = constraints.map(() => new Set<string>());
  for (const node of ctx.nodes) {
    if (!hasAllTopologyKeys(constraints, node)) continue;
    constraints.forEach((c, i) => {
      if (!nodeIncluded(c, ctx, node)) return;
      const value = node.labels[c.topologyKey] ?? '';
      const key = pairKey(c.topologyKey, value);
      domains[i]?.add(key);
      counts.set(key, (counts.get(key) ?? 0) + countMatching(c, node, ctx.namespace));
    });
  }
  const minimums = constraints.map((c, i) => {
    const ds = [...(domains[i] ?? [])];
    if (ds.length < c.minDomains) return 0;
    return ds.reduce((m, d) => Math.min(m, counts.get(d) ?? 0), Number.POSITIVE_INFINITY);
  });
  return { counts, minimums };
}

export const podTopologySpreadFilter: FilterPlugin = {
  name: 'PodTopologySpread',
  prepare(ctx) {
    const constraints = spreadConstraints(ctx, 'DoNotSchedule');
    if (constraints.length === 0) return () => null;
    const state = computeState(ctx, constraints);
    return (node): FilterStatus | null => {
      for (const [i, c] of constraints.entries()) {
        const value = node.labels[c.topologyKey];
        if (value === undefined) {
          return { code: 'UnschedulableAndUnresolvable', reasons: [SPREAD_MISSING_LABEL_REASON] };
        }
        const self = c.selector.matches(ctx.podLabels) ? 1 : 0;
        const count = state.counts.get(pairKey(c.topologyKey, value)) ?? 0;
        const skew = count + self - (state.minimums[i] ?? 0);
        if (skew > c.maxSkew) return { code: 'Unschedulable', reasons: [SPREAD_REASON] };
      }
      return null;
    };
  },
};
