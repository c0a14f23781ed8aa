/**
 * RBAC for the API server: the policy index over the storage backend, the RBAC authorizer and
 * rule resolver, escalation checks for RBAC writes. {@link rbacFromBackend} builds what
 * kube-apiserver builds for `--authorization-mode=RBAC`: the `system:masters` authorizer
 * before RBAC, and the rule resolver SelfSubjectRulesReview asks.
 *
 * @module
 */
import type { Backend } from '../../../storage/backend.js';
import { authorizerChain, privilegedGroups, ruleResolverChain } from '../chain.js';
import type { Authorizer, RuleResolver } from '../types.js';
import { RbacAuthorizer } from './authorizer.js';
import { type FromBackendOptions, PolicyIndex } from './policy-index.js';

export { RbacAuthorizer } from './authorizer.js';
export {
  type BindingWrite,
  bindingAuthorized,
  checkBindingWrite,
  checkRoleWrite,
  confirmNoEscalation,
  escalationAllowed,
  type RoleWrite,
} from './escalation.js';
export { PolicyIndex, type PolicyReader, type RbacKind } from './policy-index.js';

export interface RbacAuthorization {
  readonly index: PolicyIndex;
  /** The RBAC authorizer alone: also the rule resolver and role-reference resolver of escalation checks. */
  readonly rbac: RbacAuthorizer;
  /** `system:masters`, then RBAC (upstream's order); put the Node authorizer between them. */
  readonly authorizer: Authorizer;
  /** For SelfSubjectRulesReview. */
  readonly ruleResolver: RuleResolver;
  /** Ends the index's watch. */
  stop(): void;
}

/**
 * RBAC over `backend`'s RBAC objects. `before` are authorizers asked after `system:masters` and
 * before RBAC (upstream's Node authorizer); `beforeResolvers` their rule resolvers.
 */
export function rbacFromBackend(
  backend: Pick<Backend, 'list' | 'watch'>,
  options: FromBackendOptions & {
    readonly before?: readonly Authorizer[];
    readonly beforeResolvers?: readonly RuleResolver[];
  } = {},
): RbacAuthorization {
  const index = PolicyIndex.fromBackend(backend, options);
  const rbac = new RbacAuthorizer(index);
  return {
    index,
    rbac,
    authorizer: authorizerChain([privilegedGroups(), ...(options.before ?? []), rbac]),
    ruleResolver: ruleResolverChain([...(options.beforeResolvers ?? []), rbac]),
    stop: () => index.stop(),
  };
}
