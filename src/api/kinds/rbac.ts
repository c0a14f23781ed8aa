/**
 * rbac.authorization.k8s.io/v1 Roles, ClusterRoles, RoleBindings and ClusterRoleBindings, with
 * upstream's defaults (`SetDefaults_RoleBinding`, `SetDefaults_Subject`) and validation
 * (`pkg/apis/rbac/validation`).
 *
 * Enforced since issue 18: the authorizer (`src/apiserver/authorization/rbac/`) reads these
 * objects, the aggregation controller fills aggregated ClusterRoles' `rules`, and the escalation
 * check (a user may only grant what it holds) runs as admission (`admission/external-admission.ts`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import { validateLabelSelectorObject } from '../labels/selector.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Subdomain } from '../validation/dns.js';
import { isValidPathSegmentName } from '../validation/names.js';
import { readSelector, toLabelSelector, withBuiltinMetadata } from './common.js';
import {
  ensureObj,
  getArr,
  getObj,
  getStr,
  isJsonObject,
  type JsonObject,
  objects,
  setDefaultStr,
} from './json.js';

/** The API group, also the `apiGroup` of roles and of User and Group subjects. */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';
const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

/** Go's `%#v` of a `[]string`, as upstream prints a rule's `nonResourceURLs`. */
function goStrings(values: unknown[]): { goString(): string } {
  const items = values.map((v) => JSON.stringify(typeof v === 'string' ? v : String(v)));
  return { goString: () => `[]string{${items.join(', ')}}` };
}

/** Go's `%#v` of the internal `rbac.RoleRef`, as `cannot change roleRef` prints it. */
function goRoleRef(ref: JsonObject | undefined): { goString(): string } {
  const field = (k: string) => JSON.stringify(getStr(ref, k) ?? '');
  return {
    goString: () =>
      `rbac.RoleRef{APIGroup:${field('apiGroup')}, Kind:${field('kind')}, Name:${field('name')}}`,
  };
}

const count = (o: JsonObject, key: string): number => (getArr(o, key) ?? []).length;

/** Upstream `ValidatePolicyRule`; `namespaced` rules (a Role's) may not name non-resource URLs. */
export function validatePolicyRule(
  rule: JsonObject,
  namespaced: boolean,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  if (count(rule, 'verbs') === 0)
    errs.push(fieldErrors.required(p.child('verbs'), 'verbs must contain at least one value'));
  const urls = getArr(rule, 'nonResourceURLs') ?? [];
  if (urls.length > 0) {
    const up = p.child('nonResourceURLs');
    if (namespaced)
      errs.push(
        fieldErrors.invalid(
          up,
          goStrings(urls),
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    if (count(rule, 'apiGroups') + count(rule, 'resources') + count(rule, 'resourceNames') > 0)
      errs.push(
        fieldErrors.invalid(
          up,
          goStrings(urls),
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return errs;
  }
  if (count(rule, 'apiGroups') === 0)
    errs.push(
      fieldErrors.required(
        p.child('apiGroups'),
        'resource rules must supply at least one api group',
      ),
    );
  if (count(rule, 'resources') === 0)
    errs.push(
      fieldErrors.required(
        p.child('resources'),
        'resource rules must supply at least one resource',
      ),
    );
  return errs;
}

function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  const rp = path('rules');
  return (getArr(obj, 'rules') ?? []).flatMap((rule, i) =>
    validatePolicyRule(isJsonObject(rule) ? rule : {}, namespaced, rp.index(i)),
  );
}

/** Upstream's `aggregationRule` checks: at least one selector, each a valid one. */
function validateAggregationRule(obj: KubeObject): FieldError[] {
  const rule = obj.aggregationRule;
  if (rule === undefined || rule === null) return [];
  const sp = path('aggregationRule', 'clusterRoleSelectors');
  const selectors = getArr(rule, 'clusterRoleSelectors') ?? [];
  if (selectors.length === 0)
    return [
      fieldErrors.required(
        sp,
        'at least one clusterRoleSelector required if aggregationRule is non-nil',
      ),
    ];
  return selectors.flatMap((raw, i) => {
    const { sel, errs } = readSelector(raw, sp.index(i));
    if (sel === undefined) return errs;
    const own = validateLabelSelectorObject(sel, sp.index(i));
    if (own.length === 0 && toLabelSelector(sel) === undefined)
      own.push(fieldErrors.invalid(sp.index(i), raw, 'invalid label selector.'));
    return own;
  });
}

/** Upstream `ValidateRoleBindingSubject`; ServiceAccounts of cluster bindings need a namespace. */
export function validateSubject(
  subject: JsonObject,
  namespaced: boolean,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = getStr(subject, 'name') ?? '';
  const apiGroup = getStr(subject, 'apiGroup') ?? '';
  const kind = getStr(subject, 'kind') ?? '';
  if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
  switch (kind) {
    case 'ServiceAccount':
      if (name !== '')
        for (const msg of isDNS1123Subdomain(name))
          errs.push(fieldErrors.invalid(p.child('name'), name, msg));
      if (apiGroup !== '') errs.push(fieldErrors.notSupported(p.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && (getStr(subject, 'namespace') ?? '') === '')
        errs.push(fieldErrors.required(p.child('namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP)
        errs.push(fieldErrors.notSupported(p.child('apiGroup'), apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldErrors.notSupported(p.child('kind'), kind, SUBJECT_KINDS));
  }
  return errs;
}

/** The `roleRef` and `subjects` rules shared by both binding kinds. */
function validateBinding(obj: KubeObject, namespaced: boolean): FieldError[] {
  const ref = getObj(obj, 'roleRef');
  const errs: FieldError[] = [];
  const refGroup = getStr(ref, 'apiGroup') ?? '';
  if (refGroup !== RBAC_GROUP)
    errs.push(fieldErrors.notSupported(path('roleRef', 'apiGroup'), refGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const refKind = getStr(ref, 'kind') ?? '';
  if (!kinds.includes(refKind))
    errs.push(fieldErrors.notSupported(path('roleRef', 'kind'), refKind, kinds));
  const refName = getStr(ref, 'name') ?? '';
  if (refName === '') errs.push(fieldErrors.required(path('roleRef', 'name'), ''));
  for (const msg of refName === '' ? [] : isValidPathSegmentName(refName))
    errs.push(fieldErrors.invalid(path('roleRef', 'name'), refName, msg));
  (getArr(obj, 'subjects') ?? []).forEach((s, i) => {
    errs.push(...validateSubject(isJsonObject(s) ? s : {}, namespaced, path('subjects').index(i)));
  });
  return errs;
}

/** Upstream `Valid*BindingUpdate`: the role a binding grants never changes. */
function validateRoleRefUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const ref = getObj(obj, 'roleRef');
  const oldRef = getObj(old, 'roleRef');
  const same = ['apiGroup', 'kind', 'name'].every(
    (k) => (getStr(ref, k) ?? '') === (getStr(oldRef, k) ?? ''),
  );
  return same
    ? []
    : [fieldErrors.invalid(path('roleRef'), goRoleRef(ref), 'cannot change roleRef')];
}

/** `SetDefaults_Subject`: User and Group subjects belong to this API group. */
function defaultSubjects(obj: KubeObject): void {
  for (const subject of objects(obj, 'subjects')) {
    if ((getStr(subject, 'apiGroup') ?? '') !== '') continue;
    const kind = getStr(subject, 'kind');
    if (kind === 'User' || kind === 'Group') subject.apiGroup = RBAC_GROUP;
  }
}

/** `SetDefaults_RoleBinding` / `SetDefaults_ClusterRoleBinding`, then the subjects'. */
function defaultBinding(obj: KubeObject): void {
  // roleRef is a struct, not a pointer, upstream: it is there (and defaulted) even when absent.
  const ref = ensureObj(obj, 'roleRef');
  if (ref !== undefined) setDefaultStr(ref, 'apiGroup', RBAC_GROUP);
  defaultSubjects(obj);
}

/** Upstream `ValidateRole`. */
export const validateRole = (obj: KubeObject): FieldError[] => validateRules(obj, true);

/** Upstream `ValidateClusterRole`. */
export const validateClusterRole = (obj: KubeObject): FieldError[] => [
  ...validateRules(obj, false),
  ...validateAggregationRule(obj),
];

/** Upstream `ValidateRoleBinding`. */
export const validateRoleBinding = (obj: KubeObject): FieldError[] => validateBinding(obj, true);

/** Upstream `ValidateClusterRoleBinding`. */
export const validateClusterRoleBinding = (obj: KubeObject): FieldError[] =>
  validateBinding(obj, false);

/** What the four kinds share: group, names, no generation, status, short names or categories. */
function rbacResource(
  kind: string,
  namespaced: boolean,
  strategy: ResourceDefinition['strategy'],
): ResourceDefinition {
  const singular = kind.toLowerCase();
  return {
    group: RBAC_GROUP,
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural: `${singular}s`,
    singular,
    namespaced,
    nameValidation: 'path-segment',
    generation: 'none',
    statusSubresource: false,
    strategy: withBuiltinMetadata(strategy),
  };
}

/** rbac.authorization.k8s.io/v1 `roles`. */
export const roleResource = rbacResource('Role', true, { validate: validateRole });

/** rbac.authorization.k8s.io/v1 `clusterroles` (cluster-scoped). */
export const clusterRoleResource = rbacResource('ClusterRole', false, {
  validate: validateClusterRole,
});

/** rbac.authorization.k8s.io/v1 `rolebindings`. */
export const roleBindingResource = rbacResource('RoleBinding', true, {
  defaults: defaultBinding,
  validate: validateRoleBinding,
  validateUpdate: validateRoleRefUpdate,
});

/** rbac.authorization.k8s.io/v1 `clusterrolebindings` (cluster-scoped). */
export const clusterRoleBindingResource = rbacResource('ClusterRoleBinding', false, {
  defaults: defaultBinding,
  validate: validateClusterRoleBinding,
  validateUpdate: validateRoleRefUpdate,
});
