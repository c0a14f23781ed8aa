/**
 * Upstream InterPodAffinity score (weight 2). Every (existing pod, term) match adds or removes
 * weight on the existing pod's topology domain:
 * the incoming pod's preferred affinity (+w) and anti-affinity (−w) matching an existing pod;
 * an existing pod's required affinity (+1, `hardPodAffinityWeight`), preferred affinity (+w)
 * and preferred anti-affinity (−w) matching the incoming pod. A node sums the values of the
 * domains it belongs to; scores are then scaled min→0, max→100 (all 0 when equal).
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import { type AffinityTerm, podAffinityTerms, termMatchesPod } from '../affinity-terms.js';
import {
  MAX_NODE_SCORE,
  type NodeInfo,
  type SchedulingContext,
  type ScorePlugin,
} from '../types.js';

const HARD_POD_AFFINITY_WEIGHT = 1;

/** topologyKey → value → score. */
type TopologyScores = Map<string, Map<string, number>>;

function add(
  scores: TopologyScores,
  terms: readonly AffinityTerm[],
  target: Pod,
  node: NodeInfo,
  ctx: SchedulingContext,
  sign: 1 | -1,
  weightOverride?: number,
): void {
  for (const t of terms) {
    const value = node.labels[t.topologyKey];
    if (value === undefined || !termMatchesPod(t, target, ctx.namespaceLabels)) continue;
    const byValue = scores.get(t.topologyKey) ?? new Map<string, number>();
    scores.set(t.topologyKey, byValue);
    byValue.set(value, (byValue.get(value) ?? 0) + sign * (weightOverride ?? t.weight));
  }
}

function topologyScores(ctx: SchedulingContext): TopologyScores {
  const own = podAffinityTerms(ctx.pod);
  const scores: TopologyScores = new Map();
  // Without preferred terms of its own, only existing pods with affinity can add weight.
  const ownPreferred = own.preferredAffinity.length + own.preferredAntiAffinity.length > 0;
  for (const node of ctx.nodes) {
    if (Object.keys(node.labels).length === 0) continue;
    for (const existing of ownPreferred ? node.pods : (node.podsWithAffinity ?? node.pods)) {
      add(scores, own.preferredAffinity, existing, node, ctx, 1);
      add(scores, own.preferredAntiAffinity, existing, node, ctx, -1);
      const theirs = podAffinityTerms(existing);
      add(scores, theirs.requiredAffinity, ctx.pod, node, ctx, 1, HARD_POD_AFFINITY_WEIGHT);
      add(scores, theirs.preferredAffinity, ctx.pod, node, ctx, 1);
      add(scores, theirs.preferredAntiAffinity, ctx.pod, node, ctx, -1);
    }
  }
  return scores;
}

export const interPodAffinityScore: ScorePlugin = {
  name: 'InterPodAffinity',
  weight: 2,
  score(ctx, feasible) {
    const scores = topologyScores(ctx);
    if (scores.size === 0) return null;
    const raw = new Map<string, number>();
    for (const node of feasible) {
      let sum = 0;
      for (const [key, byValue] of scores) {
        const v = node.labels[key];
        if (v !== undefined) sum += byValue.get(v) ?? 0;
      }
      raw.set(node.name, sum);
    }
    const values = [...raw.values()];
    const min = Math.min(...values);
    const diff = Math.max(...values) - min;
    const out = new Map<string, number>();
    for (const [name, s] of raw) {
      out.set(name, diff > 0 ? Math.trunc((MAX_NODE_SCORE * (s - min)) / diff) : 0);
    }
    return out;
  },
};
