/**
 * Whether a set of rules covers another (upstream `Covers`, `BreakdownRule` in
 * `k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go`), and how the rules that
 * are not covered are described in an escalation error (`CompactRules` in
 * `pkg/registry/rbac/validation/policy_compact.go`, `CompactString` in
 * `pkg/apis/rbac/v1/evaluation_helpers.go`).
 *
 * Covering is not matching: an owner rule covers a servant rule only if it grants every verb,
 * group, resource and name of it as written (`*` covers anything, `*\/scale` covers `x/scale`,
 * and a rule limited to names covers no rule without names).
 *
 * @module
 */
import type { PolicyRule } from '../../../api/model/index.js';
import { goQuoteList } from './go-text.js';
import { trimRightStars } from './rule-match.js';

const ALL = '*';

/** The rule split into rules of one group, resource, verb and name each (or URL and verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) out.push(...withNames(group, resource, verb, rule));
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

/** One sub-rule per resource name of `rule`, or one without names when it has none. */
function withNames(group: string, resource: string, verb: string, rule: PolicyRule): PolicyRule[] {
  const names = rule.resourceNames ?? [];
  if (names.length === 0) return [{ apiGroups: [group], resources: [resource], verbs: [verb] }];
  return names.map((name) => ({
    apiGroups: [group],
    resources: [resource],
    verbs: [verb],
    resourceNames: [name],
  }));
}

export interface CoverResult {
  readonly covers: boolean;
  /** The broken-down servant rules no owner rule covers, in order. */
  readonly missing: PolicyRule[];
}

export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): CoverResult {
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
    }
  }
  return { covers: missing.length === 0, missing };
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  for (const w of wanted) if (!set.includes(w)) return false;
  return true;
}

function resourceCoversAll(set: readonly string[], wanted: readonly string[]): boolean {
  if (set.includes(ALL) || hasAll(set, wanted)) return true;
  for (const path of wanted) {
    if (set.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!set.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  if (owner === sub) return true;
  return owner.endsWith('*') && sub.startsWith(trimRightStars(owner));
}

function nonResourceURLsCoverAll(set: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((path) => set.some((owner) => nonResourceURLCovers(owner, path)));
}

/** Upstream `ruleCovers`: `sub` has at most one verb, group, resource and name. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const ownerGroups = owner.apiGroups ?? [];
  const groups = ownerGroups.includes(ALL) || hasAll(ownerGroups, sub.apiGroups ?? []);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = nonResourceURLsCoverAll(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names =
    subNames.length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/**
 * Upstream `CompactRules`: rules of one group and one resource (no names, no URLs) that differ
 * only by verb become one rule with all their verbs; the others stay as they are. The merged
 * rules follow the others (upstream appends them from a map, in no set order; the escalation
 * message sorts the texts anyway).
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, { apiGroups: string[]; resources: string[]; verbs: string[] }>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    if (key === undefined) {
      out.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing !== undefined) existing.verbs.push(...rule.verbs);
    else {
      simple.set(key, {
        apiGroups: [...(rule.apiGroups ?? [])],
        resources: [...(rule.resources ?? [])],
        verbs: [...rule.verbs],
      });
    }
  }
  out.push(...simple.values());
  return out;
}

/** JSON key of `{group, resource}` for a rule of only one group, one resource and verbs. */
function simpleResourceKey(rule: PolicyRule): string | undefined {
  if ((rule.resourceNames ?? []).length > 0 || (rule.nonResourceURLs ?? []).length > 0) {
    return undefined;
  }
  const groups = rule.apiGroups ?? [];
  const resources = rule.resources ?? [];
  if (groups.length !== 1 || resources.length !== 1) return undefined;
  return JSON.stringify([groups[0], resources[0]]);
}

/**
 * Upstream `CompactString`: `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`, each
 * part only when the list is not empty, in this order.
 */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, values: readonly string[] | undefined) => {
    if (values !== undefined && values.length > 0) parts.push(`${label}:${goQuoteList(values)}`);
  };
  add('APIGroups', rule.apiGroups);
  add('Resources', rule.resources);
  add('NonResourceURLs', rule.nonResourceURLs);
  add('ResourceNames', rule.resourceNames);
  add('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}
