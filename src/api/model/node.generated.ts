/**
 * Types of the node API group.
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

import type { Toleration } from './core.generated.js';
import type { ListMeta, ObjectMeta, Quantity } from './meta.generated.js';

/** Overhead structure represents the resource overhead associated with running a pod. */
export type Overhead = {
  /** podFixed represents the fixed resource overhead associated with running a pod. */
  podFixed?: Record<string, Quantity>;
};

/**
 * RuntimeClass defines a class of container runtime supported in the cluster. The RuntimeClass is
 * used to determine which container runtime is used to run all containers in a pod. RuntimeClasses
 * are manually defined by a user or cluster provisioner, and referenced in the PodSpec. The Kubelet
 * is responsible for resolving the RuntimeClassName reference before running the pod.  For more
 * details, see https://kubernetes.io/docs/concepts/containers/runtime-class/
 */
export type RuntimeClass = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'node.k8s.io/v1';
  /**
   * handler specifies the underlying runtime and configuration that the CRI implementation will use
   * to handle pods of this class. The possible values are specific to the node & CRI configuration.
   * It is assumed that all handlers are available on every node, and handlers of the same name are
   * equivalent on every node. For example, a handler called "runc" might specify that the runc OCI
   * runtime (using native Linux containers) will be used to run the containers in a pod. The
   * Handler must be lowercase, conform to the DNS Label (RFC 1123) requirements, and is immutable.
   */
  handler: string;
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'RuntimeClass';
  metadata?: ObjectMeta;
  overhead?: Overhead;
  scheduling?: Scheduling;
};

/** RuntimeClassList is a list of RuntimeClass objects. */
export type RuntimeClassList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'node.k8s.io/v1';
  /** items is a list of schema objects. */
  items: RuntimeClass[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'RuntimeClassList';
  metadata?: ListMeta;
};

/** Scheduling specifies the scheduling constraints for nodes supporting a RuntimeClass. */
export type Scheduling = {
  /**
   * nodeSelector lists labels that must be present on nodes that support this RuntimeClass. Pods
   * using this RuntimeClass can only be scheduled to a node matched by this selector. The
   * RuntimeClass nodeSelector is merged with a pod's existing nodeSelector. Any conflicts will
   * cause the pod to be rejected in admission.
   */
  nodeSelector?: Record<string, string>;
  /**
   * tolerations are appended (excluding duplicates) to pods running with this RuntimeClass during
   * admission, effectively unioning the set of nodes tolerated by the pod and the RuntimeClass.
   */
  tolerations?: Toleration[];
};
