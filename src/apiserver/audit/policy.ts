/**
 * Audit policy: reads an `audit.k8s.io/v1` Policy (YAML or JSON, `--audit-policy-file`) with
 * upstream's checks and messages (`pkg/audit/policy/reader.go`,
 * `pkg/apis/audit/validation/validation.go`), and decides a request's level with upstream's
 * first-match rules (`pkg/audit/policy/checker.go`).
 *
 * @module
 */

import { parse as parseYaml } from 'yaml';
import { type FieldError, fieldErrorText } from '../../api/field-error.js';
import { isDNS1123Subdomain } from '../../api/validation/dns.js';
import type { Attributes } from '../authorization/types.js';
import {
  AUDIT_API_VERSION,
  type GroupResources,
  LEVELS,
  type Level,
  type Policy,
  type PolicyRule,
  type RequestAuditConfig,
  STAGES,
  type Stage,
} from './types.js';

/** A policy file upstream would refuse; the message is upstream's. */
export class PolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyError';
  }
}

/**
 * Parses and checks a Policy document. Throws {@link PolicyError}: `failed decoding: …` for a
 * document that is not a Policy, the aggregated field errors (`rules[0].level: Required value`,
 * several as `[a, b]`), or `loaded illegal policy with 0 rules`.
 */
export function parsePolicy(text: string): Policy {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new PolicyError(`failed decoding: ${err instanceof Error ? err.message : String(err)}`);
  }
  const obj = asObject(doc, '');
  const kind = obj.kind;
  const apiVersion = obj.apiVersion;
  if (typeof kind !== 'string' || kind === '') {
    throw new PolicyError(`failed decoding: Object 'Kind' is missing in '${oneLine(text)}'`);
  }
  if (apiVersion !== AUDIT_API_VERSION || kind !== 'Policy') {
    // Upstream's scheme knows only audit.k8s.io/v1 since 1.24 (v1alpha1/v1beta1 removed).
    throw new PolicyError(
      `failed decoding: no kind "${kind}" is registered for version "${String(apiVersion ?? '')}" in scheme "pkg/audit/scheme.go:29"`,
    );
  }
  const rules = list(obj.rules, 'rules').map((r, i) => decodeRule(r, i));
  const omitStages = strings(obj.omitStages, 'omitStages');
  const omitManagedFields = optionalBool(obj.omitManagedFields, 'omitManagedFields') ?? false;
  const errors: FieldError[] = validateOmitStages(omitStages, 'omitStages');
  for (const [i, r] of rules.entries()) errors.push(...validateRule(r, `rules[${i}]`));
  if (errors.length === 1) throw new PolicyError(fieldErrorText(errors[0]!));
  if (errors.length > 1) throw new PolicyError(`[${errors.map(fieldErrorText).join(', ')}]`);
  if (rules.length === 0) throw new PolicyError('loaded illegal policy with 0 rules');
  const stages = omitStages.filter(isStage);
  return {
    omitStages: stages,
    omitManagedFields,
    // Upstream NewChecker: each rule omits the policy's stages and its own.
    rules: rules.map((r) => ({
      ...r,
      level: isLevel(r.level) ? r.level : 'None',
      omitStages: union(stages, r.omitStages.filter(isStage)),
    })),
  };
}

/**
 * The level, omitted stages and managed-fields choice for a request: the first rule that
 * matches, else `None` with the policy's stages (upstream `EvaluatePolicyRule`).
 */
export function levelFor(attributes: Attributes, policy: Policy): RequestAuditConfig {
  for (const rule of policy.rules) {
    if (ruleMatches(rule, attributes)) {
      return {
        level: rule.level,
        omitStages: rule.omitStages,
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
      };
    }
  }
  return {
    level: 'None',
    omitStages: policy.omitStages,
    omitManagedFields: policy.omitManagedFields,
  };
}

function ruleMatches(r: PolicyRule, a: Attributes): boolean {
  if (r.users.length > 0 && !r.users.includes(a.user.username)) return false;
  if (r.userGroups.length > 0 && !a.user.groups.some((g) => r.userGroups.includes(g))) {
    return false;
  }
  if (r.verbs.length > 0 && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return resourceMatches(r, a);
  if (r.nonResourceURLs.length > 0) return nonResourceMatches(r, a);
  return true;
}

function nonResourceMatches(r: PolicyRule, a: Attributes): boolean {
  if (a.resourceRequest) return false;
  const path = a.path ?? '';
  return r.nonResourceURLs.some(
    (spec) =>
      spec === '*' ||
      spec === path ||
      // Upstream trims every trailing `*` (strings.TrimRight), then matches the prefix.
      (spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''))),
  );
}

function resourceMatches(r: PolicyRule, a: Attributes): boolean {
  if (!a.resourceRequest) return false;
  // Cluster-scoped resources have the namespace ''.
  if (r.namespaces.length > 0 && !r.namespaces.includes(a.namespace ?? '')) return false;
  if (r.resources.length === 0) return true;
  const group = a.apiGroup ?? '';
  const name = a.name ?? '';
  return r.resources.some(
    (gr) =>
      gr.group === group &&
      (gr.resources.length === 0 ||
        ((gr.resourceNames.length === 0 || gr.resourceNames.includes(name)) &&
          gr.resources.some((spec) =>
            resourceSpecMatches(spec, a.resource ?? '', a.subresource ?? ''),
          ))),
  );
}

/** `pods`, `pods/log`, `*`, `*` + `/status` (that subresource of any), `pods/*` (upstream's). */
function resourceSpecMatches(spec: string, resource: string, sub: string): boolean {
  if (spec === '*' || spec === (sub === '' ? resource : `${resource}/${sub}`)) return true;
  if (sub !== '' && spec.startsWith('*/') && spec.slice(2) === sub) return true;
  // Upstream does not ask for a subresource here: `pods/*` matches pods itself too.
  return spec.endsWith('/*') && spec.slice(0, -2) === resource;
}

/** A rule as decoded, before its level and stages are checked. */
interface RawRule extends Omit<PolicyRule, 'level' | 'omitStages'> {
  readonly level: string;
  readonly omitStages: readonly string[];
}

function decodeRule(value: unknown, i: number): RawRule {
  const at = `rules[${i}]`;
  const o = asObject(value, at);
  const omf = optionalBool(o.omitManagedFields, `${at}.omitManagedFields`);
  return {
    level: typeof o.level === 'string' ? o.level : stringOrEmpty(o.level, `${at}.level`),
    users: strings(o.users, `${at}.users`),
    userGroups: strings(o.userGroups, `${at}.userGroups`),
    verbs: strings(o.verbs, `${at}.verbs`),
    resources: list(o.resources, `${at}.resources`).map((g, j) =>
      decodeGroupResources(g, `${at}.resources[${j}]`),
    ),
    namespaces: strings(o.namespaces, `${at}.namespaces`),
    nonResourceURLs: strings(o.nonResourceURLs, `${at}.nonResourceURLs`),
    omitStages: strings(o.omitStages, `${at}.omitStages`),
    ...(omf !== undefined ? { omitManagedFields: omf } : {}),
  };
}

function decodeGroupResources(value: unknown, at: string): GroupResources {
  const o = asObject(value, at);
  return {
    group: stringOrEmpty(o.group, `${at}.group`),
    resources: strings(o.resources, `${at}.resources`),
    resourceNames: strings(o.resourceNames, `${at}.resourceNames`),
  };
}

function validateRule(r: RawRule, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (r.level === '') {
    errs.push({ type: 'FieldValueRequired', field: `${at}.level`, detail: '' });
  } else if (!isLevel(r.level)) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: `${at}.level`,
      badValue: r.level,
      detail: `supported values: ${LEVELS.map((l) => JSON.stringify(l)).join(', ')}`,
    });
  }
  r.nonResourceURLs.forEach((url, i) => {
    if (url === '*') return;
    const field = `${at}.nonResourceURLs[${i}]`;
    if (!url.startsWith('/')) {
      errs.push({
        type: 'FieldValueInvalid',
        field,
        badValue: url,
        detail: "non-resource URL rules must begin with a '/' character",
      });
    }
    if (url !== '' && url.slice(0, -1).includes('*')) {
      errs.push({
        type: 'FieldValueInvalid',
        field,
        badValue: url,
        detail: "non-resource URL wildcards '*' must be the final character of the rule",
      });
    }
  });
  for (const gr of r.resources) {
    if (gr.group !== '') {
      const msgs = isDNS1123Subdomain(gr.group);
      if (msgs.length > 0) {
        errs.push({
          type: 'FieldValueInvalid',
          field: `${at}.resources.group`,
          badValue: gr.group,
          detail: msgs.join(','),
        });
      }
    }
    if (gr.resourceNames.length > 0 && gr.resources.length === 0) {
      errs.push({
        type: 'FieldValueInvalid',
        field: `${at}.resources.resourceNames`,
        badValue: goStrings(gr.resourceNames),
        detail: 'using resourceNames requires at least one resource',
      });
    }
  }
  errs.push(...validateOmitStages(r.omitStages, `${at}.omitStages`));
  if (r.nonResourceURLs.length > 0 && (r.resources.length > 0 || r.namespaces.length > 0)) {
    errs.push({
      type: 'FieldValueInvalid',
      field: `${at}.nonResourceURLs`,
      badValue: goStrings(r.nonResourceURLs),
      detail: 'rules cannot apply to both regular resources and non-resource URLs',
    });
  }
  return errs;
}

function validateOmitStages(stages: readonly string[], at: string): FieldError[] {
  const errs: FieldError[] = [];
  stages.forEach((s, i) => {
    if (!isStage(s)) {
      errs.push({
        type: 'FieldValueInvalid',
        field: `${at}[${i}]`,
        badValue: s,
        detail: `allowed stages are ${STAGES.join(',')}`,
      });
    }
  });
  return errs;
}

/** Go's `%#v` of a `[]string`, as upstream prints a slice in an Invalid value error. */
function goStrings(values: readonly string[]): { goString(): string } {
  return { goString: () => `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}` };
}

function union(a: readonly Stage[], b: readonly Stage[]): Stage[] {
  return [...new Set([...a, ...b])];
}

// Decoding: a wrong JSON type fails the whole document, as Go's json.Unmarshal does.

function decodeError(at: string, want: string, value: unknown): PolicyError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return new PolicyError(`failed decoding: ${at || 'Policy'}: want ${want}, got ${got}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asObject(value: unknown, at: string): Record<string, unknown> {
  if (!isRecord(value)) throw decodeError(at, 'an object', value);
  return value;
}

function isLevel(s: string): s is Level {
  return LEVELS.some((l) => l === s);
}

function isStage(s: string): s is Stage {
  return STAGES.some((t) => t === s);
}

function list(value: unknown, at: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw decodeError(at, 'a list', value);
  return value;
}

function strings(value: unknown, at: string): string[] {
  return list(value, at).map((v, i) => {
    if (typeof v !== 'string') throw decodeError(`${at}[${i}]`, 'a string', v);
    return v;
  });
}

function stringOrEmpty(value: unknown, at: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw decodeError(at, 'a string', value);
  return value;
}

function optionalBool(value: unknown, at: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw decodeError(at, 'a boolean', value);
  return value;
}

function oneLine(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
