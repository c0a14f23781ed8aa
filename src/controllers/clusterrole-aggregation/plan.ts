/**
 * What the ClusterRole aggregation controller writes for one aggregated ClusterRole
 * (upstream `pkg/controller/clusterroleaggregation`, `syncClusterRole`): for each of its
 * `aggregationRule.clusterRoleSelectors` in order, the ClusterRoles that selector matches
 * (itself excluded), sorted by name, contribute their rules in order, each rule once (a rule
 * equal to one already taken is skipped). Nothing to write when that union equals its rules
 * (an absent list and an empty one are equal, as upstream's semantic equality has them).
 *
 * An invalid selector stops the role's sync with the parse error, as upstream returns it.
 *
 * @module
 */
import { labelSelectorFromObject } from '../../api/labels/selector.js';
import type { ClusterRole, PolicyRule } from '../../api/model/index.js';

/** A rule without its empty lists, for upstream's semantic (nil == empty) comparison. */
function normalized(r: PolicyRule): PolicyRule {
  const out: PolicyRule = { verbs: r.verbs ?? [] };
  if ((r.apiGroups ?? []).length > 0) out.apiGroups = r.apiGroups;
  if ((r.resources ?? []).length > 0) out.resources = r.resources;
  if ((r.resourceNames ?? []).length > 0) out.resourceNames = r.resourceNames;
  if ((r.nonResourceURLs ?? []).length > 0) out.nonResourceURLs = r.nonResourceURLs;
  return out;
}

const sameRule = (a: PolicyRule, b: PolicyRule) =>
  JSON.stringify(normalized(a)) === JSON.stringify(normalized(b));

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRule(r, b[i] as PolicyRule));
}

const nameOf = (r: ClusterRole) => r.metadata?.name ?? '';

/** The aggregated rules of `role` from `all` (every ClusterRole in the cache). */
export function aggregatedRules(
  role: ClusterRole,
  all: readonly ClusterRole[],
): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (role.aggregationRule === undefined) return undefined;
  const rules: PolicyRule[] = [];
  for (const s of selectors ?? []) {
    const selector = labelSelectorFromObject(s);
    const matched = all
      .filter((r) => nameOf(r) !== nameOf(role) && selector.matches(r.metadata?.labels))
      .sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
    for (const r of matched) {
      for (const rule of r.rules ?? []) {
        if (!rules.some((have) => sameRule(have, rule))) rules.push(rule);
      }
    }
  }
  return rules;
}

/**
 * The ClusterRole to write for `role` (its stored version with the aggregated rules), or
 * undefined when it is not aggregated or already has exactly those rules.
 */
export function planAggregation(
  role: ClusterRole,
  all: readonly ClusterRole[],
): ClusterRole | undefined {
  const rules = aggregatedRules(role, all);
  if (rules === undefined || sameRules(rules, role.rules ?? [])) return undefined;
  return { ...role, rules };
}

/** The names of the aggregated ClusterRoles (each change may change any of them). */
export function aggregatedRoleNames(all: readonly ClusterRole[]): string[] {
  return all.filter((r) => r.aggregationRule !== undefined).map(nameOf);
}
