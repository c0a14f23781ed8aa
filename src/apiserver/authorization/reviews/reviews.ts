/**
 * The authorization.k8s.io reviews as pure functions (upstream
 * `pkg/registry/authorization/{subjectaccessreview,localsubjectaccessreview,
 * selfsubjectaccessreview,selfsubjectrulesreview}/rest.go`): validate, ask the authorizer (or
 * the rule resolver), and answer with the review and its status. Nothing is stored.
 *
 * - SubjectAccessReview: the user is exactly the spec's (user, groups, uid, extra); no
 *   `system:authenticated` is added.
 * - LocalSubjectAccessReview: the same, in the request's namespace, which must be the review's
 *   (the handler has already defaulted `metadata.namespace` from the URL, as every create does).
 * - SelfSubjectAccessReview: the requesting user.
 * - SelfSubjectRulesReview: the rules the requesting user holds in `spec.namespace`; upstream
 *   answers with a new object holding only the status (its spec comes back empty).
 *
 * Failed validation is upstream's 422 with an empty kind (the internal object has lost its
 * TypeMeta by then): `.authorization.k8s.io "" is invalid: spec.user: …`.
 *
 * @module
 */
import { badRequest, invalid } from '../../../api/errors.js';
import type { FieldError } from '../../../api/field-error.js';
import type {
  LocalSubjectAccessReview,
  NonResourceRule,
  ResourceAttributes,
  ResourceRule,
  SelfSubjectAccessReview,
  SelfSubjectRulesReview,
  SubjectAccessReview,
  SubjectAccessReviewSpec,
  SubjectAccessReviewStatus,
  SubjectRulesReviewStatus,
} from '../../../api/model/index.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver } from '../types.js';
import {
  validateLocalSubjectAccessReview,
  validateSelfSubjectAccessReview,
  validateSubjectAccessReview,
} from './validation.js';

const GROUP = 'authorization.k8s.io';

function throwInvalid(errs: readonly FieldError[]): void {
  if (errs.length > 0) throw invalid({ group: GROUP, kind: '' }, '', errs);
}

/** Upstream `ResourceAttributesFrom` / `NonResourceAttributesFrom`. */
export function attributesFrom(
  user: UserInfo,
  spec: Pick<SubjectAccessReviewSpec, 'resourceAttributes' | 'nonResourceAttributes'>,
): Attributes {
  const ra: ResourceAttributes | undefined = spec.resourceAttributes;
  if (ra !== undefined) {
    return {
      user,
      verb: ra.verb ?? '',
      resourceRequest: true,
      namespace: ra.namespace ?? '',
      apiGroup: ra.group ?? '',
      // An empty version means every version (upstream `matchAllVersionIfEmpty`).
      apiVersion: (ra.version ?? '') === '' ? '*' : (ra.version ?? ''),
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      name: ra.name ?? '',
    };
  }
  const nra = spec.nonResourceAttributes ?? {};
  return { user, verb: nra.verb ?? '', resourceRequest: false, path: nra.path ?? '' };
}

/** The user a SubjectAccessReview asks about (upstream `AuthorizationAttributesFrom`). */
export function userFromSpec(spec: SubjectAccessReviewSpec): UserInfo {
  const user: {
    username: string;
    groups: string[];
    uid?: string;
    extra?: Record<string, string[]>;
  } = {
    username: spec.user ?? '',
    groups: [...(spec.groups ?? [])],
  };
  if ((spec.uid ?? '') !== '') user.uid = spec.uid;
  if (spec.extra !== undefined) user.extra = spec.extra;
  return user;
}

/** The status of an authorizer's answer; `denied` only when true, empty texts left out. */
export function reviewStatus(r: AuthorizationResult): SubjectAccessReviewStatus {
  const status: SubjectAccessReviewStatus = { allowed: r.decision === 'Allow' };
  if (r.decision === 'Deny') status.denied = true;
  if (r.reason !== '') status.reason = r.reason;
  if (r.evaluationError !== undefined && r.evaluationError !== '') {
    status.evaluationError = r.evaluationError;
  }
  return status;
}

export function subjectAccessReview(
  review: SubjectAccessReview,
  authorizer: Authorizer,
): SubjectAccessReview {
  throwInvalid(validateSubjectAccessReview(review));
  const r = authorizer.authorize(attributesFrom(userFromSpec(review.spec), review.spec));
  return { ...review, status: reviewStatus(r) };
}

/** `requestNamespace` is the namespace of the request's URL. */
export function localSubjectAccessReview(
  review: LocalSubjectAccessReview,
  requestNamespace: string,
  authorizer: Authorizer,
): LocalSubjectAccessReview {
  throwInvalid(validateLocalSubjectAccessReview(review));
  if (requestNamespace === '') {
    throw badRequest(`namespace is required on this type: ${requestNamespace}`);
  }
  if (requestNamespace !== (review.metadata?.namespace ?? '')) {
    throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${requestNamespace}`);
  }
  const r = authorizer.authorize(attributesFrom(userFromSpec(review.spec), review.spec));
  return { ...review, status: reviewStatus(r) };
}

export function selfSubjectAccessReview(
  review: SelfSubjectAccessReview,
  user: UserInfo,
  authorizer: Authorizer,
): SelfSubjectAccessReview {
  throwInvalid(validateSelfSubjectAccessReview(review));
  const r = authorizer.authorize(attributesFrom(user, review.spec));
  return { ...review, status: reviewStatus(r) };
}

/** The status of a SelfSubjectRulesReview (upstream's `getResourceRules`, `getNonResourceRules`). */
export function subjectRulesReviewStatus(
  user: UserInfo,
  namespace: string,
  resolver: RuleResolver,
): SubjectRulesReviewStatus {
  const rules = resolver.rulesFor(user, namespace);
  const resourceRules = rules.resourceRules.map((r): ResourceRule => {
    const out: ResourceRule = { verbs: r.verbs };
    if (r.apiGroups !== undefined && r.apiGroups.length > 0) out.apiGroups = r.apiGroups;
    if (r.resources !== undefined && r.resources.length > 0) out.resources = r.resources;
    if (r.resourceNames !== undefined && r.resourceNames.length > 0)
      out.resourceNames = r.resourceNames;
    return out;
  });
  const nonResourceRules = rules.nonResourceRules.map((r): NonResourceRule => {
    const out: NonResourceRule = { verbs: r.verbs };
    if (r.nonResourceURLs !== undefined && r.nonResourceURLs.length > 0) {
      out.nonResourceURLs = r.nonResourceURLs;
    }
    return out;
  });
  const status: SubjectRulesReviewStatus = {
    resourceRules,
    nonResourceRules,
    incomplete: rules.incomplete,
  };
  if (rules.evaluationError !== undefined && rules.evaluationError !== '') {
    status.evaluationError = rules.evaluationError;
  }
  return status;
}

/** Upstream answers with a new review: empty metadata and spec, and the status. */
export function selfSubjectRulesReview(
  review: SelfSubjectRulesReview,
  user: UserInfo,
  resolver: RuleResolver,
): SelfSubjectRulesReview {
  const namespace = review.spec.namespace ?? '';
  if (namespace === '') throw badRequest('no namespace on request');
  return {
    kind: 'SelfSubjectRulesReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: {},
    spec: {},
    status: subjectRulesReviewStatus(user, namespace, resolver),
  };
}
