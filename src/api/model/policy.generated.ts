/**
 * Types of the policy API group.
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
  Condition,
  IntOrString,
  LabelSelector,
  ListMeta,
  ObjectMeta,
  Time,
} from './meta.generated.js';

/**
 * PodDisruptionBudget is an object to define the max disruption that can be caused to a collection
 * of pods
 */
export type PodDisruptionBudget = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'policy/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'PodDisruptionBudget';
  metadata?: ObjectMeta;
  spec?: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
};

/** PodDisruptionBudgetList is a collection of PodDisruptionBudgets. */
export type PodDisruptionBudgetList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'policy/v1';
  /** Items is a list of PodDisruptionBudgets */
  items: PodDisruptionBudget[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'PodDisruptionBudgetList';
  metadata?: ListMeta;
};

/** PodDisruptionBudgetSpec is a description of a PodDisruptionBudget. */
export type PodDisruptionBudgetSpec = {
  maxUnavailable?: IntOrString;
  minAvailable?: IntOrString;
  selector?: LabelSelector;
  /**
   * UnhealthyPodEvictionPolicy defines the criteria for when unhealthy pods should be considered
   * for eviction. Current implementation considers healthy pods, as pods that have
   * status.conditions item with type="Ready",status="True".  Valid policies are IfHealthyBudget and
   * AlwaysAllow. If no policy is specified, the default behavior will be used, which corresponds to
   * the IfHealthyBudget policy.  IfHealthyBudget policy means that running pods
   * (status.phase="Running"), but not yet healthy can be evicted only if the guarded application is
   * not disrupted (status.currentHealthy is at least equal to status.desiredHealthy). Healthy pods
   * will be subject to the PDB for eviction.  AlwaysAllow policy means that all running pods
   * (status.phase="Running"), but not yet healthy are considered disrupted and can be evicted
   * regardless of whether the criteria in a PDB is met. This means perspective running pods of a
   * disrupted application might not get a chance to become healthy. Healthy pods will be subject to
   * the PDB for eviction.  Additional policies may be added in the future. Clients making eviction
   * decisions should disallow eviction of unhealthy pods if they encounter an unrecognized policy
   * in this field.
   */
  unhealthyPodEvictionPolicy?: string;
};

/**
 * PodDisruptionBudgetStatus represents information about the status of a PodDisruptionBudget.
 * Status may trail the actual state of a system.
 */
export type PodDisruptionBudgetStatus = {
  /**
   * Conditions contain conditions for PDB. The disruption controller sets the DisruptionAllowed
   * condition. The following are known values for the reason field (additional reasons could be
   * added in the future): - SyncFailed: The controller encountered an error and wasn't able to
   * compute               the number of allowed disruptions. Therefore no disruptions are
   * allowed and the status of the condition will be False. - InsufficientPods: The number of pods
   * are either at or below the number                     required by the PodDisruptionBudget. No
   * disruptions are                     allowed and the status of the condition will be False. -
   * SufficientPods: There are more pods than required by the PodDisruptionBudget.
   * The condition will be True, and the number of allowed                   disruptions are
   * provided by the disruptionsAllowed property.
   */
  conditions?: Condition[];
  /** current number of healthy pods */
  currentHealthy: number;
  /** minimum desired number of healthy pods */
  desiredHealthy: number;
  /**
   * DisruptedPods contains information about pods whose eviction was processed by the API server
   * eviction subresource handler but has not yet been observed by the PodDisruptionBudget
   * controller. A pod will be in this map from the time when the API server processed the eviction
   * request to the time when the pod is seen by PDB controller as having been marked for deletion
   * (or after a timeout). The key in the map is the name of the pod and the value is the time when
   * the API server processed the eviction request. If the deletion didn't occur and a pod is still
   * there it will be removed from the list automatically by PodDisruptionBudget controller after
   * some time. If everything goes smooth this map should be empty for the most of the time. Large
   * number of entries in the map may indicate problems with pod deletions.
   */
  disruptedPods?: Record<string, Time>;
  /** Number of pod disruptions that are currently allowed. */
  disruptionsAllowed: number;
  /** total number of pods counted by this disruption budget */
  expectedPods: number;
  /**
   * Most recent generation observed when updating this PDB status. DisruptionsAllowed and other
   * status information is valid only if observedGeneration equals to PDB's object generation.
   */
  observedGeneration?: number;
};
