/**
 * Types of the storage API group.
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

import type { TopologySelectorTerm } from './core.generated.js';
import type { ListMeta, ObjectMeta } from './meta.generated.js';

/**
 * StorageClass describes the parameters for a class of storage for which PersistentVolumes can be
 * dynamically provisioned.  StorageClasses are non-namespaced; the name of the storage class
 * according to etcd is in ObjectMeta.Name.
 */
export type StorageClass = {
  /** allowVolumeExpansion shows whether the storage class allow volume expand. */
  allowVolumeExpansion?: boolean;
  /**
   * allowedTopologies restrict the node topologies where volumes can be dynamically provisioned.
   * Each volume plugin defines its own supported topology specifications. An empty
   * TopologySelectorTerm list means there is no topology restriction. This field is only honored by
   * servers that enable the VolumeScheduling feature.
   */
  allowedTopologies?: TopologySelectorTerm[];
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'storage.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'StorageClass';
  metadata?: ObjectMeta;
  /**
   * mountOptions controls the mountOptions for dynamically provisioned PersistentVolumes of this
   * storage class. e.g. ["ro", "soft"]. Not validated - mount of the PVs will simply fail if one is
   * invalid.
   */
  mountOptions?: string[];
  /**
   * parameters holds the parameters for the provisioner that should create volumes of this storage
   * class.
   */
  parameters?: Record<string, string>;
  /** provisioner indicates the type of the provisioner. */
  provisioner: string;
  /**
   * reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this
   * storage class. Defaults to Delete.
   */
  reclaimPolicy?: string;
  /**
   * volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When
   * unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the
   * VolumeScheduling feature.
   */
  volumeBindingMode?: string;
};

/** StorageClassList is a collection of storage classes. */
export type StorageClassList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'storage.k8s.io/v1';
  /** items is the list of StorageClasses */
  items: StorageClass[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'StorageClassList';
  metadata?: ListMeta;
};
