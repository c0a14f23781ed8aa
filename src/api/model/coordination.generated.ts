/**
 * Types of the coordination API group.
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

import type { ListMeta, MicroTime, ObjectMeta } from './meta.generated.js';

/** Lease defines a lease concept. */
export type Lease = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'coordination.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'Lease';
  metadata?: ObjectMeta;
  spec?: LeaseSpec;
};

/** LeaseList is a list of Lease objects. */
export type LeaseList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'coordination.k8s.io/v1';
  /** items is a list of schema objects. */
  items: Lease[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'LeaseList';
  metadata?: ListMeta;
};

/** LeaseSpec is a specification of a Lease. */
export type LeaseSpec = {
  acquireTime?: MicroTime;
  /**
   * holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader
   * Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name
   * field.
   */
  holderIdentity?: string;
  /**
   * leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire
   * it. This is measured against the time of last observed renewTime.
   */
  leaseDurationSeconds?: number;
  /** leaseTransitions is the number of transitions of a lease between holders. */
  leaseTransitions?: number;
  /**
   * PreferredHolder signals to a lease holder that the lease has a more optimal holder and should
   * be given up. This field can only be set if Strategy is also set.
   */
  preferredHolder?: string;
  renewTime?: MicroTime;
  /**
   * Strategy indicates the strategy for picking the leader for coordinated leader election. If the
   * field is not specified, there is no active coordination for this lease. (Alpha) Using this
   * field requires the CoordinatedLeaderElection feature gate to be enabled.
   */
  strategy?: string;
};
