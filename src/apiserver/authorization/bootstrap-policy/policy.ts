/**
 * The whole bootstrap policy of kube-apiserver 1.33 as one list of objects, in the order
 * upstream's `rbac/bootstrap-roles` post-start hook writes them: ClusterRoles (the
 * `policy.go` ones, then the controllers'), ClusterRoleBindings (likewise), then per namespace
 * the Roles and the RoleBindings.
 *
 * Source: kubernetes/kubernetes, `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/`
 * (`policy.go`, `controller_policy.go`, `namespace_policy.go`), release 1.33, default
 * feature gates. `golden.test.ts` compares it with upstream's golden files (`testdata/`,
 * each naming the upstream revision it was taken from).
 *
 * @module
 */
import type {
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
} from '../../../api/model/index.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './cluster-roles.js';
import { bootstrapControllerRoleBindings, bootstrapControllerRoles } from './controller-roles.js';
import { bootstrapNamespaceRoleBindings, bootstrapNamespaceRoles } from './namespace-policy.js';

export type PolicyObject = ClusterRole | ClusterRoleBinding | Role | RoleBinding;

export interface BootstrapPolicy {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roles: readonly Role[];
  readonly roleBindings: readonly RoleBinding[];
}

/** A fresh copy of the policy (callers may mutate what they get). */
export function bootstrapPolicy(): BootstrapPolicy {
  return {
    clusterRoles: [...bootstrapClusterRoles(), ...bootstrapControllerRoles()],
    clusterRoleBindings: [...bootstrapClusterRoleBindings(), ...bootstrapControllerRoleBindings()],
    roles: bootstrapNamespaceRoles(),
    roleBindings: bootstrapNamespaceRoleBindings(),
  };
}
