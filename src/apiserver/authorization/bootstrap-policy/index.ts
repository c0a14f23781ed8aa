/**
 * kube-apiserver 1.33's bootstrap RBAC policy and its reconciliation at server start.
 *
 * @module
 */
export { CONTROLLER_ROLE_PREFIX, UPSTREAM_CONTROLLER_NAMES } from './controller-roles.js';
export { type BootstrapPolicy, bootstrapPolicy, type PolicyObject } from './policy.js';
export {
  bootstrapPolicyObjects,
  ensureBootstrapPolicy,
  objectStorePolicyStore,
  type PolicyKind,
  type PolicyStore,
  type ReconcileOutcome,
  type ReconcileResult,
  reconcileBootstrapPolicy,
} from './reconcile.js';
export { AUTOUPDATE_ANNOTATION, BOOTSTRAP_LABEL } from './rule-builder.js';
