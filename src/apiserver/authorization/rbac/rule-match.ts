/**
 * Whether one PolicyRule allows one request (upstream `RuleAllows` in
 * `plugin/pkg/auth/authorizer/rbac/rbac.go` and the matchers of
 * `pkg/apis/rbac/v1/evaluation_helpers.go`). A resource request matches on verb, API group,
 * resource (`*`, exact `pods/log`, or `*\/log` for that subresource of any resource) and
 * resource name (a rule without names matches every name); a non-resource request on verb and
 * path (`*`, exact, or a prefix ending in `*`).
 *
 * @module
 */
import type { PolicyRule } from '../../../api/model/index.js';
import type { Attributes } from '../types.js';

const ALL = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  for (const v of rule.verbs) if (v === ALL || v === verb) return true;
  return false;
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  for (const g of rule.apiGroups ?? []) if (g === ALL || g === group) return true;
  return false;
}

/**
 * `combined` is `resource` or `resource/subresource`. A rule resource `*\/status` matches the
 * `status` subresource of every resource, and only when a subresource was asked for.
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) {
      return true;
    }
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  if (names.length === 0) return true;
  return names.includes(name);
}

/** `/healthz/*` matches `/healthz/etcd` and `/healthz/` (a prefix, as upstream trims the `*`s). */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(trimRightStars(u))) return true;
  }
  return false;
}

/** Go's `strings.TrimRight(s, "*")`. */
export function trimRightStars(s: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === '*') end--;
  return s.slice(0, end);
}

export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.resourceRequest) {
    const resource = a.resource ?? '';
    const subresource = a.subresource ?? '';
    const combined = subresource === '' ? resource : `${resource}/${subresource}`;
    return (
      verbMatches(rule, a.verb) &&
      apiGroupMatches(rule, a.apiGroup ?? '') &&
      resourceMatches(rule, combined, subresource) &&
      resourceNameMatches(rule, a.name ?? '')
    );
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path ?? '');
}

export function rulesAllow(a: Attributes, rules: readonly PolicyRule[]): boolean {
  for (const r of rules) if (ruleAllows(a, r)) return true;
  return false;
}
