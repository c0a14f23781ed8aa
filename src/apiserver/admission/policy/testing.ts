/**
 * Fixtures for the policy tests: a policy, a binding, a Deployment request, and inputs over
 * in-memory objects. Not used outside tests.
 *
 * @module
 */
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingSpec,
  ValidatingAdmissionPolicySpec,
} from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { PolicyInputs, PolicyRequest } from './types.js';

export const DEPLOYMENT_RULES = {
  resourceRules: [
    {
      apiGroups: ['apps'],
      apiVersions: ['v1'],
      operations: ['CREATE', 'UPDATE'],
      resources: ['deployments'],
    },
  ],
};

let rv = 0;

export function policy(
  name: string,
  spec: ValidatingAdmissionPolicySpec,
): ValidatingAdmissionPolicy {
  rv++;
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name, uid: `uid-${name}`, resourceVersion: String(rv) },
    spec: { failurePolicy: 'Fail', matchConstraints: DEPLOYMENT_RULES, ...spec },
  };
}

export function binding(
  name: string,
  policyName: string,
  spec: Partial<ValidatingAdmissionPolicyBindingSpec> = {},
): ValidatingAdmissionPolicyBinding {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}

export function deployment(
  name: string,
  replicas: number,
  labels: Record<string, string> = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels },
    spec: { replicas },
  };
}

export function createRequest(
  object: KubeObject,
  over: Partial<PolicyRequest> = {},
): PolicyRequest {
  return {
    operation: 'CREATE',
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    namespace: object.metadata?.namespace ?? 'default',
    name: object.metadata?.name ?? '',
    object,
    userInfo: { username: 'alice', groups: ['dev', 'system:authenticated'] },
    ...over,
  };
}

export interface FakeCluster {
  readonly namespaces?: readonly KubeObject[];
  /** Params by `apiVersion/kind`; namespaced when the objects carry a namespace. */
  readonly params?: Readonly<Record<string, readonly KubeObject[]>>;
}

export function inputs(
  policies: readonly ValidatingAdmissionPolicy[],
  bindings: readonly ValidatingAdmissionPolicyBinding[],
  cluster: FakeCluster = {},
  extra: Partial<PolicyInputs> = {},
): PolicyInputs {
  const namespaces = cluster.namespaces ?? [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { env: 'dev' } } },
  ];
  return {
    policies,
    bindings,
    params: (pk) => {
      const objs = cluster.params?.[`${pk.apiVersion}/${pk.kind}`];
      if (!objs) return undefined;
      const namespaced = objs.some((o) => o.metadata?.namespace !== undefined);
      return {
        namespaced,
        list: (ns) => objs.filter((o) => ns === undefined || o.metadata?.namespace === ns),
      };
    },
    namespace: (name) => namespaces.find((n) => n.metadata?.name === name),
    ...extra,
  };
}
