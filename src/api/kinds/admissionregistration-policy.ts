/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies (cluster-scoped, `/status`) and
 * ValidatingAdmissionPolicyBindings, with upstream's defaults (`failurePolicy: Fail`, match
 * resources `Equivalent` with `{}` selectors, rule scope `*`, `parameterNotFoundAction: Deny`)
 * and validation (`pkg/apis/admissionregistration/validation/validation.go`), CEL expressions
 * compiled in the policy environment so a policy that cannot run is refused at create.
 * Enforcing them is `src/apiserver/admission/policy`.
 *
 * `status.typeChecking` stays empty: upstream's type-checking controller checks expressions
 * against the matched resources' schemas, which this environment does not declare (`dyn`).
 *
 * @module
 */
import {
  compilePolicyExpression,
  type PolicyDeclarations,
  type ReturnKind,
} from '../cel/admission-policy/environment.js';
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isQualifiedName } from '../validation/label-names.js';
import {
  defaultMatchResources,
  validateMatchResources,
  validateParamKind,
} from './admissionregistration-policy-rules.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { getArr, getObj, getStr, type JsonObject, objects, setDefaultStr } from './json.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
/** Upstream `maxAuditAnnotations` and `maxAuditAnnotationValueExpressionLength` (5 KiB). */
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION_BYTES = 5 * 1024;
/** Upstream caps matchConditions at 64. */
const MAX_MATCH_CONDITIONS = 64;
const CEL_IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);

function hasNewlines(s: string): boolean {
  return /[\n\r]/.test(s);
}

/**
 * How expressions are checked. The store runs `validate` first and the create or update checks
 * only when it passed, so the structural rules run with `compile` off and the CEL compilation
 * runs on create and update, where an update never refuses an expression the old policy already
 * had (upstream compiles those in its stored-expressions environment).
 */
interface CompileContext {
  readonly decl: PolicyDeclarations;
  readonly compile: boolean;
  readonly stored: ReadonlySet<string>;
  /** Compile errors found (only these are reported when `compile` is on). */
  readonly found: FieldError[];
}

function compileErrors(
  ctx: CompileContext,
  text: string,
  want: ReturnKind,
  at: FieldPath,
  decl: PolicyDeclarations = ctx.decl,
): FieldError[] {
  if (!ctx.compile || ctx.stored.has(text)) return [];
  const r = compilePolicyExpression(text, want, decl);
  if (r.error !== undefined) ctx.found.push(fieldErrors.invalid(at, text, r.error));
  return [];
}

function validateMatchConditions(spec: JsonObject, ctx: CompileContext): FieldError[] {
  const at = SPEC.child('matchConditions');
  const conditions = objects(spec, 'matchConditions');
  const errs: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) {
    errs.push(fieldErrors.tooMany(at, conditions.length, MAX_MATCH_CONDITIONS));
  }
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const p = at.index(i);
    const expr = (getStr(c, 'expression') ?? '').trim();
    if (expr === '') errs.push(fieldErrors.required(p.child('expression'), ''));
    else errs.push(...compileErrors(ctx, expr, 'bool', p.child('expression')));
    const name = getStr(c, 'name') ?? '';
    if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
    else {
      for (const msg of isQualifiedName(name))
        errs.push(fieldErrors.invalid(p.child('name'), name, msg));
      if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
      names.add(name);
    }
  });
  return errs;
}

function validateVariable(v: JsonObject, at: FieldPath, ctx: CompileContext): FieldError[] {
  const errs: FieldError[] = [];
  const name = getStr(v, 'name') ?? '';
  if (name.trim() === '')
    errs.push(fieldErrors.required(at.child('name'), 'name is not specified'));
  else if (!CEL_IDENT.test(name) || CEL_RESERVED.has(name)) {
    errs.push(fieldErrors.invalid(at.child('name'), name, 'name is not a valid CEL identifier'));
  }
  const expr = getStr(v, 'expression') ?? '';
  if (expr.trim() === '') {
    errs.push(fieldErrors.required(at.child('expression'), 'expression is not specified'));
  } else errs.push(...compileErrors(ctx, expr, 'any', at.child('expression')));
  return errs;
}

function validateValidation(v: JsonObject, at: FieldPath, ctx: CompileContext): FieldError[] {
  const errs: FieldError[] = [];
  const expr = getStr(v, 'expression') ?? '';
  if (expr.trim() === '') {
    errs.push(fieldErrors.required(at.child('expression'), 'expression is not specified'));
  } else errs.push(...compileErrors(ctx, expr, 'bool', at.child('expression')));
  const msgExpr = getStr(v, 'messageExpression') ?? '';
  if (msgExpr.length > 0 && msgExpr.trim() === '') {
    const detail = 'must be non-empty if specified';
    errs.push(fieldErrors.invalid(at.child('messageExpression'), msgExpr, detail));
  } else if (msgExpr.trim() !== '') {
    // Upstream compiles message expressions without the authorizer.
    const decl = { ...ctx.decl, hasAuthorizer: false };
    errs.push(...compileErrors(ctx, msgExpr, 'string', at.child('messageExpression'), decl));
  }
  const message = getStr(v, 'message') ?? '';
  if (message.length > 0 && message.trim() === '') {
    const detail = 'message must be non-empty if specified';
    errs.push(fieldErrors.invalid(at.child('message'), message, detail));
  } else if (hasNewlines(message.trim())) {
    const detail = 'message must not contain line breaks';
    errs.push(fieldErrors.invalid(at.child('message'), message, detail));
  }
  const reason = v.reason;
  if (
    reason !== undefined &&
    reason !== null &&
    (typeof reason !== 'string' || !REASONS.includes(reason))
  ) {
    errs.push(fieldErrors.notSupported(at.child('reason'), reason, REASONS));
  }
  return errs;
}

function validateAuditAnnotation(
  a: JsonObject,
  policyName: string,
  at: FieldPath,
  ctx: CompileContext,
): FieldError[] {
  const errs: FieldError[] = [];
  const key = getStr(a, 'key') ?? '';
  if (policyName !== '') {
    const full = `${policyName}/${key}`;
    for (const msg of isQualifiedName(full))
      errs.push(fieldErrors.invalid(at.child('key'), full, msg));
  } else {
    errs.push(fieldErrors.invalid(at.child('key'), key, 'requires metadata.name be non-empty'));
  }
  const expr = (getStr(a, 'valueExpression') ?? '').trim();
  const p = at.child('valueExpression');
  if (expr === '') errs.push(fieldErrors.required(p, 'valueExpression is not specified'));
  else if (Buffer.byteLength(expr) > MAX_VALUE_EXPRESSION_BYTES) {
    errs.push(
      fieldErrors.required(p, `must not exceed ${MAX_VALUE_EXPRESSION_BYTES} bytes in length`),
    );
  } else errs.push(...compileErrors(ctx, expr, 'string-or-null', p));
  return errs;
}

/** The declarations a policy's expressions compile with. */
export function policyDeclarations(spec: JsonObject | undefined): PolicyDeclarations {
  const variables = objects(spec, 'variables')
    .map((v) => getStr(v, 'name') ?? '')
    .filter((n) => n !== '');
  return { hasParams: getObj(spec, 'paramKind') !== undefined, hasAuthorizer: true, variables };
}

/** Every expression text of a policy (upstream `findValidatingPolicyPreexistingExpressions`). */
function expressionsOf(spec: JsonObject | undefined): Set<string> {
  const out = new Set<string>();
  for (const c of objects(spec, 'matchConditions')) out.add((getStr(c, 'expression') ?? '').trim());
  for (const v of objects(spec, 'validations')) {
    out.add(getStr(v, 'expression') ?? '');
    const m = getStr(v, 'messageExpression') ?? '';
    if (m !== '') out.add(m);
  }
  for (const a of objects(spec, 'auditAnnotations'))
    out.add((getStr(a, 'valueExpression') ?? '').trim());
  for (const v of objects(spec, 'variables')) out.add(getStr(v, 'expression') ?? '');
  return out;
}

/** The CEL compile errors of a policy's expressions (those of `old` excepted). */
function compilePolicyErrors(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const ctx: CompileContext = {
    decl: policyDeclarations(spec),
    compile: true,
    stored: old ? expressionsOf(getObj(old, 'spec')) : new Set(),
    found: [],
  };
  validateSpec(obj, ctx);
  return ctx.found;
}

function validatePolicy(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  return validateSpec(obj, {
    decl: policyDeclarations(spec),
    compile: false,
    stored: new Set(),
    found: [],
  });
}

function validateSpec(obj: KubeObject, ctx: CompileContext): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  const fp = spec.failurePolicy;
  if (fp === undefined || fp === null)
    errs.push(fieldErrors.required(SPEC.child('failurePolicy'), ''));
  else if (typeof fp !== 'string' || !FAILURE_POLICIES.includes(fp)) {
    errs.push(fieldErrors.notSupported(SPEC.child('failurePolicy'), fp, FAILURE_POLICIES));
  }
  const pk = getObj(spec, 'paramKind');
  if (pk) errs.push(...validateParamKind(pk, SPEC.child('paramKind')));
  const mc = getObj(spec, 'matchConstraints');
  if (mc === undefined) errs.push(fieldErrors.required(SPEC.child('matchConstraints'), ''));
  else {
    errs.push(...validateMatchResources(mc, SPEC.child('matchConstraints')));
    // At least one resource rule, to give the expressions type information.
    if ((getArr(mc, 'resourceRules') ?? []).length === 0) {
      errs.push(fieldErrors.required(SPEC.child('matchConstraints', 'resourceRules'), ''));
    }
  }
  errs.push(...validateMatchConditions(spec, ctx));
  objects(spec, 'variables').forEach((v, i) => {
    errs.push(...validateVariable(v, SPEC.child('variables').index(i), ctx));
  });
  const validations = objects(spec, 'validations');
  const annotations = objects(spec, 'auditAnnotations');
  if (validations.length === 0 && annotations.length === 0) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    errs.push(fieldErrors.required(SPEC.child('validations'), detail));
    errs.push(fieldErrors.required(SPEC.child('auditAnnotations'), detail));
    return errs;
  }
  validations.forEach((v, i) => {
    errs.push(...validateValidation(v, SPEC.child('validations').index(i), ctx));
  });
  const at = SPEC.child('auditAnnotations');
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) {
    const detail = `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`;
    errs.push(fieldErrors.invalid(at, getArr(spec, 'auditAnnotations'), detail));
  }
  const keys = new Set<string>();
  const name = obj.metadata?.name ?? '';
  annotations.forEach((a, i) => {
    errs.push(...validateAuditAnnotation(a, name, at.index(i), ctx));
    const key = getStr(a, 'key') ?? '';
    if (keys.has(key)) errs.push(fieldErrors.duplicate(at.index(i).child('key'), key));
    keys.add(key);
  });
  return errs;
}

/** `validatingadmissionpolicies` (cluster-scoped, `/status`). */
export const validatingAdmissionPolicyResource: ResourceDefinition = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  listKind: 'ValidatingAdmissionPolicyList',
  plural: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      const spec = getObj(obj, 'spec');
      if (spec === undefined) return;
      setDefaultStr(spec, 'failurePolicy', 'Fail');
      defaultMatchResources(getObj(spec, 'matchConstraints'));
    },
    prepareForCreate(obj) {
      delete obj.status;
    },
    validate: validatePolicy,
    validateCreate: (obj) => compilePolicyErrors(obj),
    validateUpdate: (obj, old) => compilePolicyErrors(obj, old),
  }),
};

export { validatingAdmissionPolicyBindingResource } from './admissionregistration-policy-binding.js';
