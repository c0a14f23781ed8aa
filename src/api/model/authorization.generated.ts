/**
 * Types of the authorization API group.
 *
 * GENERATED from src/api/schema/builtin/components.generated.json by scripts/gen-api-types.ts: do
 * not edit. Regenerate the schemas and every src/api/model/*.generated.ts with
 *
 *     node --import tsx scripts/gen-builtin-schemas.ts
 *
 * or only the types (from the committed JSON and the celld schemas) with
 *
 *     node --import tsx scripts/gen-api-types.ts
 *
 * src/api/model/generated-fresh.test.ts fails when this file differs from the generator's output.
 *
 * Naming: each definition keeps its upstream short name (Pod, PodSpec, ObjectMeta). When two
 * share one, the core/v1 definition (else the apimachinery one) keeps it and the other is prefixed
 * with its group and version (events.k8s.io/v1 Event → EventsV1Event, discovery.k8s.io/v1
 * EndpointPort → DiscoveryV1EndpointPort); a name TypeScript already has is prefixed too
 * (apiextensions JSON → ApiextensionsV1JSON).
 *
 * Types: a property is optional unless upstream requires it; null is admitted only where
 * ObjectMeta receives it. int32/int64 → number: int64 values beyond 2^53 arrive as bigint
 * (docs/adr/0012-int64-numbers.md), and only ControllerRevision.revision, the one the code does
 * bigint arithmetic on, is typed number | bigint. Quantity, Time and MicroTime → string;
 * IntOrString → number | string; opaque JSON (RawExtension, FieldsV1) → { [key: string]: unknown }.
 * A kind's apiVersion and kind are its literals, so a KubeObject needs isKind/asKind
 * (src/api/model/index.ts) to become one.
 *
 * @module
 */

import type {
  FieldSelectorRequirement,
  LabelSelectorRequirement,
  ObjectMeta,
} from './meta.generated.js';

/**
 * FieldSelectorAttributes indicates a field limited access. Webhook authors are encouraged to *
 * ensure rawSelector and requirements are not both set * consider the requirements field if set *
 * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880
 * (i.e. getting different systems to agree on how exactly to parse a query is not something we
 * want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For
 * the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and
 * requirements are empty, the request is not limited. * If rawSelector is present and requirements
 * are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector
 * is empty and requirements are present, the requirements should be honored * If rawSelector is
 * present and requirements are present, the request is invalid.
 */
export type FieldSelectorAttributes = {
  /**
   * rawSelector is the serialization of a field selector that would be included in a query
   * parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's
   * *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.
   */
  rawSelector?: string;
  /**
   * requirements is the parsed interpretation of a field selector. All requirements must be met for
   * a resource instance to match the selector. Webhook implementations should handle requirements,
   * but how to handle them is up to the webhook. Since requirements can only limit the request, it
   * is safe to authorize as unlimited request if the requirements are not understood.
   */
  requirements?: FieldSelectorRequirement[];
};

/**
 * LabelSelectorAttributes indicates a label limited access. Webhook authors are encouraged to *
 * ensure rawSelector and requirements are not both set * consider the requirements field if set *
 * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880
 * (i.e. getting different systems to agree on how exactly to parse a query is not something we
 * want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For
 * the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and
 * requirements are empty, the request is not limited. * If rawSelector is present and requirements
 * are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector
 * is empty and requirements are present, the requirements should be honored * If rawSelector is
 * present and requirements are present, the request is invalid.
 */
export type LabelSelectorAttributes = {
  /**
   * rawSelector is the serialization of a field selector that would be included in a query
   * parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's
   * *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.
   */
  rawSelector?: string;
  /**
   * requirements is the parsed interpretation of a label selector. All requirements must be met for
   * a resource instance to match the selector. Webhook implementations should handle requirements,
   * but how to handle them is up to the webhook. Since requirements can only limit the request, it
   * is safe to authorize as unlimited request if the requirements are not understood.
   */
  requirements?: LabelSelectorRequirement[];
};

/**
 * LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given
 * namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped
 * policy that includes permissions checking.
 */
export type LocalSubjectAccessReview = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'authorization.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'LocalSubjectAccessReview';
  metadata?: ObjectMeta;
  spec: SubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
};

/**
 * NonResourceAttributes includes the authorization attributes available for non-resource requests
 * to the Authorizer interface
 */
export type NonResourceAttributes = {
  /** Path is the URL path of the request */
  path?: string;
  /** Verb is the standard HTTP verb */
  verb?: string;
};

/** NonResourceRule holds information that describes a rule for the non-resource */
export type NonResourceRule = {
  /**
   * NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed,
   * but only as the full, final step in the path.  "*" means all.
   */
  nonResourceURLs?: string[];
  /**
   * Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head,
   * options.  "*" means all.
   */
  verbs: string[];
};

/**
 * ResourceAttributes includes the authorization attributes available for resource requests to the
 * Authorizer interface
 */
export type ResourceAttributes = {
  fieldSelector?: FieldSelectorAttributes;
  /** Group is the API Group of the Resource.  "*" means all. */
  group?: string;
  labelSelector?: LabelSelectorAttributes;
  /**
   * Name is the name of the resource being requested for a "get" or deleted for a "delete". ""
   * (empty) means all.
   */
  name?: string;
  /**
   * Namespace is the namespace of the action being requested.  Currently, there is no distinction
   * between no namespace and all namespaces "" (empty) is defaulted for LocalSubjectAccessReviews
   * "" (empty) is empty for cluster-scoped resources "" (empty) means "all" for namespace scoped
   * resources from a SubjectAccessReview or SelfSubjectAccessReview
   */
  namespace?: string;
  /** Resource is one of the existing resource types.  "*" means all. */
  resource?: string;
  /** Subresource is one of the existing resource types.  "" means none. */
  subresource?: string;
  /**
   * Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.
   * "*" means all.
   */
  verb?: string;
  /** Version is the API Version of the Resource.  "*" means all. */
  version?: string;
};

/**
 * ResourceRule is the list of actions the subject is allowed to perform on resources. The list
 * ordering isn't significant, may contain duplicates, and possibly be incomplete.
 */
export type ResourceRule = {
  /**
   * APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are
   * specified, any action requested against one of the enumerated resources in any API group will
   * be allowed.  "*" means all.
   */
  apiGroups?: string[];
  /**
   * ResourceNames is an optional white list of names that the rule applies to.  An empty set means
   * that everything is allowed.  "*" means all.
   */
  resourceNames?: string[];
  /**
   * Resources is a list of resources this rule applies to.  "*" means all in the specified
   * apiGroups.  "*_/foo" represents the subresource 'foo' for all resources in the specified
   * apiGroups.
   */
  resources?: string[];
  /**
   * Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update,
   * delete, proxy.  "*" means all.
   */
  verbs: string[];
};

/**
 * SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in
 * a spec.namespace means "in all namespaces".  Self is a special case, because users should always
 * be able to check whether they can perform an action
 */
export type SelfSubjectAccessReview = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'authorization.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'SelfSubjectAccessReview';
  metadata?: ObjectMeta;
  spec: SelfSubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
};

/**
 * SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of
 * ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set
 */
export type SelfSubjectAccessReviewSpec = {
  nonResourceAttributes?: NonResourceAttributes;
  resourceAttributes?: ResourceAttributes;
};

/**
 * SelfSubjectRulesReview enumerates the set of actions the current user can perform within a
 * namespace. The returned list of actions may be incomplete depending on the server's authorization
 * mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by
 * UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should
 * NOT Be used by external systems to drive authorization decisions as this raises confused deputy,
 * cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview
 * are the correct way to defer authorization decisions to the API server.
 */
export type SelfSubjectRulesReview = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'authorization.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'SelfSubjectRulesReview';
  metadata?: ObjectMeta;
  spec: SelfSubjectRulesReviewSpec;
  status?: SubjectRulesReviewStatus;
};

/** SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview. */
export type SelfSubjectRulesReviewSpec = {
  /** Namespace to evaluate rules for. Required. */
  namespace?: string;
};

/** SubjectAccessReview checks whether or not a user or group can perform an action. */
export type SubjectAccessReview = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'authorization.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'SubjectAccessReview';
  metadata?: ObjectMeta;
  spec: SubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
};

/**
 * SubjectAccessReviewSpec is a description of the access request.  Exactly one of
 * ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set
 */
export type SubjectAccessReviewSpec = {
  /**
   * Extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is
   * input to the authorizer it needs a reflection here.
   */
  extra?: Record<string, string[]>;
  /** Groups is the groups you're testing for. */
  groups?: string[];
  nonResourceAttributes?: NonResourceAttributes;
  resourceAttributes?: ResourceAttributes;
  /** UID information about the requesting user. */
  uid?: string;
  /**
   * User is the user you're testing for. If you specify "User" but not "Groups", then is it
   * interpreted as "What if User were not a member of any groups
   */
  user?: string;
};

/** SubjectAccessReviewStatus */
export type SubjectAccessReviewStatus = {
  /** Allowed is required. True if the action would be allowed, false otherwise. */
  allowed: boolean;
  /**
   * Denied is optional. True if the action would be denied, otherwise false. If both allowed is
   * false and denied is false, then the authorizer has no opinion on whether to authorize the
   * action. Denied may not be true if Allowed is true.
   */
  denied?: boolean;
  /**
   * EvaluationError is an indication that some error occurred during the authorization check. It is
   * entirely possible to get an error and be able to continue determine authorization status in
   * spite of it. For instance, RBAC can be missing a role, but enough roles are still present and
   * bound to reason about the request.
   */
  evaluationError?: string;
  /** Reason is optional.  It indicates why a request was allowed or denied. */
  reason?: string;
};

/**
 * SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete
 * depending on the set of authorizers the server is configured with and any errors experienced
 * during evaluation. Because authorization rules are additive, if a rule appears in a list it's
 * safe to assume the subject has that permission, even if that list is incomplete.
 */
export type SubjectRulesReviewStatus = {
  /**
   * EvaluationError can appear in combination with Rules. It indicates an error occurred during
   * rule evaluation, such as an authorizer that doesn't support rule evaluation, and that
   * ResourceRules and/or NonResourceRules may be incomplete.
   */
  evaluationError?: string;
  /**
   * Incomplete is true when the rules returned by this call are incomplete. This is most commonly
   * encountered when an authorizer, such as an external authorizer, doesn't support rules
   * evaluation.
   */
  incomplete: boolean;
  /**
   * NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The
   * list ordering isn't significant, may contain duplicates, and possibly be incomplete.
   */
  nonResourceRules: NonResourceRule[];
  /**
   * ResourceRules is the list of actions the subject is allowed to perform on resources. The list
   * ordering isn't significant, may contain duplicates, and possibly be incomplete.
   */
  resourceRules: ResourceRule[];
};
