/**
 * Types of apimachinery: meta/v1 (ObjectMeta, Status…), Quantity, IntOrString, RawExtension.
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

/**
 * Quantity is a fixed-point representation of a number. It provides convenient
 * marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.
 *
 * The serialization format is:
 *
 * ``` <quantity>        ::= <signedNumber><suffix>
 *
 * 	(Note that <suffix> may be empty, from the "" case in <decimalSI>.)
 *
 * <digit>           ::= 0 | 1 | ... | 9 <digits>          ::= <digit> | <digit><digits> <number>
 * ::= <digits> | <digits>.<digits> | <digits>. | .<digits> <sign>            ::= "+" | "-"
 * <signedNumber>    ::= <number> | <sign><number> <suffix>          ::= <binarySI> |
 * <decimalExponent> | <decimalSI> <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
 *
 * 	(International System of units; See: http://physics.nist.gov/cuu/Units/binary.html)
 *
 * <decimalSI>       ::= m | "" | k | M | G | T | P | E
 *
 * 	(Note that 1024 = 1Ki but 1000 = 1k; I didn't choose the capitalization.)
 *
 * <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber> ```
 */
export type Quantity = string;

/** Condition contains details for one aspect of the current state of this API Resource. */
export type Condition = {
  /**
   * lastTransitionTime is the last time the condition transitioned from one status to another. This
   * should be when the underlying condition changed.  If that is not known, then using the time
   * when the API field changed is acceptable.
   */
  lastTransitionTime: Time;
  /**
   * message is a human readable message indicating details about the transition. This may be an
   * empty string.
   */
  message: string;
  /**
   * observedGeneration represents the .metadata.generation that the condition was set based upon.
   * For instance, if .metadata.generation is currently 12, but the
   * .status.conditions[x].observedGeneration is 9, the condition is out of date with respect to the
   * current state of the instance.
   */
  observedGeneration?: number;
  /**
   * reason contains a programmatic identifier indicating the reason for the condition's last
   * transition. Producers of specific condition types may define expected values and meanings for
   * this field, and whether the values are considered a guaranteed API. The value should be a
   * CamelCase string. This field may not be empty.
   */
  reason: string;
  /** status of the condition, one of True, False, Unknown. */
  status: string;
  /** type of condition in CamelCase or in foo.example.com/CamelCase. */
  type: string;
};

/** DeleteOptions may be provided when deleting an API object. */
export type DeleteOptions = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?:
    | 'v1'
    | 'admissionregistration.k8s.io/v1'
    | 'apiextensions.k8s.io/v1'
    | 'apiregistration.k8s.io/v1'
    | 'apps/v1'
    | 'authentication.k8s.io/v1'
    | 'authorization.k8s.io/v1'
    | 'autoscaling/v1'
    | 'autoscaling/v2'
    | 'batch/v1'
    | 'certificates.k8s.io/v1'
    | 'coordination.k8s.io/v1'
    | 'discovery.k8s.io/v1'
    | 'events.k8s.io/v1'
    | 'flowcontrol.apiserver.k8s.io/v1'
    | 'networking.k8s.io/v1'
    | 'node.k8s.io/v1'
    | 'policy/v1'
    | 'rbac.authorization.k8s.io/v1'
    | 'scheduling.k8s.io/v1'
    | 'storage.k8s.io/v1';
  /**
   * When present, indicates that modifications should not be persisted. An invalid or unrecognized
   * dryRun directive will result in an error response and no further processing of the request.
   * Valid values are: - All: all dry run stages will be processed
   */
  dryRun?: string[];
  /**
   * The duration in seconds before the object should be deleted. Value must be non-negative
   * integer. The value zero indicates delete immediately. If this value is nil, the default grace
   * period for the specified type will be used. Defaults to a per object value if not specified.
   * zero means delete immediately.
   */
  gracePeriodSeconds?: number;
  /**
   * if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion
   * flow fails with a corrupt object error. A resource is considered corrupt if it can not be
   * retrieved from the underlying storage successfully because of a) its data can not be
   * transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe
   * deletion ignores finalizer constraints, skips precondition checks, and removes the object from
   * the storage. WARNING: This may potentially break the cluster if the workload associated with
   * the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know
   * what you are doing. The default value is false, and the user must opt in to enable it
   */
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'DeleteOptions';
  /**
   * Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the
   * dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed
   * from the object's finalizers list. Either this field or PropagationPolicy may be set, but not
   * both.
   */
  orphanDependents?: boolean;
  preconditions?: Preconditions;
  /**
   * Whether and how garbage collection will be performed. Either this field or OrphanDependents may
   * be set, but not both. The default policy is decided by the existing finalizer set in the
   * metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' -
   * orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in
   * the background; 'Foreground' - a cascading policy that deletes all dependents in the
   * foreground.
   */
  propagationPolicy?: string;
};

/**
 * FieldSelectorRequirement is a selector that contains values, a key, and an operator that relates
 * the key and values.
 */
export type FieldSelectorRequirement = {
  /** key is the field selector key that the requirement applies to. */
  key: string;
  /**
   * operator represents a key's relationship to a set of values. Valid operators are In, NotIn,
   * Exists, DoesNotExist. The list of operators may grow in the future.
   */
  operator: string;
  /**
   * values is an array of string values. If the operator is In or NotIn, the values array must be
   * non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.
   */
  values?: string[];
};

/**
 * FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.
 *
 * Each key is either a '.' representing the field itself, and will always map to an empty set, or a
 * string representing a sub-field or item. The string will follow one of these four formats:
 * 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where
 * <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position
 * of a item in a list 'k:<keys>', where <keys> is a map of  a list item's key fields to their
 * unique values If a key maps to an empty Fields value, the field that key represents is part of
 * the set.
 *
 * The exact format is defined in sigs.k8s.io/structured-merge-diff
 */
export type FieldsV1 = { [key: string]: unknown };

/**
 * A label selector is a label query over a set of resources. The result of matchLabels and
 * matchExpressions are ANDed. An empty label selector matches all objects. A null label selector
 * matches no objects.
 */
export type LabelSelector = {
  /** matchExpressions is a list of label selector requirements. The requirements are ANDed. */
  matchExpressions?: LabelSelectorRequirement[];
  /**
   * matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is
   * equivalent to an element of matchExpressions, whose key field is "key", the operator is "In",
   * and the values array contains only "value". The requirements are ANDed.
   */
  matchLabels?: Record<string, string>;
};

/**
 * A label selector requirement is a selector that contains values, a key, and an operator that
 * relates the key and values.
 */
export type LabelSelectorRequirement = {
  /** key is the label key that the selector applies to. */
  key: string;
  /**
   * operator represents a key's relationship to a set of values. Valid operators are In, NotIn,
   * Exists and DoesNotExist.
   */
  operator: string;
  /**
   * values is an array of string values. If the operator is In or NotIn, the values array must be
   * non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This
   * array is replaced during a strategic merge patch.
   */
  values?: string[];
};

/**
 * ListMeta describes metadata that synthetic resources must have, including lists and various
 * status objects. A resource may have only one of {ObjectMeta, ListMeta}.
 */
export type ListMeta = {
  /**
   * continue may be set if the user set a limit on the number of items returned, and indicates that
   * the server has more data available. The value is opaque and may be used to issue another
   * request to the endpoint that served this list to retrieve the next set of available objects.
   * Continuing a consistent list may not be possible if the server configuration has changed or
   * more than a few minutes have passed. The resourceVersion field returned when using this
   * continue value will be identical to the value in the first response, unless you have received
   * this token from an error message.
   */
  continue?: string;
  /**
   * remainingItemCount is the number of subsequent items in the list which are not included in this
   * list response. If the list request contained label or field selectors, then the number of
   * remaining items is unknown and the field will be left unset and omitted during serialization.
   * If the list is complete (either because it is not chunking or because this is the last chunk),
   * then there are no more remaining items and this field will be left unset and omitted during
   * serialization. Servers older than v1.15 do not set this field. The intended use of the
   * remainingItemCount is *estimating* the size of a collection. Clients should not rely on the
   * remainingItemCount to be set or to be exact.
   */
  remainingItemCount?: number;
  /**
   * String that identifies the server's internal version of this object that can be used by clients
   * to determine when objects have changed. Value must be treated as opaque by clients and passed
   * unmodified back to the server. Populated by the system. Read-only. More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency
   */
  resourceVersion?: string;
  /** Deprecated: selfLink is a legacy read-only field that is no longer populated by the system. */
  selfLink?: string;
};

/**
 * ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the
 * fieldset applies to.
 */
export type ManagedFieldsEntry = {
  /**
   * APIVersion defines the version of this resource that this field set applies to. The format is
   * "group/version" just like the top-level APIVersion field. It is necessary to track the version
   * of a field set because it cannot be automatically converted.
   */
  apiVersion?: string;
  /**
   * FieldsType is the discriminator for the different fields format and version. There is currently
   * only one possible value: "FieldsV1"
   */
  fieldsType?: string;
  /** FieldsV1 holds the first JSON version format as described in the "FieldsV1" type. */
  fieldsV1?: FieldsV1;
  /** Manager is an identifier of the workflow managing these fields. */
  manager?: string;
  /**
   * Operation is the type of operation which lead to this ManagedFieldsEntry being created. The
   * only valid values for this field are 'Apply' and 'Update'.
   */
  operation?: 'Apply' | 'Update';
  /**
   * Subresource is the name of the subresource used to update that object, or empty string if the
   * object was updated through the main resource. The value of this field is used to distinguish
   * between managers, even if they share the same name. For example, a status update will be
   * distinct from a regular update using the same manager name. Note that the APIVersion field is
   * not related to the Subresource field and it always corresponds to the version of the main
   * resource.
   */
  subresource?: string;
  /**
   * Time is the timestamp of when the ManagedFields entry was added. The timestamp will also be
   * updated if a field is added, the manager changes any of the owned fields value or removes a
   * field. The timestamp does not update when a field is removed from the entry because another
   * manager took it over.
   */
  time?: Time;
};

/** MicroTime is version of Time with microsecond level precision. */
export type MicroTime = string;

/**
 * ObjectMeta is metadata that all persisted resources must have, which includes all objects users
 * must create.
 */
export type ObjectMeta = {
  /**
   * Annotations is an unstructured key value map stored with a resource that may be set by external
   * tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved
   * when modifying objects. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations
   */
  annotations?: Record<string, string> | null;
  /**
   * CreationTimestamp is a timestamp representing the server time when this object was created. It
   * is not guaranteed to be set in happens-before order across separate operations. Clients may not
   * set this value. It is represented in RFC3339 form and is in UTC.  Populated by the system.
   * Read-only. Null for lists. More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
   */
  creationTimestamp?: Time | null;
  /**
   * Number of seconds allowed for this object to gracefully terminate before it will be removed
   * from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only.
   */
  deletionGracePeriodSeconds?: number | null;
  /**
   * DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field
   * is set by the server when a graceful deletion is requested by the user, and is not directly
   * settable by a client. The resource is expected to be deleted (no longer visible from resource
   * lists, and not reachable by name) after the time in this field, once the finalizers list is
   * empty. As long as the finalizers list contains items, deletion is blocked. Once the
   * deletionTimestamp is set, this value may not be unset or be set further into the future,
   * although it may be shortened or the resource may be deleted prior to this time. For example, a
   * user may request that a pod is deleted in 30 seconds. The Kubelet will react by sending a
   * graceful termination signal to the containers in the pod. After that 30 seconds, the Kubelet
   * will send a hard termination signal (SIGKILL) to the container and after cleanup, remove the
   * pod from the API. In the presence of network partitions, this object may still exist after this
   * timestamp, until an administrator or automated process can determine the resource is fully
   * terminated. If not set, graceful deletion of the object has not been requested.  Populated by
   * the system when a graceful deletion is requested. Read-only. More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
   */
  deletionTimestamp?: Time | null;
  /**
   * Must be empty before the object is deleted from the registry. Each entry is an identifier for
   * the responsible component that will remove the entry from the list. If the deletionTimestamp of
   * the object is non-nil, entries in this list can only be removed. Finalizers may be processed
   * and removed in any order.  Order is NOT enforced because it introduces significant risk of
   * stuck finalizers. finalizers is a shared field, any actor with permission can reorder it. If
   * the finalizer list is processed in order, then this can lead to a situation in which the
   * component responsible for the first finalizer in the list is waiting for a signal (field value,
   * external system, or other) produced by a component responsible for a finalizer later in the
   * list, resulting in a deadlock. Without enforced ordering finalizers are free to order amongst
   * themselves and are not vulnerable to ordering changes in the list.
   */
  finalizers?: string[] | null;
  /**
   * GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the
   * Name field has not been provided. If this field is used, the name returned to the client will
   * be different than the name passed. This value will also be combined with a unique suffix. The
   * provided value has the same validation rules as the Name field, and may be truncated by the
   * length of the suffix required to make the value unique on the server.  If this field is
   * specified and the generated name exists, the server will return a 409.  Applied only if Name is
   * not specified. More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#idempotency
   */
  generateName?: string;
  /**
   * A sequence number representing a specific generation of the desired state. Populated by the
   * system. Read-only.
   */
  generation?: number;
  /**
   * Map of string keys and values that can be used to organize and categorize (scope and select)
   * objects. May match selectors of replication controllers and services. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/labels
   */
  labels?: Record<string, string> | null;
  /**
   * ManagedFields maps workflow-id and version to the set of fields that are managed by that
   * workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set
   * or understand this field. A workflow can be the user's name, a controller's name, or the name
   * of a specific apply path like "ci-cd". The set of fields is always in the version that the
   * workflow used when modifying the object.
   */
  managedFields?: ManagedFieldsEntry[] | null;
  /**
   * Name must be unique within a namespace. Is required when creating resources, although some
   * resources may allow a client to request the generation of an appropriate name automatically.
   * Name is primarily intended for creation idempotence and configuration definition. Cannot be
   * updated. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names
   */
  name?: string;
  /**
   * Namespace defines the space within which each name must be unique. An empty namespace is
   * equivalent to the "default" namespace, but "default" is the canonical representation. Not all
   * objects are required to be scoped to a namespace - the value of this field for those objects
   * will be empty.  Must be a DNS_LABEL. Cannot be updated. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces
   */
  namespace?: string;
  /**
   * List of objects depended by this object. If ALL objects in the list have been deleted, this
   * object will be garbage collected. If this object is managed by a controller, then an entry in
   * this list will point to this controller, with the controller field set to true. There cannot be
   * more than one managing controller.
   */
  ownerReferences?: OwnerReference[] | null;
  /**
   * An opaque value that represents the internal version of this object that can be used by clients
   * to determine when objects have changed. May be used for optimistic concurrency, change
   * detection, and the watch operation on a resource or set of resources. Clients must treat these
   * values as opaque and passed unmodified back to the server. They may only be valid for a
   * particular resource or set of resources.  Populated by the system. Read-only. Value must be
   * treated as opaque by clients and . More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency
   */
  resourceVersion?: string;
  /** Deprecated: selfLink is a legacy read-only field that is no longer populated by the system. */
  selfLink?: string;
  /**
   * UID is the unique in time and space value for this object. It is typically generated by the
   * server on successful creation of a resource and is not allowed to change on PUT operations.
   * Populated by the system. Read-only. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids
   */
  uid?: string;
};

/**
 * OwnerReference contains enough information to let you identify an owning object. An owning object
 * must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace
 * field.
 */
export type OwnerReference = {
  /** API version of the referent. */
  apiVersion: string;
  /**
   * If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be
   * deleted from the key-value store until this reference is removed. See
   * https://kubernetes.io/docs/concepts/architecture/garbage-collection/#foreground-deletion for
   * how the garbage collector interacts with this field and enforces the foreground deletion.
   * Defaults to false. To set this field, a user needs "delete" permission of the owner, otherwise
   * 422 (Unprocessable Entity) will be returned.
   */
  blockOwnerDeletion?: boolean;
  /** If true, this reference points to the managing controller. */
  controller?: boolean;
  /**
   * Kind of the referent. More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind: string;
  /**
   * Name of the referent. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names
   */
  name: string;
  /**
   * UID of the referent. More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids
   */
  uid: string;
};

/** Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out. */
export type Preconditions = {
  /** Specifies the target ResourceVersion */
  resourceVersion?: string;
  /** Specifies the target UID. */
  uid?: string;
};

/** Status is a return value for calls that don't return other objects. */
export type Status = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'v1';
  /** Suggested HTTP return code for this status, 0 if not set. */
  code?: number;
  details?: StatusDetails;
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'Status';
  /** A human-readable description of the status of this operation. */
  message?: string;
  metadata?: ListMeta;
  /**
   * A machine-readable description of why this operation is in the "Failure" status. If this value
   * is empty there is no information available. A Reason clarifies an HTTP status code but does not
   * override it.
   */
  reason?: string;
  /**
   * Status of the operation. One of: "Success" or "Failure". More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status
   */
  status?: string;
};

/**
 * StatusCause provides more information about an api.Status failure, including cases when multiple
 * errors are encountered.
 */
export type StatusCause = {
  /**
   * The field of the resource that has caused this error, as named by its JSON serialization. May
   * include dot and postfix notation for nested attributes. Arrays are zero-indexed.  Fields may
   * appear more than once in an array of causes due to fields having multiple errors. Optional.
   * Examples:   "name" - the field "name" on the current resource   "items[0].name" - the field
   * "name" on the first array entry in "items"
   */
  field?: string;
  /**
   * A human-readable description of the cause of the error.  This field may be presented as-is to a
   * reader.
   */
  message?: string;
  /**
   * A machine-readable description of the cause of the error. If this value is empty there is no
   * information available.
   */
  reason?: string;
};

/**
 * StatusDetails is a set of additional properties that MAY be set by the server to provide
 * additional information about a response. The Reason field of a Status object defines what
 * attributes will be set. Clients must ignore fields that do not match the defined type of each
 * attribute, and should assume that any attribute may be empty, invalid, or under defined.
 */
export type StatusDetails = {
  /**
   * The Causes array includes more details associated with the StatusReason failure. Not all
   * StatusReasons may provide detailed causes.
   */
  causes?: StatusCause[];
  /** The group attribute of the resource associated with the status StatusReason. */
  group?: string;
  /**
   * The kind attribute of the resource associated with the status StatusReason. On some operations
   * may differ from the requested resource Kind. More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: string;
  /**
   * The name attribute of the resource associated with the status StatusReason (when there is a
   * single name which can be described).
   */
  name?: string;
  /**
   * If specified, the time in seconds before the operation should be retried. Some errors may
   * indicate the client must take an alternate action - for those errors this field may indicate
   * how long to wait before taking the alternate action.
   */
  retryAfterSeconds?: number;
  /**
   * UID of the resource. (when there is a single resource which can be described). More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids
   */
  uid?: string;
};

/**
 * Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers
 * are provided for many of the factory methods that the time package offers.
 */
export type Time = string;

/**
 * RawExtension is used to hold extensions in external versions.
 *
 * To use this, make a field which has RawExtension as its type in your external, versioned struct,
 * and Object in your internal struct. You also need to register your various plugin types.
 */
export type RawExtension = { [key: string]: unknown };

/**
 * IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling
 * and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example,
 * a JSON field that can accept a name or number.
 */
export type IntOrString = number | string;
