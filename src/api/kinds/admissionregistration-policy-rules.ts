/**
 * The `matchResources` of ValidatingAdmissionPolicies and their bindings, as upstream
 * `pkg/apis/admissionregistration/validation/validation.go` checks them (`validateMatchResources`,
 * `validateNamedRuleWithOperations`, `validateRuleWithOperations`, `validateRule`,
 * `validateResources`, and `validateParamKind` of the policy) and `v1/defaults.go` fills them (`SetDefaults_MatchResources`,
 * `SetDefaults_Rule`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { validateLabelSelectorObject } from '../labels/selector.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../validation/dns.js';
import { isValidPathSegmentName } from '../validation/names.js';
import { readSelector } from './common.js';
import { getArr, getStr, type JsonObject, objects, setDefault, setDefaultStr } from './json.js';

const MATCH_POLICIES = ['Equivalent', 'Exact'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];

/** Upstream `SetDefaults_MatchResources` and `SetDefaults_Rule` on each rule. */
export function defaultMatchResources(mr: JsonObject | undefined): void {
  if (mr === undefined) return;
  setDefaultStr(mr, 'matchPolicy', 'Equivalent');
  setDefault(mr, 'namespaceSelector', {});
  setDefault(mr, 'objectSelector', {});
  for (const key of ['resourceRules', 'excludeResourceRules']) {
    for (const rule of objects(mr, key)) setDefault(rule, 'scope', '*');
  }
}

function strings(o: JsonObject, key: string): string[] {
  return (getArr(o, key) ?? []).map((v) => (typeof v === 'string' ? v : String(v)));
}

function validateSelector(v: unknown, at: FieldPath): FieldError[] {
  if (v === undefined || v === null) return [fieldErrors.required(at, '')];
  const { sel, errs } = readSelector(v, at);
  return sel === undefined ? errs : validateLabelSelectorObject(sel, at);
}

/** Upstream `validateMatchResources` (nil: nothing to check). */
export function validateMatchResources(mr: JsonObject | undefined, at: FieldPath): FieldError[] {
  if (mr === undefined) return [];
  const errs: FieldError[] = [];
  const policy = mr.matchPolicy;
  if (policy === undefined || policy === null)
    errs.push(fieldErrors.required(at.child('matchPolicy'), ''));
  else if (typeof policy !== 'string' || !MATCH_POLICIES.includes(policy)) {
    errs.push(fieldErrors.notSupported(at.child('matchPolicy'), policy, MATCH_POLICIES));
  }
  errs.push(...validateSelector(mr.namespaceSelector, at.child('namespaceSelector')));
  errs.push(...validateSelector(mr.objectSelector, at.child('objectSelector')));
  for (const key of ['resourceRules', 'excludeResourceRules']) {
    objects(mr, key).forEach((rule, i) => {
      errs.push(...validateNamedRule(rule, at.child(key).index(i)));
    });
  }
  return errs;
}

function validateNamedRule(rule: JsonObject, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule, 'resourceNames').forEach((name, i) => {
    const p = at.child('resourceNames').index(i);
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldErrors.invalid(p, name, msg));
    if (seen.has(name)) errs.push(fieldErrors.duplicate(p, name));
    else seen.add(name);
  });
  errs.push(...validateOperations(strings(rule, 'operations'), at.child('operations')));
  errs.push(...validateRule(rule, at));
  return errs;
}

function validateOperations(ops: string[], at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (ops.length === 0) errs.push(fieldErrors.required(at, ''));
  if (ops.length > 1 && ops.includes('*')) {
    errs.push(fieldErrors.invalid(at, ops, "if '*' is present, must not specify other operations"));
  }
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(fieldErrors.notSupported(at.index(i), op, OPERATIONS));
  });
  return errs;
}

/** Upstream `validateRule` with subresources allowed. */
function validateRule(rule: JsonObject, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strings(rule, 'apiGroups');
  if (groups.length === 0) errs.push(fieldErrors.required(at.child('apiGroups'), ''));
  if (groups.length > 1 && groups.includes('*')) {
    const detail = "if '*' is present, must not specify other API groups";
    errs.push(fieldErrors.invalid(at.child('apiGroups'), groups, detail));
  }
  const versions = strings(rule, 'apiVersions');
  if (versions.length === 0) errs.push(fieldErrors.required(at.child('apiVersions'), ''));
  if (versions.length > 1 && versions.includes('*')) {
    const detail = "if '*' is present, must not specify other API versions";
    errs.push(fieldErrors.invalid(at.child('apiVersions'), versions, detail));
  }
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldErrors.required(at.child('apiVersions').index(i), ''));
  });
  errs.push(...validateResources(strings(rule, 'resources'), at.child('resources')));
  const scope = rule.scope;
  if (
    scope !== undefined &&
    scope !== null &&
    (typeof scope !== 'string' || !SCOPES.includes(scope))
  ) {
    errs.push(fieldErrors.notSupported(at.child('scope'), scope, SCOPES));
  }
  return errs;
}

/** Upstream `validateResources`: `x/*`, `*\/x`, `*\/*` and `*` combinations. */
function validateResources(resources: string[], at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldErrors.required(at, ''));
  const wildcardSubs = new Set<string>();
  const wildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plain = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(fieldErrors.required(at.index(i), ''));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // Upstream assigns (not ORs) this flag, so only the last plain entry counts.
      plain = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (wildcardSubs.has(res)) {
      const detail = `if '${res}/*' is present, must not specify ${resSub}`;
      errs.push(fieldErrors.invalid(at.index(i), resSub, detail));
    }
    if (wildcardRes.has(sub)) {
      const detail = `if '*/${sub}' is present, must not specify ${resSub}`;
      errs.push(fieldErrors.invalid(at.index(i), resSub, detail));
    }
    if (sub === '*') wildcardSubs.add(res);
    if (res === '*') wildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) {
    const detail = "if '*/*' is present, must not specify other resources";
    errs.push(fieldErrors.invalid(at, resources, detail));
  }
  if (singleWildcard && plain) {
    const detail = "if '*' is present, must not specify other resources without subresources";
    errs.push(fieldErrors.invalid(at, resources, detail));
  }
  return errs;
}

function validateParamApiVersion(apiVersion: string, at: FieldPath): FieldError[] {
  if (apiVersion === '') return [fieldErrors.required(at, '')];
  const parts = apiVersion === '/' ? ['', ''] : apiVersion.split('/');
  if (parts.length > 2) {
    return [fieldErrors.invalid(at, apiVersion, `unexpected GroupVersion string: ${apiVersion}`)];
  }
  const group = parts.length === 2 ? (parts[0] ?? '') : '';
  const version = parts.length === 2 ? (parts[1] ?? '') : (parts[0] ?? '');
  const errs: FieldError[] = [];
  // As the APIService group and version fields are checked.
  const groupErrs = group === '' ? [] : isDNS1123Subdomain(group);
  if (groupErrs.length > 0) errs.push(fieldErrors.invalid(at, group, groupErrs.join(',')));
  if (version === '') {
    errs.push(fieldErrors.invalid(at, apiVersion, 'version must be specified'));
    return errs;
  }
  const versionErrs = isDNS1035Label(version);
  if (versionErrs.length > 0) errs.push(fieldErrors.invalid(at, version, versionErrs.join(',')));
  return errs;
}

/** Upstream `validateParamKind`. */
export function validateParamKind(pk: JsonObject, at: FieldPath): FieldError[] {
  const errs = validateParamApiVersion(getStr(pk, 'apiVersion') ?? '', at.child('apiVersion'));
  const kind = getStr(pk, 'kind') ?? '';
  if (kind === '') return [...errs, fieldErrors.required(at.child('kind'), '')];
  const kindErrs = isDNS1035Label(kind.toLowerCase());
  if (kindErrs.length > 0) {
    const detail = `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`;
    errs.push(fieldErrors.invalid(at.child('kind'), kind, detail));
  }
  return errs;
}
