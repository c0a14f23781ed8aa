/**
 * What an authorizer is asked and what it answers (upstream `authorizer.Attributes`,
 * `authorizer.Decision`, `k8s.io/apiserver/pkg/authorization/authorizer`). A resource request
 * names a verb on a resource (and subresource, name, namespace, group); a non-resource request a
 * verb (`get`, `post`…) on a path. Authorizers are chained: the first that allows or denies
 * decides, and no opinion from all of them is a denial.
 *
 * @module
 */
import type { PolicyRule } from '../../api/model/index.js';
import type { UserInfo } from '../authentication/user.js';

export interface Attributes {
  readonly user: UserInfo;
  /** A resource verb (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
   * `deletecollection`, or a special one: `impersonate`, `bind`, `escalate`, `approve`,
   * `sign`, `use`), or for a non-resource request the lower-cased HTTP method. */
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  readonly path?: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly name?: string;
  /** A list or watch's raw `fieldSelector` (upstream `GetFieldSelector`; the node authorizer). */
  readonly fieldSelector?: string;
  /** A list or watch's raw `labelSelector`. */
  readonly labelSelector?: string;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why (the binding that allowed, or what is missing); shown in SubjectAccessReview status. */
  readonly reason: string;
  /** A failure while evaluating (a binding naming a missing role): still a decision. */
  readonly evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): AuthorizationResult;
}

/** The rules a user holds in a namespace (SelfSubjectRulesReview, escalation checks). */
export interface UserRules {
  /** Resource rules, cluster-wide ones included; non-resource rules separately. */
  readonly resourceRules: readonly PolicyRule[];
  readonly nonResourceRules: readonly PolicyRule[];
  /** True when some rules could not be resolved (a missing role): the list may be short. */
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

export interface RuleResolver {
  /** The rules `user` holds in `namespace` ('' for cluster-wide rules only). */
  rulesFor(user: UserInfo, namespace: string): UserRules;
}
