/**
 * Types of the admissionregistration API group.
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

import type { LabelSelector, ListMeta, ObjectMeta } from './meta.generated.js';

/**
 * MatchCondition represents a condition which must by fulfilled for a request to be sent to a
 * webhook.
 */
export type MatchCondition = {
  /**
   * Expression represents the expression which will be evaluated by CEL. Must evaluate to bool. CEL
   * expressions have access to the contents of the AdmissionRequest and Authorizer, organized into
   * CEL variables:  'object' - The object from the incoming request. The value is null for DELETE
   * requests. 'oldObject' - The existing object. The value is null for CREATE requests. 'request' -
   * Attributes of the admission request(/pkg/apis/admission/types.go#AdmissionRequest).
   * 'authorizer' - A CEL Authorizer. May be used to perform authorization checks for the principal
   * (user or service account) of the request.   See
   * https://pkg.go.dev/k8s.io/apiserver/pkg/cel/library#Authz 'authorizer.requestResource' - A CEL
   * ResourceCheck constructed from the 'authorizer' and configured with the   request resource.
   * Documentation on CEL: https://kubernetes.io/docs/reference/using-api/cel/  Required.
   */
  expression: string;
  /**
   * Name is an identifier for this match condition, used for strategic merging of MatchConditions,
   * as well as providing an identifier for logging purposes. A good name should be descriptive of
   * the associated expression. Name must be a qualified name consisting of alphanumeric characters,
   * '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or
   * 'my.name',  or '123-abc', regex used for validation is
   * '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g.
   * 'example.com/MyName')  Required.
   */
  name: string;
};

/**
 * MutatingWebhook describes an admission webhook and the resources and operations it applies to.
 */
export type MutatingWebhook = {
  /**
   * AdmissionReviewVersions is an ordered list of preferred `AdmissionReview` versions the Webhook
   * expects. API server will try to use first version in the list which it supports. If none of the
   * versions specified in this list supported by API server, validation will fail for this object.
   * If a persisted webhook configuration specifies allowed versions and does not include any
   * versions known to the API Server, calls to the webhook will fail and be subject to the failure
   * policy.
   */
  admissionReviewVersions: string[];
  clientConfig: AdmissionregistrationV1WebhookClientConfig;
  /**
   * FailurePolicy defines how unrecognized errors from the admission endpoint are handled - allowed
   * values are Ignore or Fail. Defaults to Fail.
   */
  failurePolicy?: string;
  /**
   * MatchConditions is a list of conditions that must be met for a request to be sent to this
   * webhook. Match conditions filter requests that have already been matched by the rules,
   * namespaceSelector, and objectSelector. An empty list of matchConditions matches all requests.
   * There are a maximum of 64 match conditions allowed.  The exact matching logic is (in order):
   * 1. If ANY matchCondition evaluates to FALSE, the webhook is skipped.   2. If ALL
   * matchConditions evaluate to TRUE, the webhook is called.   3. If any matchCondition evaluates
   * to an error (but none are FALSE):      - If failurePolicy=Fail, reject the request      - If
   * failurePolicy=Ignore, the error is ignored and the webhook is skipped
   */
  matchConditions?: MatchCondition[];
  /**
   * matchPolicy defines how the "rules" list is used to match incoming requests. Allowed values are
   * "Exact" or "Equivalent".  - Exact: match a request only if it exactly matches a specified rule.
   * For example, if deployments can be modified via apps/v1, apps/v1beta1, and extensions/v1beta1,
   * but "rules" only included `apiGroups:["apps"], apiVersions:["v1"], resources: ["deployments"]`,
   * a request to apps/v1beta1 or extensions/v1beta1 would not be sent to the webhook.  -
   * Equivalent: match a request if modifies a resource listed in rules, even via another API group
   * or version. For example, if deployments can be modified via apps/v1, apps/v1beta1, and
   * extensions/v1beta1, and "rules" only included `apiGroups:["apps"], apiVersions:["v1"],
   * resources: ["deployments"]`, a request to apps/v1beta1 or extensions/v1beta1 would be converted
   * to apps/v1 and sent to the webhook.  Defaults to "Equivalent"
   */
  matchPolicy?: string;
  /**
   * The name of the admission webhook. Name should be fully qualified, e.g.,
   * imagepolicy.kubernetes.io, where "imagepolicy" is the name of the webhook, and kubernetes.io is
   * the name of the organization. Required.
   */
  name: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /**
   * reinvocationPolicy indicates whether this webhook should be called multiple times as part of a
   * single admission evaluation. Allowed values are "Never" and "IfNeeded".  Never: the webhook
   * will not be called more than once in a single admission evaluation.  IfNeeded: the webhook will
   * be called at least one additional time as part of the admission evaluation if the object being
   * admitted is modified by other admission plugins after the initial webhook call. Webhooks that
   * specify this option *must* be idempotent, able to process objects they previously admitted.
   * Note: * the number of additional invocations is not guaranteed to be exactly one. * if
   * additional invocations result in further modifications to the object, webhooks are not
   * guaranteed to be invoked again. * webhooks that use this option may be reordered to minimize
   * the number of additional invocations. * to validate an object after all mutations are
   * guaranteed complete, use a validating admission webhook instead.  Defaults to "Never".
   */
  reinvocationPolicy?: string;
  /**
   * Rules describes what operations on what resources/subresources the webhook cares about. The
   * webhook cares about an operation if it matches _any_ Rule. However, in order to prevent
   * ValidatingAdmissionWebhooks and MutatingAdmissionWebhooks from putting the cluster in a state
   * which cannot be recovered from without completely disabling the plugin,
   * ValidatingAdmissionWebhooks and MutatingAdmissionWebhooks are never called on admission
   * requests for ValidatingWebhookConfiguration and MutatingWebhookConfiguration objects.
   */
  rules?: RuleWithOperations[];
  /**
   * SideEffects states whether this webhook has side effects. Acceptable values are: None,
   * NoneOnDryRun (webhooks created via v1beta1 may also specify Some or Unknown). Webhooks with
   * side effects MUST implement a reconciliation system, since a request may be rejected by a
   * future step in the admission chain and the side effects therefore need to be undone. Requests
   * with the dryRun attribute will be auto-rejected if they match a webhook with sideEffects ==
   * Unknown or Some.
   */
  sideEffects: string;
  /**
   * TimeoutSeconds specifies the timeout for this webhook. After the timeout passes, the webhook
   * call will be ignored or the API call will fail based on the failure policy. The timeout value
   * must be between 1 and 30 seconds. Default to 10 seconds.
   */
  timeoutSeconds?: number;
};

/**
 * MutatingWebhookConfiguration describes the configuration of and admission webhook that accept or
 * reject and may change the object.
 */
export type MutatingWebhookConfiguration = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'admissionregistration.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'MutatingWebhookConfiguration';
  metadata?: ObjectMeta;
  /** Webhooks is a list of webhooks and the affected resources and operations. */
  webhooks?: MutatingWebhook[];
};

/** MutatingWebhookConfigurationList is a list of MutatingWebhookConfiguration. */
export type MutatingWebhookConfigurationList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'admissionregistration.k8s.io/v1';
  /** List of MutatingWebhookConfiguration. */
  items: MutatingWebhookConfiguration[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'MutatingWebhookConfigurationList';
  metadata?: ListMeta;
};

/**
 * RuleWithOperations is a tuple of Operations and Resources. It is recommended to make sure that
 * all the tuple expansions are valid.
 */
export type RuleWithOperations = {
  /**
   * APIGroups is the API groups the resources belong to. '*' is all groups. If '*' is present, the
   * length of the slice must be one. Required.
   */
  apiGroups?: string[];
  /**
   * APIVersions is the API versions the resources belong to. '*' is all versions. If '*' is
   * present, the length of the slice must be one. Required.
   */
  apiVersions?: string[];
  /**
   * Operations is the operations the admission hook cares about - CREATE, UPDATE, DELETE, CONNECT
   * or * for all of those operations and any future admission operations that are added. If '*' is
   * present, the length of the slice must be one. Required.
   */
  operations?: string[];
  /**
   * Resources is a list of resources this rule applies to.  For example: 'pods' means pods.
   * 'pods/log' means the log subresource of pods. '*' means all resources, but not subresources.
   * 'pods/_*' means all subresources of pods. '*_/scale' means all scale subresources. '*_/_*'
   * means all resources and their subresources.  If wildcard is present, the validation rule will
   * ensure resources do not overlap with each other.  Depending on the enclosing object,
   * subresources might not be allowed. Required.
   */
  resources?: string[];
  /**
   * scope specifies the scope of this rule. Valid values are "Cluster", "Namespaced", and "*"
   * "Cluster" means that only cluster-scoped resources will match this rule. Namespace API objects
   * are cluster-scoped. "Namespaced" means that only namespaced resources will match this rule. "*"
   * means that there are no scope restrictions. Subresources match the scope of their parent
   * resource. Default is "*".
   */
  scope?: string;
};

/** ServiceReference holds a reference to Service.legacy.k8s.io */
export type AdmissionregistrationV1ServiceReference = {
  /** `name` is the name of the service. Required */
  name: string;
  /** `namespace` is the namespace of the service. Required */
  namespace: string;
  /** `path` is an optional URL path which will be sent in any request to this service. */
  path?: string;
  /**
   * If specified, the port on the service that hosting webhook. Default to 443 for backward
   * compatibility. `port` should be a valid port number (1-65535, inclusive).
   */
  port?: number;
};

/**
 * ValidatingWebhook describes an admission webhook and the resources and operations it applies to.
 */
export type ValidatingWebhook = {
  /**
   * AdmissionReviewVersions is an ordered list of preferred `AdmissionReview` versions the Webhook
   * expects. API server will try to use first version in the list which it supports. If none of the
   * versions specified in this list supported by API server, validation will fail for this object.
   * If a persisted webhook configuration specifies allowed versions and does not include any
   * versions known to the API Server, calls to the webhook will fail and be subject to the failure
   * policy.
   */
  admissionReviewVersions: string[];
  clientConfig: AdmissionregistrationV1WebhookClientConfig;
  /**
   * FailurePolicy defines how unrecognized errors from the admission endpoint are handled - allowed
   * values are Ignore or Fail. Defaults to Fail.
   */
  failurePolicy?: string;
  /**
   * MatchConditions is a list of conditions that must be met for a request to be sent to this
   * webhook. Match conditions filter requests that have already been matched by the rules,
   * namespaceSelector, and objectSelector. An empty list of matchConditions matches all requests.
   * There are a maximum of 64 match conditions allowed.  The exact matching logic is (in order):
   * 1. If ANY matchCondition evaluates to FALSE, the webhook is skipped.   2. If ALL
   * matchConditions evaluate to TRUE, the webhook is called.   3. If any matchCondition evaluates
   * to an error (but none are FALSE):      - If failurePolicy=Fail, reject the request      - If
   * failurePolicy=Ignore, the error is ignored and the webhook is skipped
   */
  matchConditions?: MatchCondition[];
  /**
   * matchPolicy defines how the "rules" list is used to match incoming requests. Allowed values are
   * "Exact" or "Equivalent".  - Exact: match a request only if it exactly matches a specified rule.
   * For example, if deployments can be modified via apps/v1, apps/v1beta1, and extensions/v1beta1,
   * but "rules" only included `apiGroups:["apps"], apiVersions:["v1"], resources: ["deployments"]`,
   * a request to apps/v1beta1 or extensions/v1beta1 would not be sent to the webhook.  -
   * Equivalent: match a request if modifies a resource listed in rules, even via another API group
   * or version. For example, if deployments can be modified via apps/v1, apps/v1beta1, and
   * extensions/v1beta1, and "rules" only included `apiGroups:["apps"], apiVersions:["v1"],
   * resources: ["deployments"]`, a request to apps/v1beta1 or extensions/v1beta1 would be converted
   * to apps/v1 and sent to the webhook.  Defaults to "Equivalent"
   */
  matchPolicy?: string;
  /**
   * The name of the admission webhook. Name should be fully qualified, e.g.,
   * imagepolicy.kubernetes.io, where "imagepolicy" is the name of the webhook, and kubernetes.io is
   * the name of the organization. Required.
   */
  name: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /**
   * Rules describes what operations on what resources/subresources the webhook cares about. The
   * webhook cares about an operation if it matches _any_ Rule. However, in order to prevent
   * ValidatingAdmissionWebhooks and MutatingAdmissionWebhooks from putting the cluster in a state
   * which cannot be recovered from without completely disabling the plugin,
   * ValidatingAdmissionWebhooks and MutatingAdmissionWebhooks are never called on admission
   * requests for ValidatingWebhookConfiguration and MutatingWebhookConfiguration objects.
   */
  rules?: RuleWithOperations[];
  /**
   * SideEffects states whether this webhook has side effects. Acceptable values are: None,
   * NoneOnDryRun (webhooks created via v1beta1 may also specify Some or Unknown). Webhooks with
   * side effects MUST implement a reconciliation system, since a request may be rejected by a
   * future step in the admission chain and the side effects therefore need to be undone. Requests
   * with the dryRun attribute will be auto-rejected if they match a webhook with sideEffects ==
   * Unknown or Some.
   */
  sideEffects: string;
  /**
   * TimeoutSeconds specifies the timeout for this webhook. After the timeout passes, the webhook
   * call will be ignored or the API call will fail based on the failure policy. The timeout value
   * must be between 1 and 30 seconds. Default to 10 seconds.
   */
  timeoutSeconds?: number;
};

/**
 * ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept
 * or reject and object without changing it.
 */
export type ValidatingWebhookConfiguration = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'admissionregistration.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'ValidatingWebhookConfiguration';
  metadata?: ObjectMeta;
  /** Webhooks is a list of webhooks and the affected resources and operations. */
  webhooks?: ValidatingWebhook[];
};

/** ValidatingWebhookConfigurationList is a list of ValidatingWebhookConfiguration. */
export type ValidatingWebhookConfigurationList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'admissionregistration.k8s.io/v1';
  /** List of ValidatingWebhookConfiguration. */
  items: ValidatingWebhookConfiguration[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'ValidatingWebhookConfigurationList';
  metadata?: ListMeta;
};

/** WebhookClientConfig contains the information to make a TLS connection with the webhook */
export type AdmissionregistrationV1WebhookClientConfig = {
  /**
   * `caBundle` is a PEM encoded CA bundle which will be used to validate the webhook's server
   * certificate. If unspecified, system trust roots on the apiserver are used.
   */
  caBundle?: string;
  service?: AdmissionregistrationV1ServiceReference;
  /**
   * `url` gives the location of the webhook, in standard URL form (`scheme://host:port/path`).
   * Exactly one of `url` or `service` must be specified.  The `host` should not refer to a service
   * running in the cluster; use the `service` field instead. The host might be resolved via
   * external DNS in some apiservers (e.g., `kube-apiserver` cannot resolve in-cluster DNS as that
   * would be a layering violation). `host` may also be an IP address.  Please note that using
   * `localhost` or `127.0.0.1` as a `host` is risky unless you take great care to run this webhook
   * on all hosts which run an apiserver which might need to make calls to this webhook. Such
   * installs are likely to be non-portable, i.e., not easy to turn up in a new cluster.  The scheme
   * must be "https"; the URL must begin with "https://".  A path is optional, and if present may be
   * any string permissible in a URL. You may use the path to pass an arbitrary string to the
   * webhook, for example, a cluster identifier.  Attempting to use a user or basic auth e.g.
   * "user:password@" is not allowed. Fragments ("#...") and query parameters ("?...") are not
   * allowed, either.
   */
  url?: string;
};
