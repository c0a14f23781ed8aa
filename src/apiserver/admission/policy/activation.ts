/**
 * The values a policy's expressions see (upstream `cel.NewActivation` and
 * `CreateAdmissionRequest`): `object` and `oldObject` (null when absent: `oldObject` on
 * CREATE, `object` on DELETE), `request` (the AdmissionRequest a webhook would get, without the
 * objects), `params`, `namespaceObject` (the Namespace without managedFields, ownerReferences
 * or finalizers), `authorizer`, and `variables`, each evaluated on first use and then reused
 * (upstream's composition). JSON numbers become CEL ints where they are whole.
 *
 * Differs from upstream: `request.name`, `request.namespace` and `request.subResource` are `''`
 * when empty instead of absent, so reading them never fails.
 *
 * @module
 */

import {
  CelAuthorizer,
  type CelAuthzBackend,
} from '../../../api/cel/admission-policy/authorizer-library.js';
import {
  AUTHORIZER,
  NAMESPACE_OBJECT,
  OBJECT,
  OLD_OBJECT,
  PARAMS,
  REQUEST,
  VARIABLES,
} from '../../../api/cel/admission-policy/environment.js';
import { celGoErrorText } from '../../../api/cel/runtime-errors.js';
import { untypedValue } from '../../../api/cel/values.js';
import type { KubeObject } from '../../../api/object.js';
import type { NamedExpression } from './compiled-policy.js';
import type { GroupVersionKind, GroupVersionResource, PolicyRequest } from './types.js';

/** Upstream `CreateAdmissionRequest`, as JSON. */
export function admissionRequestJson(
  req: PolicyRequest,
  matched: { resource: GroupVersionResource; kind: GroupVersionKind },
): Record<string, unknown> {
  const user = req.userInfo;
  const userInfo: Record<string, unknown> = { username: user.username };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
  const out: Record<string, unknown> = {
    uid: req.uid ?? '',
    kind: { ...matched.kind },
    resource: { ...matched.resource },
    subResource: req.subResource ?? '',
    requestKind: { ...req.kind },
    requestResource: { ...req.resource },
    requestSubResource: req.subResource ?? '',
    name: req.name ?? '',
    namespace: req.namespace ?? '',
    operation: req.operation,
    userInfo,
    dryRun: req.dryRun === true,
  };
  if (req.options) out.options = req.options;
  return out;
}

/** Upstream `CreateNamespaceObject`: spec, status and a subset of metadata. */
export function namespaceObjectJson(ns: KubeObject | undefined): Record<string, unknown> | null {
  if (!ns) return null;
  const m = ns.metadata ?? {};
  const keep = [
    'name',
    'generateName',
    'namespace',
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'labels',
    'annotations',
  ] as const;
  const metadata: Record<string, unknown> = {};
  for (const k of keep) if (m[k] !== undefined && m[k] !== null) metadata[k] = m[k];
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata,
    spec: ns.spec ?? {},
    status: ns.status ?? {},
  };
}

/** Answers every check when the server gave no authorizer (upstream always has one). */
const NO_AUTHORIZER: CelAuthzBackend = {
  authorize: () => ({
    decision: 'NoOpinion',
    reason: '',
    evaluationError: 'no authorizer configured',
  }),
};

export interface ActivationInput {
  readonly request: PolicyRequest;
  readonly requestJson: Record<string, unknown>;
  readonly params: KubeObject | null;
  readonly namespaceObject: Record<string, unknown> | null;
  readonly authorizer?: CelAuthzBackend;
  readonly variables: readonly NamedExpression[];
}

/** The variables of one evaluation; the same object serves every expression of a binding and param. */
export function buildActivation(input: ActivationInput): Record<string, unknown> {
  const req = input.request;
  const backend = input.authorizer ?? NO_AUTHORIZER;
  const vars: Record<string, unknown> = {
    [OBJECT]: untypedValue(req.object ?? null),
    [OLD_OBJECT]: untypedValue(req.oldObject ?? null),
    [REQUEST]: untypedValue(input.requestJson),
    [PARAMS]: untypedValue(input.params),
    [NAMESPACE_OBJECT]: untypedValue(input.namespaceObject),
    [AUTHORIZER]: new CelAuthorizer(backend, req.userInfo, {
      group: req.resource.group,
      version: req.resource.version,
      resource: req.resource.resource,
      subresource: req.subResource ?? '',
      namespace: req.namespace ?? '',
      name: req.name ?? '',
    }),
  };
  vars[VARIABLES] = lazyVariables(input.variables, vars);
  return vars;
}

type Slot =
  | { state: 'pending' }
  | { state: 'running' }
  | { state: 'done'; value: unknown }
  | { state: 'failed'; error: Error };

/**
 * `variables.<name>` evaluated on first read, in the activation of the expression reading it
 * (so its cost counts toward that expression, as upstream's composited cost does).
 */
function lazyVariables(
  variables: readonly NamedExpression[],
  activation: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const v of variables) {
    let slot: Slot = { state: 'pending' };
    Object.defineProperty(out, v.name, {
      enumerable: true,
      get(): unknown {
        if (slot.state === 'pending')
          slot = evaluateVariable(v, activation, () => (slot = { state: 'running' }));
        if (slot.state === 'done') return slot.value;
        if (slot.state === 'failed') throw slot.error;
        throw new Error(`composited variable "${v.name}" refers to itself`);
      },
    });
  }
  return out;
}

function evaluateVariable(
  v: NamedExpression,
  activation: Record<string, unknown>,
  markRunning: () => void,
): Slot {
  const program = v.compiled.program;
  if (!program) {
    const error = new Error(
      `composited variable "${v.name}" fails to compile: ${v.compiled.error}`,
    );
    return { state: 'failed', error };
  }
  markRunning();
  try {
    return { state: 'done', value: program(activation) };
  } catch (err) {
    const text = celGoErrorText(err);
    return {
      state: 'failed',
      error: new Error(`composited variable "${v.name}" fails to evaluate: ${text}`),
    };
  }
}
