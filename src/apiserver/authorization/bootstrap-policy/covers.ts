/**
 * Upstream's rule coverage (`pkg/registry/rbac/validation/policy_compact.go` and
 * `policy_comparator.go`: `BreakdownRule`, `Covers`), which the bootstrap reconciliation uses
 * to find the permissions an existing role lacks: each expected rule is broken into atomic
 * rules (one group, resource, name and verb; or one URL and verb), and those no existing
 * rule covers are the missing ones, appended as they are (upstream appends the atomic rules).
 *
 * @module
 */
import type { PolicyRule } from '../../../api/model/index.js';

/** Upstream `BreakdownRule`. */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const names = r.resourceNames ?? [];
  // A rule without names stands for every name: one atomic rule per group/resource/verb.
  const nameParts: Pick<PolicyRule, 'resourceNames'>[] =
    names.length > 0 ? names.map((n) => ({ resourceNames: [n] })) : [{}];
  const resourceRules = (r.apiGroups ?? []).flatMap((g) =>
    (r.resources ?? []).flatMap((res) =>
      nameParts.flatMap((n) =>
        r.verbs.map((v) => ({ apiGroups: [g], resources: [res], ...n, verbs: [v] })),
      ),
    ),
  );
  const urlRules = (r.nonResourceURLs ?? []).flatMap((u) =>
    r.verbs.map((v) => ({ nonResourceURLs: [u], verbs: [v] })),
  );
  return [...resourceRules, ...urlRules];
}

const has = (set: readonly string[] | undefined, x: string) => (set ?? []).includes(x);
const hasAll = (set: readonly string[] | undefined, xs: readonly string[] | undefined) =>
  (xs ?? []).every((x) => has(set, x));

/** Upstream `resourceCoversAll`: a star, an exact match, or a star-slash-subresource. */
function resourcesCover(owner: readonly string[] | undefined, wanted: readonly string[]) {
  if (has(owner, '*') || hasAll(owner, wanted)) return true;
  return wanted.every((path) => {
    if (has(owner, path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && has(owner, `*/${path.slice(slash + 1)}`);
  });
}

/** Upstream `nonResourceURLsCoversAll`: exact, `*`, or a `prefix*` pattern. */
function urlsCover(owner: readonly string[] | undefined, wanted: readonly string[]) {
  return wanted.every((url) =>
    (owner ?? []).some(
      (o) => o === url || o === '*' || (o.endsWith('*') && url.startsWith(o.slice(0, -1))),
    ),
  );
}

/** Upstream `ruleCovers`: does `owner` allow everything the (atomic) `sub` allows? */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourcesCover(owner.resources, sub.resources ?? []);
  const urls = urlsCover(owner.nonResourceURLs, sub.nonResourceURLs ?? []);
  // A sub-rule without names stands for every name: only a nameless owner covers it.
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = ownerNames.length === 0 || (subNames.length > 0 && hasAll(ownerNames, subNames));
  return verbs && groups && resources && urls && names;
}

/**
 * Upstream `Covers(ownerRules, servantRules)`: the atomic servant rules no owner rule covers
 * (empty when the owner covers everything).
 */
export function uncoveredRules(
  owner: readonly PolicyRule[],
  servant: readonly PolicyRule[],
): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const r of servant)
    for (const sub of breakdownRule(r))
      if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  return missing;
}
