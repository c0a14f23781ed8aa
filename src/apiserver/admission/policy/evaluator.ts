/**
 * ValidatingAdmissionPolicy evaluation for one request, after upstream's dispatcher
 * (`k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go`): for each policy
 * with bindings whose matchConstraints select the request, each binding whose matchResources do,
 * each of its params: evaluate, then route every failed validation by the binding's
 * validationActions (Deny: the request fails; Warn: a warning; Audit: the
 * `validation.policy.admission.k8s.io/validation_failure` annotation). Configuration errors
 * (no params, unknown paramKind, selector errors) follow the policy's failurePolicy. Audit
 * annotations are published per policy as `<policy>/<key>`, distinct values of several bindings
 * joined by `, `. The first denial is the answer.
 *
 * Pure: everything it reads comes in `PolicyInputs`; compiled programs come from a
 * {@link PolicyCompiler}.
 *
 * @module
 */
import type {
  ParamKind,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../../api/model/index.js';
import { admissionRequestJson, buildActivation, namespaceObjectJson } from './activation.js';
import { type CompiledPolicy, PolicyCompiler } from './compiled-policy.js';
import { type DeniedDecision, denyError } from './deny-status.js';
import { matchResources } from './matching.js';
import { collectParams } from './params.js';
import type { ParamSource, PolicyInputs, PolicyOutcome, PolicyRequest } from './types.js';
import { type ValidateResult, validatePolicy } from './validator.js';

export const VALIDATION_FAILURE_ANNOTATION =
  'validation.policy.admission.k8s.io/validation_failure';
/** Upstream `maxAuditAnnotationValueLength`. */
const MAX_AUDIT_ANNOTATION_VALUE = 10 * 1024;

const sharedCompiler = new PolicyCompiler();

/** Collects what all policies decide on one request. */
class Collector {
  readonly denied: DeniedDecision[] = [];
  readonly warnings: string[] = [];
  readonly annotations: Record<string, string> = {};

  configError(policy: CompiledPolicy, binding: string | undefined, error: string): void {
    if (policy.failurePolicy === 'Ignore') return;
    const what = binding === undefined ? 'policy' : 'binding';
    this.denied.push({
      policy: policy.name,
      binding,
      message: `failed to configure ${what}: ${error}`,
    });
  }

  warn(text: string): void {
    // The warning recorder drops exact duplicates.
    if (!this.warnings.includes(text)) this.warnings.push(text);
  }

  /** An admission annotation cannot be overwritten: the first value stays. */
  annotate(key: string, value: string): void {
    if (!(key in this.annotations)) this.annotations[key] = value;
  }
}

function byName<T extends { metadata?: { name?: string } }>(a: T, b: T): number {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

const EXEMPT = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/**
 * Upstream `IsExemptAdmissionConfigurationResource`: policies never judge admission
 * configuration, so a bad policy can always be fixed or removed.
 */
export function isExemptConfigurationResource(req: PolicyRequest): boolean {
  return req.resource.group === 'admissionregistration.k8s.io' && EXEMPT.has(req.resource.resource);
}

/** Evaluates every policy on `req`. */
export function evaluatePolicies(
  inputs: PolicyInputs,
  req: PolicyRequest,
  compiler: PolicyCompiler = sharedCompiler,
): PolicyOutcome {
  const out = new Collector();
  if (isExemptConfigurationResource(req)) return { warnings: [], auditAnnotations: {} };
  const bindingsByPolicy = new Map<string, ValidatingAdmissionPolicyBinding[]>();
  for (const b of [...inputs.bindings].sort(byName)) {
    const name = b.spec?.policyName ?? '';
    const list = bindingsByPolicy.get(name) ?? [];
    list.push(b);
    bindingsByPolicy.set(name, list);
  }
  for (const policy of [...inputs.policies].sort(byName)) {
    const bindings = bindingsByPolicy.get(policy.metadata?.name ?? '') ?? [];
    if (bindings.length > 0) dispatchPolicy(policy, bindings, inputs, req, compiler, out);
  }
  const first = out.denied[0];
  return {
    denied: first ? denyError(req, first) : undefined,
    warnings: out.warnings,
    auditAnnotations: out.annotations,
  };
}

function dispatchPolicy(
  policy: ValidatingAdmissionPolicy,
  bindings: readonly ValidatingAdmissionPolicyBinding[],
  inputs: PolicyInputs,
  req: PolicyRequest,
  compiler: PolicyCompiler,
  out: Collector,
): void {
  const compiled = compiler.compile(policy);
  const spec = policy.spec ?? {};
  if (!spec.matchConstraints) {
    out.configError(compiled, undefined, 'policy contained no match constraints, a required field');
    return;
  }
  const definition = matchResources(spec.matchConstraints, req, inputs);
  if (definition.error !== undefined) {
    out.configError(compiled, undefined, definition.error);
    return;
  }
  if (!definition.matches) return;
  const paramKind = spec.paramKind ?? undefined;
  const source = paramKind ? inputs.params(paramKind) : undefined;
  const matched = {
    resource: definition.resource ?? req.resource,
    kind: definition.kind ?? req.kind,
  };
  const requestJson = admissionRequestJson(req, matched);
  const ns = req.namespace ?? '';
  const namespaceObject = ns === '' ? null : namespaceObjectJson(inputs.namespace(ns));
  const ctx: PolicyContext = {
    compiled,
    paramKind,
    source,
    requestJson,
    namespaceObject,
    collected: new Map(),
  };
  for (const binding of bindings) dispatchBinding(ctx, binding, inputs, req, out);
  const collected = ctx.collected;
  for (const [key, values] of collected) out.annotate(`${compiled.name}/${key}`, values.join(', '));
}

interface PolicyContext {
  readonly compiled: CompiledPolicy;
  readonly paramKind: ParamKind | undefined;
  readonly source: ParamSource | undefined;
  readonly requestJson: Record<string, unknown>;
  readonly namespaceObject: Record<string, unknown> | null;
  /** Audit annotation values of the policy's bindings, by key. */
  readonly collected: Map<string, string[]>;
}

function dispatchBinding(
  ctx: PolicyContext,
  binding: ValidatingAdmissionPolicyBinding,
  inputs: PolicyInputs,
  req: PolicyRequest,
  out: Collector,
): void {
  const { compiled, paramKind, source } = ctx;
  const bindingName = binding.metadata?.name ?? '';
  const mr = binding.spec?.matchResources;
  if (mr) {
    const m = matchResources(mr, req, inputs);
    if (m.error !== undefined) {
      out.configError(compiled, bindingName, m.error);
      return;
    }
    if (!m.matches) return;
  }
  const params = collectParams(paramKind, source, binding.spec?.paramRef, req.namespace ?? '');
  if (params.error !== undefined) {
    // An unknown paramKind is the policy's configuration error upstream.
    const bindingPart = paramKind && !source ? undefined : bindingName;
    out.configError(compiled, bindingPart, params.error);
    return;
  }
  for (const param of params.params) {
    const vars = buildActivation({
      request: req,
      requestJson: ctx.requestJson,
      params: param,
      namespaceObject: ctx.namespaceObject,
      authorizer: inputs.authorizer,
      variables: compiled.variables,
    });
    route(compiled, binding, validatePolicy(compiled, vars), out, ctx.collected);
  }
}

function route(
  policy: CompiledPolicy,
  binding: ValidatingAdmissionPolicyBinding,
  result: ValidateResult,
  out: Collector,
  collected: Map<string, string[]>,
): void {
  const bindingName = binding.metadata?.name ?? '';
  const actions = binding.spec?.validationActions ?? [];
  result.decisions.forEach((d, index) => {
    if (d.action !== 'deny') return;
    for (const action of actions) {
      if (action === 'Deny') {
        out.denied.push({
          policy: policy.name,
          binding: bindingName,
          message: d.message,
          reason: d.reason,
        });
      } else if (action === 'Warn') {
        out.warn(
          `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${bindingName}': ${d.message}`,
        );
      } else if (action === 'Audit') {
        const value = JSON.stringify([
          {
            message: d.message,
            policy: binding.spec?.policyName ?? '',
            binding: bindingName,
            expressionIndex: index,
            validationActions: actions,
          },
        ]);
        out.annotate(VALIDATION_FAILURE_ANNOTATION, value);
      }
    }
  });
  for (const a of result.auditAnnotations) {
    if (a.action === 'publish' && a.value !== undefined) {
      const value = a.value.slice(0, MAX_AUDIT_ANNOTATION_VALUE);
      const values = collected.get(a.key) ?? [];
      if (!values.includes(value)) values.push(value);
      collected.set(a.key, values);
    } else if (a.action === 'error') {
      // With failurePolicy Fail an annotation that cannot be computed denies the request.
      out.denied.push({ policy: policy.name, binding: bindingName, message: a.error ?? '' });
    }
  }
}
