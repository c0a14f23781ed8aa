/**
 * Whether a policy's `matchConstraints` (or a binding's `matchResources`) select a request,
 * after upstream `k8s.io/apiserver/pkg/admission/plugin/policy/matching`: namespace selector
 * (cluster-scoped requests other than namespaces always pass), object selector (new or old
 * object's labels), exclude rules, then resource rules (all requests when there are none), with
 * `Equivalent` matching through the other versions of the resource. Selector errors count only
 * when the rules match.
 *
 * @module
 */

import { path } from '../../../api/field-error.js';
import { readSelector, toLabelSelector } from '../../../api/kinds/common.js';
import { LabelSelector } from '../../../api/labels/selector.js';
import type { MatchResources, NamedRuleWithOperations } from '../../../api/model/index.js';
import { isJsonObject } from '../../../api/object.js';
import type {
  GroupVersionKind,
  GroupVersionResource,
  PolicyInputs,
  PolicyRequest,
} from './types.js';

export interface MatchResult {
  readonly matches: boolean;
  /** The resource and kind the request matched as (an equivalent one under Equivalent). */
  readonly resource?: GroupVersionResource;
  readonly kind?: GroupVersionKind;
  /** A configuration error (upstream returns these as errors, handled by failurePolicy). */
  readonly error?: string;
}

const NO_MATCH: MatchResult = { matches: false };

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((i) => i === '*' || i === requested);
}

/** Upstream `rules.Matcher.Matches`. */
export function ruleMatches(
  rule: NamedRuleWithOperations,
  req: PolicyRequest,
  resource: GroupVersionResource = req.resource,
): boolean {
  return (
    scopeMatches(rule.scope, req, resource) &&
    exactOrWildcard(rule.operations, req.operation) &&
    exactOrWildcard(rule.apiGroups, resource.group) &&
    exactOrWildcard(rule.apiVersions, resource.version) &&
    resourceMatches(rule.resources ?? [], resource.resource, req.subResource ?? '')
  );
}

function isNamespaceResource(r: GroupVersionResource): boolean {
  return r.group === '' && r.resource === 'namespaces';
}

function scopeMatches(
  scope: string | undefined,
  req: PolicyRequest,
  resource: GroupVersionResource,
): boolean {
  const ns = req.namespace ?? '';
  switch (scope ?? '*') {
    case '*':
      return true;
    case 'Namespaced':
      return !isNamespaceResource(resource) && ns !== '';
    case 'Cluster':
      return isNamespaceResource(resource) || ns === '';
    default:
      return false;
  }
}

function resourceMatches(resources: readonly string[], res: string, sub: string): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const r = slash < 0 ? entry : entry.slice(0, slash);
    const s = slash < 0 ? '' : entry.slice(slash + 1);
    return (r === '*' || r === res) && (s === '*' || s === sub);
  });
}

function labelsOf(o: unknown): Record<string, string> {
  if (!isJsonObject(o) || !isJsonObject(o.metadata)) return {};
  const labels = o.metadata.labels;
  if (!isJsonObject(labels)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') out[k] = v;
  return out;
}

type SelectorCheck = { matches: boolean; error?: string };

/** The selector of a match field; `{}` (or absent) selects everything. */
function parsedSelector(raw: unknown): LabelSelector | string {
  if (raw === undefined || raw === null) return LabelSelector.everything();
  const { sel } = readSelector(raw, path('selector'));
  const selector = sel ? toLabelSelector(sel) : undefined;
  return selector ?? 'invalid label selector';
}

/** Upstream `namespace.Matcher.MatchNamespaceSelector`. */
function namespaceSelectorMatches(
  mr: MatchResources,
  req: PolicyRequest,
  inputs: Pick<PolicyInputs, 'namespace'>,
): SelectorCheck {
  const ns = req.namespace ?? '';
  // Cluster-scoped requests other than namespaces are never exempted.
  if (ns === '' && !isNamespaceResource(req.resource)) return { matches: true };
  const selector = parsedSelector(mr.namespaceSelector);
  if (typeof selector === 'string') return { matches: false, error: selector };
  if (selector.isEmpty()) return { matches: true };
  // A namespace being created or updated is matched by its new labels.
  const own =
    isNamespaceResource(req.resource) &&
    (req.subResource ?? '') === '' &&
    (req.operation === 'CREATE' || req.operation === 'UPDATE');
  if (own) return { matches: selector.matches(labelsOf(req.object)) };
  const name = ns !== '' ? ns : (req.name ?? '');
  const found = inputs.namespace(name);
  // Upstream answers the lister's 404 here.
  if (!found) return { matches: false, error: `namespaces "${name}" not found` };
  return { matches: selector.matches(labelsOf(found)) };
}

/** Upstream `object.Matcher.MatchObjectSelector`: the new or the old object's labels. */
function objectSelectorMatches(mr: MatchResources, req: PolicyRequest): SelectorCheck {
  const selector = parsedSelector(mr.objectSelector);
  if (typeof selector === 'string') return { matches: false, error: selector };
  if (selector.isEmpty()) return { matches: true };
  const objects = [req.object, req.oldObject].filter((o) => o !== undefined && o !== null);
  return { matches: objects.some((o) => selector.matches(labelsOf(o))) };
}

function anyRuleMatches(
  rules: readonly NamedRuleWithOperations[],
  req: PolicyRequest,
  resource: GroupVersionResource,
): boolean {
  return rules.some((rule) => {
    if (!ruleMatches(rule, req, resource)) return false;
    // An empty name list matches every name (a create by generateName has none yet).
    const names = rule.resourceNames ?? [];
    return names.length === 0 || names.includes(req.name ?? '');
  });
}

function sameResource(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

/** Upstream `matchesResourceRules`, with the Equivalent fallback through other versions. */
function rulesMatch(
  rules: readonly NamedRuleWithOperations[] | undefined,
  matchPolicy: string | undefined,
  req: PolicyRequest,
  inputs: Pick<PolicyInputs, 'equivalentResources'>,
): MatchResult {
  const list = rules ?? [];
  if (anyRuleMatches(list, req, req.resource)) {
    return { matches: true, resource: req.resource, kind: req.kind };
  }
  if (matchPolicy !== 'Equivalent' || !inputs.equivalentResources) return NO_MATCH;
  for (const eq of inputs.equivalentResources(req.resource, req.subResource ?? '')) {
    if (sameResource(eq.resource, req.resource)) continue;
    if (anyRuleMatches(list, req, eq.resource)) {
      return { matches: true, resource: eq.resource, kind: eq.kind };
    }
  }
  return NO_MATCH;
}

/** Upstream `matching.Matcher.Matches`. */
export function matchResources(
  mr: MatchResources,
  req: PolicyRequest,
  inputs: Pick<PolicyInputs, 'namespace' | 'equivalentResources'>,
): MatchResult {
  const ns = namespaceSelectorMatches(mr, req, inputs);
  if (!ns.matches && ns.error === undefined) return NO_MATCH;
  const obj = objectSelectorMatches(mr, req);
  if (!obj.matches && obj.error === undefined) return NO_MATCH;
  const excluded = rulesMatch(mr.excludeResourceRules, mr.matchPolicy, req, inputs);
  if (excluded.matches) return NO_MATCH;
  const included =
    (mr.resourceRules ?? []).length === 0
      ? { matches: true, resource: req.resource, kind: req.kind }
      : rulesMatch(mr.resourceRules, mr.matchPolicy, req, inputs);
  if (!included.matches) return NO_MATCH;
  const error = ns.error ?? obj.error;
  if (error !== undefined) return { matches: false, error };
  return included;
}
