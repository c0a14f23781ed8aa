/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBindings, with upstream's defaults
 * (match resources `Equivalent` with `{}` selectors, `parameterNotFoundAction: Deny`) and
 * validation (`validateValidatingAdmissionPolicyBindingSpec`, `validateParamRef`,
 * `validateValidationActions`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { validateLabelSelectorObject } from '../labels/selector.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isValidPathSegmentName, nameIsDNSSubdomain } from '../validation/names.js';
import {
  defaultMatchResources,
  validateMatchResources,
} from './admissionregistration-policy-rules.js';
import { readSelector, SPEC, withBuiltinMetadata } from './common.js';
import { getArr, getObj, getStr, type JsonObject, setDefaultStr } from './json.js';

const ACTIONS = ['Audit', 'Deny', 'Warn'];
const PARAM_NOT_FOUND = ['Deny', 'Allow'];

const EXCLUSIVE = 'name and selector are mutually exclusive';

function validateParamTarget(pr: JsonObject, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = getStr(pr, 'name') ?? '';
  const hasSelector = pr.selector !== undefined && pr.selector !== null;
  if (name !== '') {
    for (const msg of isValidPathSegmentName(name))
      errs.push(fieldErrors.invalid(at.child('name'), name, msg));
    if (hasSelector) errs.push(fieldErrors.forbidden(at.child('name'), EXCLUSIVE));
  }
  const ns = getStr(pr, 'namespace') ?? '';
  for (const msg of ns === '' ? [] : isValidPathSegmentName(ns)) {
    errs.push(fieldErrors.invalid(at.child('namespace'), ns, msg));
  }
  if (hasSelector) {
    const { sel, errs: shape } = readSelector(pr.selector, at.child('selector'));
    errs.push(...(sel ? validateLabelSelectorObject(sel, at.child('selector')) : shape));
    if (name !== '') errs.push(fieldErrors.forbidden(at.child('selector'), EXCLUSIVE));
  }
  if (name === '' && !hasSelector) {
    errs.push(fieldErrors.required(at, 'one of name or selector must be specified'));
  }
  return errs;
}

function validateParamRef(pr: JsonObject | undefined, at: FieldPath): FieldError[] {
  if (pr === undefined) return [];
  const errs = validateParamTarget(pr, at);
  const action = pr.parameterNotFoundAction;
  const p = at.child('parameterNotFoundAction');
  if (action === undefined || action === null || action === '') {
    errs.push(fieldErrors.required(p, ''));
  } else if (typeof action !== 'string' || !PARAM_NOT_FOUND.includes(action)) {
    errs.push(fieldErrors.notSupported(p, action, PARAM_NOT_FOUND));
  }
  return errs;
}

function validateValidationActions(actions: unknown[], at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  actions.forEach((a, i) => {
    if (typeof a !== 'string' || !ACTIONS.includes(a)) {
      errs.push(fieldErrors.notSupported(at.index(i), a, ACTIONS));
    }
    if (seen.has(a)) errs.push(fieldErrors.duplicate(at.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    const detail =
      'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)';
    errs.push(fieldErrors.invalid(at, actions, detail));
  }
  if (seen.size === 0)
    errs.push(fieldErrors.required(at, 'at least one validation action is required'));
  return errs;
}

function validateBinding(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  const policyName = getStr(spec, 'policyName') ?? '';
  if (policyName === '') errs.push(fieldErrors.required(SPEC.child('policyName'), ''));
  else {
    for (const msg of nameIsDNSSubdomain(policyName, false)) {
      errs.push(fieldErrors.invalid(SPEC.child('policyName'), policyName, msg));
    }
  }
  errs.push(...validateParamRef(getObj(spec, 'paramRef'), SPEC.child('paramRef')));
  errs.push(
    ...validateMatchResources(getObj(spec, 'matchResources'), SPEC.child('matchResources')),
  );
  errs.push(
    ...validateValidationActions(
      getArr(spec, 'validationActions') ?? [],
      SPEC.child('validationActions'),
    ),
  );
  return errs;
}

/** `validatingadmissionpolicybindings` (cluster-scoped). */
export const validatingAdmissionPolicyBindingResource: ResourceDefinition = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  listKind: 'ValidatingAdmissionPolicyBindingList',
  plural: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      const spec = getObj(obj, 'spec');
      if (spec === undefined) return;
      defaultMatchResources(getObj(spec, 'matchResources'));
      const pr = getObj(spec, 'paramRef');
      if (pr !== undefined) setDefaultStr(pr, 'parameterNotFoundAction', 'Deny');
    },
    validate: validateBinding,
    validateUpdate: (obj) => validateBinding(obj),
  }),
};
