/**
 * The RBAC authorizer (upstream `RBACAuthorizer`, `plugin/pkg/auth/authorizer/rbac/rbac.go`):
 * Allow as soon as one rule of one binding of the user matches, with the reason
 * `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"`; otherwise no
 * opinion, with the resolution errors met on the way as the reason
 * (`RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found`) or none.
 *
 * Like upstream, it never sets `evaluationError`: a missing role is part of the reason, and
 * upstream's authorization filter answers 500 only for an authorizer error, which RBAC does not
 * return.
 *
 * @module
 */
import type { PolicyRule, RoleRef } from '../../../api/model/index.js';
import type { UserInfo } from '../../authentication/user.js';
import type {
  Attributes,
  AuthorizationResult,
  Authorizer,
  RuleResolver,
  UserRules,
} from '../types.js';
import { aggregateMessage } from './go-text.js';
import type { PolicyReader } from './policy-index.js';
import { ruleAllows } from './rule-match.js';
import { describeSource, RbacRuleResolver, type RoleRefResult } from './rule-resolver.js';

export class RbacAuthorizer implements Authorizer, RuleResolver {
  readonly resolver: RbacRuleResolver;

  constructor(policy: PolicyReader) {
    this.resolver = new RbacRuleResolver(policy);
  }

  authorize(a: Attributes): AuthorizationResult {
    const errors: string[] = [];
    let reason: string | undefined;
    this.resolver.visitRulesFor(a.user, a.namespace ?? '', (source, rule, error) => {
      if (rule !== undefined && source !== undefined && ruleAllows(a, rule)) {
        reason = `RBAC: allowed by ${describeSource(source)}`;
        return false;
      }
      if (error !== undefined) errors.push(error);
      return true;
    });
    if (reason !== undefined) return { decision: 'Allow', reason };
    return {
      decision: 'NoOpinion',
      reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : '',
    };
  }

  rulesFor(user: UserInfo, namespace: string): UserRules {
    return this.resolver.rulesFor(user, namespace);
  }

  /** Every rule `user` holds in `namespace`, unsplit, with resolution errors (escalation). */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    return this.resolver.policyRulesFor(user, namespace);
  }

  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string): RoleRefResult {
    return this.resolver.getRoleReferenceRules(roleRef, bindingNamespace);
  }
}
