/**
 * Upstream InterPodAffinity filter (required terms only):
 *
 * 1. the incoming pod's required affinity: every term's topology domain on the node must hold
 *    a pod matching all terms — unless no such pod exists anywhere and the pod matches its own
 *    terms (the first pod of a self-affine group);
 * 2. the incoming pod's required anti-affinity: no matching pod in the node's domain;
 * 3. existing pods' required anti-affinity: no pod whose term matches the incoming pod may sit
 *    in a domain this node belongs to.
 *
 * A node missing a term's topology label fails (1) and is ignored by (2) and (3).
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import { type AffinityTerm, pairKey, podAffinityTerms, termMatchesPod } from '../affinity-terms.js';
import type { FilterPlugin, FilterStatus, NodeInfo, SchedulingContext } from '../types.js';

export const AFFINITY_REASON = "node(s) didn't match pod affinity rules";
export const ANTI_AFFINITY_REASON = "node(s) didn't match pod anti-affinity rules";
export const EXISTING_ANTI_AFFINITY_REASON =
  "node(s) didn't satisfy existing pods anti-affinity rules";

type Counts = Map<string, number>;

function bump(counts: Counts, key: string, value: string): void {
  const k = pairKey(key, value);
  counts.set(k, (counts.get(k) ?? 0) + 1);
}

/** Adds the domains of `node` for every term in `terms` to `counts`. */
function bumpDomains(counts: Counts, terms: readonly AffinityTerm[], node: NodeInfo): void {
  for (const t of terms) {
    const v = node.labels[t.topologyKey];
    if (v !== undefined) bump(counts, t.topologyKey, v);
  }
}

function countIncoming(
  ctx: SchedulingContext,
  affinity: readonly AffinityTerm[],
  anti: readonly AffinityTerm[],
) {
  const affinityCounts: Counts = new Map();
  const antiCounts: Counts = new Map();
  const matches = (t: AffinityTerm, p: Pod) => termMatchesPod(t, p, ctx.namespaceLabels);
  // A pod without required terms counts nothing: skip the O(pods) scan.
  if (affinity.length === 0 && anti.length === 0) return { affinityCounts, antiCounts };
  for (const node of ctx.nodes) {
    for (const existing of node.pods) {
      // Affinity terms are ANDed: an existing pod counts only when it matches all of them.
      if (affinity.length > 0 && affinity.every((t) => matches(t, existing))) {
        bumpDomains(affinityCounts, affinity, node);
      }
      bumpDomains(
        antiCounts,
        anti.filter((t) => matches(t, existing)),
        node,
      );
    }
  }
  return { affinityCounts, antiCounts };
}

function countExistingAnti(ctx: SchedulingContext): Counts {
  const counts: Counts = new Map();
  for (const node of ctx.nodes) {
    for (const existing of node.podsWithRequiredAntiAffinity ?? node.pods) {
      for (const t of podAffinityTerms(existing).requiredAntiAffinity) {
        const v = node.labels[t.topologyKey];
        if (v !== undefined && termMatchesPod(t, ctx.pod, ctx.namespaceLabels)) {
          bump(counts, t.topologyKey, v);
        }
      }
    }
  }
  return counts;
}

function satisfiesAffinity(
  terms: readonly AffinityTerm[],
  counts: Counts,
  node: NodeInfo,
  selfMatches: boolean,
): boolean {
  let podsExist = true;
  for (const t of terms) {
    const v = node.labels[t.topologyKey];
    if (v === undefined) return false;
    if ((counts.get(pairKey(t.topologyKey, v)) ?? 0) <= 0) podsExist = false;
  }
  return podsExist || (counts.size === 0 && selfMatches);
}

function inCountedDomain(node: NodeInfo, counts: Counts, keys: Iterable<string>): boolean {
  // Nothing counted (no pod has anti-affinity, the common case): no key can match. Without
  // this, every node's every label cost a key string per scheduling attempt (~2 % of the
  // controller thread in a 1,000-pod rollout).
  if (counts.size === 0) return false;
  for (const key of keys) {
    const v = node.labels[key];
    if (v !== undefined && (counts.get(pairKey(key, v)) ?? 0) > 0) return true;
  }
  return false;
}

function selfMatchesAll(terms: readonly AffinityTerm[], pod: Pod, ctx: SchedulingContext): boolean {
  return terms.length > 0 && terms.every((t) => termMatchesPod(t, pod, ctx.namespaceLabels));
}

export const interPodAffinityFilter: FilterPlugin = {
  name: 'InterPodAffinity',
  prepare(ctx) {
    const own = podAffinityTerms(ctx.pod);
    const { affinityCounts, antiCounts } = countIncoming(
      ctx,
      own.requiredAffinity,
      own.requiredAntiAffinity,
    );
    const existingAnti = countExistingAnti(ctx);
    const selfMatches = selfMatchesAll(own.requiredAffinity, ctx.pod, ctx);
    const antiKeys = own.requiredAntiAffinity.map((t) => t.topologyKey);
    return (node): FilterStatus | null => {
      if (!satisfiesAffinity(own.requiredAffinity, affinityCounts, node, selfMatches)) {
        return { code: 'UnschedulableAndUnresolvable', reasons: [AFFINITY_REASON] };
      }
      if (inCountedDomain(node, antiCounts, antiKeys)) {
        return { code: 'Unschedulable', reasons: [ANTI_AFFINITY_REASON] };
      }
      if (existingAnti.size > 0 && inCountedDomain(node, existingAnti, Object.keys(node.labels))) {
        return { code: 'Unschedulable', reasons: [EXISTING_ANTI_AFFINITY_REASON] };
      }
      return null;
    };
  },
};
