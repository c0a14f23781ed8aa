/**
 * Which webhooks a request is sent to, after upstream `generic.Webhook.ShouldCallHook` and its
 * predicates (`predicates/rules`, `predicates/namespace`, `predicates/object`): the rules
 * (operations, groups, versions, `resource/subresource` with `*`, scope), `matchPolicy:
 * Equivalent` (a rule on `autoscaling/v2 horizontalpodautoscalers` also matches a request through
 * `autoscaling/v1`, which the webhook then receives as v2), the namespace selector (against the
 * namespace's labels; cluster-scoped objects other than Namespaces are never exempted) and the
 * object selector (the object's or the old object's labels). Match conditions come last
 * ({@link ./match-conditions.ts}), only for a webhook everything else matched.
 *
 * @module
 */
import { internalError, notFound, StatusError } from '../../../api/errors.js';
import { type LabelSelector, labelSelectorFromObject } from '../../../api/labels/selector.js';
import type { RuleWithOperations } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { ResourceDefinition } from '../../../api/resource.js';
import type { WebhookEntry } from './hooks.js';
import type {
  AdmissionAttributes,
  GroupVersionKind,
  GroupVersionResource,
  WebhookLookup,
} from './types.js';

/** What a matched webhook is sent: the resource and kind it matched (maybe an equivalent). */
export interface Invocation {
  readonly entry: WebhookEntry;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
}

const ADMISSION_GROUP = 'admissionregistration.k8s.io';
/** Upstream `IsExemptAdmissionConfigurationResource`: webhooks never see these, so a bad webhook cannot lock its own fix out. */
const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

export function isExemptFromWebhooks(attrs: Pick<AdmissionAttributes, 'kind'>): boolean {
  return attrs.kind.group === ADMISSION_GROUP && EXEMPT_KINDS.has(attrs.kind.kind);
}

type RuleAttributes = Pick<
  AdmissionAttributes,
  'operation' | 'resource' | 'subresource' | 'namespace'
>;

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((item) => item === '*' || item === requested);
}

function isNamespaceResource(r: GroupVersionResource): boolean {
  return r.group === '' && r.version === 'v1' && r.resource === 'namespaces';
}

function scopeMatches(rule: RuleWithOperations, a: RuleAttributes): boolean {
  switch (rule.scope ?? '*') {
    case '*':
      return true;
    // A Namespace is cluster-scoped, though its requests carry its name as their namespace.
    case 'Namespaced':
      return !isNamespaceResource(a.resource) && a.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(a.resource) || a.namespace === '';
    default:
      return false;
  }
}

function resourceMatches(rule: RuleWithOperations, a: RuleAttributes): boolean {
  return (rule.resources ?? []).some((text) => {
    const slash = text.indexOf('/');
    const res = slash < 0 ? text : text.slice(0, slash);
    const sub = slash < 0 ? '' : text.slice(slash + 1);
    return (res === '*' || res === a.resource.resource) && (sub === '*' || sub === a.subresource);
  });
}

/** Upstream `rules.Matcher.Matches`. */
export function ruleMatches(rule: RuleWithOperations, a: RuleAttributes): boolean {
  return (
    scopeMatches(rule, a) &&
    exactOrWildcard(rule.operations, a.operation) &&
    exactOrWildcard(rule.apiGroups, a.resource.group) &&
    exactOrWildcard(rule.apiVersions, a.resource.version) &&
    resourceMatches(rule, a)
  );
}

function storageKey(def: ResourceDefinition): string {
  return def.storage ? `${def.storage.group}/${def.storage.plural}` : `${def.group}/${def.plural}`;
}

/** The definition serving `r`, if any. */
export function definitionOf(
  resources: readonly ResourceDefinition[],
  r: GroupVersionResource,
): ResourceDefinition | undefined {
  return resources.find(
    (d) => d.group === r.group && d.version === r.version && d.plural === r.resource,
  );
}

/**
 * Upstream `EquivalentResourceMapper.EquivalentResourcesFor`: the other group-versions serving
 * the same stored objects (fleetyard marks them with `ResourceDefinition.storage`).
 */
export function equivalentResources(
  resources: readonly ResourceDefinition[],
  r: GroupVersionResource,
): ResourceDefinition[] {
  const def = definitionOf(resources, r);
  if (def === undefined) return [];
  const key = storageKey(def);
  return resources.filter((d) => d !== def && storageKey(d) === key);
}

/** Upstream `KindFor(mapping, subresource)`: the main kind, or `/scale`'s Scale. */
function equivalentKind(def: ResourceDefinition, a: AdmissionAttributes): GroupVersionKind {
  if (a.subresource === '' || a.subresource === 'status') {
    return { group: def.group, version: def.version, kind: def.kind };
  }
  if (a.subresource === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  return a.kind;
}

/** The rules step of `ShouldCallHook`: exact first, then (Equivalent) each equivalent resource. */
export function matchRules(
  entry: WebhookEntry,
  a: AdmissionAttributes,
  resources: readonly ResourceDefinition[],
): Invocation | undefined {
  const rules = entry.hook.rules ?? [];
  if (rules.some((r) => ruleMatches(r, a))) {
    return { entry, resource: a.resource, subresource: a.subresource, kind: a.kind };
  }
  if ((entry.hook.matchPolicy ?? 'Equivalent') !== 'Equivalent') return undefined;
  for (const def of equivalentResources(resources, a.resource)) {
    const resource = { group: def.group, version: def.version, resource: def.plural };
    if (rules.some((r) => ruleMatches(r, { ...a, resource }))) {
      return { entry, resource, subresource: a.subresource, kind: equivalentKind(def, a) };
    }
  }
  return undefined;
}

function parseSelector(sel: Parameters<typeof labelSelectorFromObject>[0]): LabelSelector {
  try {
    // A webhook without a selector is defaulted to `{}` (everything) when stored.
    return labelSelectorFromObject(sel ?? {});
  } catch (e) {
    throw internalError(e instanceof Error ? e.message : String(e));
  }
}

function labelsOf(obj: KubeObject | undefined): Record<string, string> {
  return obj?.metadata?.labels ?? {};
}

/**
 * Upstream `namespace.Matcher.MatchNamespaceSelector`. Throws a 404 when the namespace is
 * missing (upstream's compatibility answer) and a 500 for an unparsable selector.
 */
export function namespaceSelectorMatches(
  entry: WebhookEntry,
  a: AdmissionAttributes,
  object: KubeObject | undefined,
  lookup: Pick<WebhookLookup, 'namespace'>,
): boolean {
  const namespacesRequest = a.resource.resource === 'namespaces' && a.resource.group === '';
  if (a.namespace === '' && !namespacesRequest) return true;
  const selector = parseSelector(entry.hook.namespaceSelector);
  if (selector.isEmpty()) return true;
  // A Namespace being created or updated is matched by its new labels (the lister lags it).
  if (
    namespacesRequest &&
    a.subresource === '' &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE')
  ) {
    return selector.matches(labelsOf(object));
  }
  const name = a.namespace !== '' ? a.namespace : a.name;
  const ns = lookup.namespace(name);
  if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, name);
  return selector.matches(ns.metadata?.labels ?? {});
}

/** Upstream `object.Matcher.MatchObjectSelector`: either the object or the old object matches. */
export function objectSelectorMatches(
  entry: WebhookEntry,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
): boolean {
  const selector = parseSelector(entry.hook.objectSelector);
  if (selector.isEmpty()) return true;
  const matches = (o: KubeObject | undefined): boolean =>
    o !== undefined && selector.matches(labelsOf(o));
  return matches(object) || matches(oldObject);
}

/**
 * The selector and rule steps of `ShouldCallHook`, in upstream's order: a selector that does
 * not match skips the webhook; a selector error is reported only when the rules match too.
 */
export function selectInvocation(
  entry: WebhookEntry,
  a: AdmissionAttributes,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  lookup: Pick<WebhookLookup, 'namespace' | 'resources'>,
): Invocation | undefined {
  let deferred: StatusError | undefined;
  const attempt = (check: () => boolean): boolean => {
    try {
      return check();
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      deferred ??= e;
      return true;
    }
  };
  if (!attempt(() => namespaceSelectorMatches(entry, a, object, lookup))) return undefined;
  if (!attempt(() => objectSelectorMatches(entry, object, oldObject))) return undefined;
  const invocation = matchRules(entry, a, lookup.resources());
  if (invocation === undefined) return undefined;
  if (deferred !== undefined) throw deferred;
  return invocation;
}
