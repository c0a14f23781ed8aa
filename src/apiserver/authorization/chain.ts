/**
 * Authorizers in a chain, as kube-apiserver builds them (`pkg/kubeapiserver/authorizer/config.go`
 * with upstream's `union` package): the privileged-group authorizer for `system:masters` first,
 * then the configured modes (Node, RBAC). The first authorizer that allows or denies decides;
 * when all have no opinion the answer is no opinion, with their non-empty reasons joined by
 * newlines (a request then gets 403).
 *
 * Rule resolvers chain alike (upstream `union.NewRuleResolvers`) for SelfSubjectRulesReview:
 * the rules of all of them, incomplete if any is, with their errors aggregated.
 *
 * @module
 */
import type { PolicyRule } from '../../api/model/index.js';
import { SYSTEM_MASTERS, type UserInfo } from '../authentication/user.js';
import { aggregateMessage } from './rbac/go-text.js';
import type {
  Attributes,
  AuthorizationResult,
  Authorizer,
  RuleResolver,
  UserRules,
} from './types.js';

/** Upstream `union.New`. */
export function authorizerChain(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(a: Attributes): AuthorizationResult {
      const errors: string[] = [];
      const reasons: string[] = [];
      for (const authorizer of authorizers) {
        const r = authorizer.authorize(a);
        if (r.evaluationError !== undefined && r.evaluationError !== '') {
          errors.push(r.evaluationError);
        }
        if (r.reason !== '') reasons.push(r.reason);
        if (r.decision !== 'NoOpinion') return r;
      }
      const out: AuthorizationResult = { decision: 'NoOpinion', reason: reasons.join('\n') };
      return errors.length > 0 ? { ...out, evaluationError: aggregateMessage(errors) } : out;
    },
  };
}

/**
 * Upstream `authorizerfactory.NewPrivilegedGroups`: members of these groups (by default
 * `system:masters`) are allowed everything, with an empty reason; anyone else gets no opinion.
 */
export function privilegedGroups(groups: readonly string[] = [SYSTEM_MASTERS]): Authorizer {
  return {
    authorize(a: Attributes): AuthorizationResult {
      for (const g of a.user.groups) {
        if (groups.includes(g)) return { decision: 'Allow', reason: '' };
      }
      return { decision: 'NoOpinion', reason: '' };
    },
  };
}

/** Upstream `union.NewRuleResolvers`. */
export function ruleResolverChain(resolvers: readonly RuleResolver[]): RuleResolver {
  return {
    rulesFor(user: UserInfo, namespace: string): UserRules {
      const resourceRules: PolicyRule[] = [];
      const nonResourceRules: PolicyRule[] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const resolver of resolvers) {
        const r = resolver.rulesFor(user, namespace);
        resourceRules.push(...r.resourceRules);
        nonResourceRules.push(...r.nonResourceRules);
        if (r.incomplete) incomplete = true;
        if (r.evaluationError !== undefined && r.evaluationError !== '') {
          errors.push(r.evaluationError);
        }
      }
      const out: UserRules = { resourceRules, nonResourceRules, incomplete };
      return errors.length > 0 ? { ...out, evaluationError: aggregateMessage(errors) } : out;
    },
  };
}
