/**
 * The create-only, never-stored kinds of `authentication.k8s.io/v1` (TokenReview,
 * SelfSubjectReview) and `authorization.k8s.io/v1` (SubjectAccessReview,
 * LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview): a POST answers
 * with the object and its `status` filled in by the authenticators or authorizers
 * (`apiserver/handlers/reviews.ts`); every other verb is 405, as upstream serves only `create`.
 *
 * @module
 */
import { fieldErrors, path } from '../field-error.js';
import type { ResourceDefinition } from '../resource.js';

export const AUTHENTICATION_GROUP = 'authentication.k8s.io';
export const AUTHORIZATION_GROUP = 'authorization.k8s.io';
const CREATE_ONLY: readonly string[] = ['create'];

function review(
  group: string,
  kind: string,
  plural: string,
  namespaced = false,
): ResourceDefinition {
  return {
    group,
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural,
    singular: plural.replace(/s$/, ''),
    namespaced,
    nameValidation: 'dns-subdomain',
    generation: 'none',
    statusSubresource: false,
    verbs: CREATE_ONLY,
    strategy: {
      // A second guard: a review is answered, never stored, whatever route reaches the store.
      validate() {
        return [fieldErrors.forbidden(path('metadata'), `${plural} are answered, not stored`)];
      },
    },
  };
}

export const tokenReviewResource = review(AUTHENTICATION_GROUP, 'TokenReview', 'tokenreviews');
export const selfSubjectReviewResource = review(
  AUTHENTICATION_GROUP,
  'SelfSubjectReview',
  'selfsubjectreviews',
);
export const subjectAccessReviewResource = review(
  AUTHORIZATION_GROUP,
  'SubjectAccessReview',
  'subjectaccessreviews',
);
export const localSubjectAccessReviewResource = review(
  AUTHORIZATION_GROUP,
  'LocalSubjectAccessReview',
  'localsubjectaccessreviews',
  true,
);
export const selfSubjectAccessReviewResource = review(
  AUTHORIZATION_GROUP,
  'SelfSubjectAccessReview',
  'selfsubjectaccessreviews',
);
export const selfSubjectRulesReviewResource = review(
  AUTHORIZATION_GROUP,
  'SelfSubjectRulesReview',
  'selfsubjectrulesreviews',
);

/** Every review resource, for the registry. */
export const ACCESS_REVIEW_RESOURCES: readonly ResourceDefinition[] = [
  tokenReviewResource,
  selfSubjectReviewResource,
  subjectAccessReviewResource,
  localSubjectAccessReviewResource,
  selfSubjectAccessReviewResource,
  selfSubjectRulesReviewResource,
];

/** Whether `def` is one of the review resources (answered by the reviews handler). */
export function isAccessReview(def: Pick<ResourceDefinition, 'group' | 'verbs'>): boolean {
  return (
    (def.group === AUTHENTICATION_GROUP || def.group === AUTHORIZATION_GROUP) &&
    def.verbs === CREATE_ONLY
  );
}
