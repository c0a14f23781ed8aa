/**
 * Upstream PodTopologySpread score (weight 2) for `whenUnsatisfiable: ScheduleAnyway`
 * constraints. Domains come from the feasible nodes carrying every topology key (others are
 * "ignored" and score 0); counts come from all nodes. A node's raw score is
 * Σ count(domain) × ln(domainCount + 2) + (maxSkew − 1), rounded, where hostname constraints
 * count the node's own pods. Normalised: 100 × (max + min − s) / max (100 everywhere when
 * max is 0), so emptier domains score higher.
 *
 * @module
 */
import {
  countMatching,
  hasAllTopologyKeys,
  nodeIncluded,
  type SpreadConstraint,
  spreadConstraints,
} from '../topology-spread.js';
import {
  MAX_NODE_SCORE,
  type NodeInfo,
  type SchedulingContext,
  type ScorePlugin,
} from '../types.js';

const HOSTNAME_KEY = 'kubernetes.io/hostname';

function domainCounts(
  ctx: SchedulingContext,
  constraints: readonly SpreadConstraint[],
  scored: readonly NodeInfo[],
): Map<string, number>[] {
  const counts = constraints.map(() => new Map<string, number>());
  for (const node of scored) {
    constraints.forEach((c, i) => {
      if (c.topologyKey === HOSTNAME_KEY) return;
      counts[i]?.set(node.labels[c.topologyKey] ?? '', 0);
    });
  }
  for (const node of ctx.nodes) {
    if (!hasAllTopologyKeys(constraints, node)) continue;
    constraints.forEach((c, i) => {
      if (!nodeIncluded(c, ctx, node)) return;
      const m = counts[i];
      const value = node.labels[c.topologyKey] ?? '';
      const current = m?.get(value);
      if (m === undefined || current === undefined) return;
      m.set(value, current + countMatching(c, node, ctx.namespace));
    });
  }
  return counts;
}

export const podTopologySpreadScore: ScorePlugin = {
  name: 'PodTopologySpread',
  weight: 2,
  score(ctx, feasible) {
    const constraints = spreadConstraints(ctx, 'ScheduleAnyway');
    if (constraints.length === 0) return null;
    const scored = feasible.filter((n) => hasAllTopologyKeys(constraints, n));
    const ignored = new Set(feasible.filter((n) => !scored.includes(n)).map((n) => n.name));
    const counts = domainCounts(ctx, constraints, scored);
    const weights = constraints.map((c, i) =>
      Math.log((c.topologyKey === HOSTNAME_KEY ? scored.length : (counts[i]?.size ?? 0)) + 2),
    );
    const raw = new Map<string, number>();
    for (const node of scored) {
      let s = 0;
      constraints.forEach((c, i) => {
        const cnt =
          c.topologyKey === HOSTNAME_KEY
            ? countMatching(c, node, ctx.namespace)
            : (counts[i]?.get(node.labels[c.topologyKey] ?? '') ?? 0);
        s += cnt * (weights[i] ?? 0) + (c.maxSkew - 1);
      });
      raw.set(node.name, Math.round(s));
    }
    const values = [...raw.values()];
    const min = values.length === 0 ? 0 : Math.min(...values);
    const max = values.length === 0 ? 0 : Math.max(0, ...values);
    const out = new Map<string, number>();
    for (const node of feasible) {
      const s = raw.get(node.name);
      if (ignored.has(node.name) || s === undefined) out.set(node.name, 0);
      else
        out.set(
          node.name,
          max === 0 ? MAX_NODE_SCORE : Math.trunc((MAX_NODE_SCORE * (max + min - s)) / max),
        );
    }
    return out;
  },
};
