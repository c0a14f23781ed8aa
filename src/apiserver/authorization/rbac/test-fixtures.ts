/**
 * Builders of RBAC objects for this directory's tests (and the lead's): roles, bindings and
 * subjects as a client writes them.
 *
 * @module
 */
import type { PolicyRule, RbacV1Subject } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import { PolicyIndex } from './policy-index.js';

const API = 'rbac.authorization.k8s.io/v1';

export const user = (name: string): RbacV1Subject => ({
  kind: 'User',
  apiGroup: 'rbac.authorization.k8s.io',
  name,
});
export const group = (name: string): RbacV1Subject => ({
  kind: 'Group',
  apiGroup: 'rbac.authorization.k8s.io',
  name,
});
export const serviceAccount = (name: string, namespace?: string): RbacV1Subject =>
  namespace === undefined
    ? { kind: 'ServiceAccount', name }
    : { kind: 'ServiceAccount', name, namespace };

export function role(namespace: string, name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion: API, kind: 'Role', metadata: { name, namespace }, rules };
}

export function clusterRole(name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion: API, kind: 'ClusterRole', metadata: { name }, rules };
}

export function roleBinding(
  namespace: string,
  name: string,
  ref: { kind: 'Role' | 'ClusterRole'; name: string },
  subjects: RbacV1Subject[],
): KubeObject {
  return {
    apiVersion: API,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...ref },
    subjects,
  };
}

export function clusterRoleBinding(
  name: string,
  roleName: string,
  subjects: RbacV1Subject[],
): KubeObject {
  return {
    apiVersion: API,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects,
  };
}

/** An index holding `objects` (each of the four kinds, by its `kind`). */
export function indexOf(objects: readonly KubeObject[]): PolicyIndex {
  const index = new PolicyIndex();
  for (const o of objects) {
    const kind = o.kind;
    if (
      kind === 'Role' ||
      kind === 'ClusterRole' ||
      kind === 'RoleBinding' ||
      kind === 'ClusterRoleBinding'
    ) {
      index.upsert(kind, o);
    }
  }
  return index;
}
