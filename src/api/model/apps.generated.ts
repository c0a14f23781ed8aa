/**
 * Types of the apps API group.
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

import type { PersistentVolumeClaim, PodTemplateSpec } from './core.generated.js';
import type {
  IntOrString,
  LabelSelector,
  ListMeta,
  ObjectMeta,
  RawExtension,
  Time,
} from './meta.generated.js';

/**
 * ControllerRevision implements an immutable snapshot of state data. Clients are responsible for
 * serializing and deserializing the objects that contain their internal state. Once a
 * ControllerRevision has been successfully created, it can not be updated. The API Server will fail
 * validation of all requests that attempt to mutate the Data field. ControllerRevisions may,
 * however, be deleted. Note that, due to its use by both the DaemonSet and StatefulSet controllers
 * for update and rollback, this object is beta. However, it may be subject to name and
 * representation changes in future releases, and clients should not depend on its stability. It is
 * primarily for internal use by controllers.
 */
export type ControllerRevision = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /** Data is the serialized representation of the state. */
  data?: RawExtension;
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'ControllerRevision';
  metadata?: ObjectMeta;
  /** Revision indicates the revision of the state represented by Data. */
  revision: number | bigint;
};

/** ControllerRevisionList is a resource containing a list of ControllerRevision objects. */
export type ControllerRevisionList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /** Items is the list of ControllerRevisions */
  items: ControllerRevision[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'ControllerRevisionList';
  metadata?: ListMeta;
};

/** DaemonSet represents the configuration of a daemon set. */
export type DaemonSet = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'DaemonSet';
  metadata?: ObjectMeta;
  spec?: DaemonSetSpec;
  status?: DaemonSetStatus;
};

/** DaemonSetCondition describes the state of a DaemonSet at a certain point. */
export type DaemonSetCondition = {
  /** Last time the condition transitioned from one status to another. */
  lastTransitionTime?: Time;
  /** A human readable message indicating details about the transition. */
  message?: string;
  /** The reason for the condition's last transition. */
  reason?: string;
  /** Status of the condition, one of True, False, Unknown. */
  status: string;
  /** Type of DaemonSet condition. */
  type: string;
};

/** DaemonSetList is a collection of daemon sets. */
export type DaemonSetList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /** A list of daemon sets. */
  items: DaemonSet[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'DaemonSetList';
  metadata?: ListMeta;
};

/** DaemonSetSpec is the specification of a daemon set. */
export type DaemonSetSpec = {
  /**
   * The minimum number of seconds for which a newly created DaemonSet pod should be ready without
   * any of its container crashing, for it to be considered available. Defaults to 0 (pod will be
   * considered available as soon as it is ready).
   */
  minReadySeconds?: number;
  /**
   * The number of old history to retain to allow rollback. This is a pointer to distinguish between
   * explicit zero and not specified. Defaults to 10.
   */
  revisionHistoryLimit?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
};

/** DaemonSetStatus represents the current status of a daemon set. */
export type DaemonSetStatus = {
  /**
   * Count of hash collisions for the DaemonSet. The DaemonSet controller uses this field as a
   * collision avoidance mechanism when it needs to create the name for the newest
   * ControllerRevision.
   */
  collisionCount?: number;
  /** Represents the latest available observations of a DaemonSet's current state. */
  conditions?: DaemonSetCondition[];
  /**
   * The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon
   * pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/
   */
  currentNumberScheduled: number;
  /**
   * The total number of nodes that should be running the daemon pod (including nodes correctly
   * running the daemon pod). More info:
   * https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/
   */
  desiredNumberScheduled: number;
  /**
   * The number of nodes that should be running the daemon pod and have one or more of the daemon
   * pod running and available (ready for at least spec.minReadySeconds)
   */
  numberAvailable?: number;
  /**
   * The number of nodes that are running the daemon pod, but are not supposed to run the daemon
   * pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/
   */
  numberMisscheduled: number;
  /**
   * numberReady is the number of nodes that should be running the daemon pod and have one or more
   * of the daemon pod running with a Ready Condition.
   */
  numberReady: number;
  /**
   * The number of nodes that should be running the daemon pod and have none of the daemon pod
   * running and available (ready for at least spec.minReadySeconds)
   */
  numberUnavailable?: number;
  /** The most recent generation observed by the daemon set controller. */
  observedGeneration?: number;
  /** The total number of nodes that are running updated daemon pod */
  updatedNumberScheduled?: number;
};

/** DaemonSetUpdateStrategy is a struct used to control the update strategy for a DaemonSet. */
export type DaemonSetUpdateStrategy = {
  rollingUpdate?: RollingUpdateDaemonSet;
  /** Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate. */
  type?: string;
};

/** Deployment enables declarative updates for Pods and ReplicaSets. */
export type Deployment = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'Deployment';
  metadata?: ObjectMeta;
  spec?: DeploymentSpec;
  status?: DeploymentStatus;
};

/** DeploymentCondition describes the state of a deployment at a certain point. */
export type DeploymentCondition = {
  /** Last time the condition transitioned from one status to another. */
  lastTransitionTime?: Time;
  /** The last time this condition was updated. */
  lastUpdateTime?: Time;
  /** A human readable message indicating details about the transition. */
  message?: string;
  /** The reason for the condition's last transition. */
  reason?: string;
  /** Status of the condition, one of True, False, Unknown. */
  status: string;
  /** Type of deployment condition. */
  type: string;
};

/** DeploymentList is a list of Deployments. */
export type DeploymentList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /** Items is the list of Deployments. */
  items: Deployment[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'DeploymentList';
  metadata?: ListMeta;
};

/** DeploymentSpec is the specification of the desired behavior of the Deployment. */
export type DeploymentSpec = {
  /**
   * Minimum number of seconds for which a newly created pod should be ready without any of its
   * container crashing, for it to be considered available. Defaults to 0 (pod will be considered
   * available as soon as it is ready)
   */
  minReadySeconds?: number;
  /** Indicates that the deployment is paused. */
  paused?: boolean;
  /**
   * The maximum time in seconds for a deployment to make progress before it is considered to be
   * failed. The deployment controller will continue to process failed deployments and a condition
   * with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Note that
   * progress will not be estimated during the time a deployment is paused. Defaults to 600s.
   */
  progressDeadlineSeconds?: number;
  /**
   * Number of desired pods. This is a pointer to distinguish between explicit zero and not
   * specified. Defaults to 1.
   */
  replicas?: number;
  /**
   * The number of old ReplicaSets to retain to allow rollback. This is a pointer to distinguish
   * between explicit zero and not specified. Defaults to 10.
   */
  revisionHistoryLimit?: number;
  selector: LabelSelector;
  strategy?: DeploymentStrategy;
  template: PodTemplateSpec;
};

/** DeploymentStatus is the most recently observed status of the Deployment. */
export type DeploymentStatus = {
  /**
   * Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by
   * this deployment.
   */
  availableReplicas?: number;
  /**
   * Count of hash collisions for the Deployment. The Deployment controller uses this field as a
   * collision avoidance mechanism when it needs to create the name for the newest ReplicaSet.
   */
  collisionCount?: number;
  /** Represents the latest available observations of a deployment's current state. */
  conditions?: DeploymentCondition[];
  /** The generation observed by the deployment controller. */
  observedGeneration?: number;
  /** Total number of non-terminating pods targeted by this Deployment with a Ready Condition. */
  readyReplicas?: number;
  /**
   * Total number of non-terminating pods targeted by this deployment (their labels match the
   * selector).
   */
  replicas?: number;
  /**
   * Total number of terminating pods targeted by this deployment. Terminating pods have a non-null
   * .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.
   * This is an alpha field. Enable DeploymentReplicaSetTerminatingReplicas to be able to use this
   * field.
   */
  terminatingReplicas?: number;
  /**
   * Total number of unavailable pods targeted by this deployment. This is the total number of pods
   * that are still required for the deployment to have 100% available capacity. They may either be
   * pods that are running but not yet available or pods that still have not been created.
   */
  unavailableReplicas?: number;
  /**
   * Total number of non-terminating pods targeted by this deployment that have the desired template
   * spec.
   */
  updatedReplicas?: number;
};

/** DeploymentStrategy describes how to replace existing pods with new ones. */
export type DeploymentStrategy = {
  rollingUpdate?: RollingUpdateDeployment;
  /** Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate. */
  type?: string;
};

/** ReplicaSet ensures that a specified number of pod replicas are running at any given time. */
export type ReplicaSet = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'ReplicaSet';
  metadata?: ObjectMeta;
  spec?: ReplicaSetSpec;
  status?: ReplicaSetStatus;
};

/** ReplicaSetCondition describes the state of a replica set at a certain point. */
export type ReplicaSetCondition = {
  /** The last time the condition transitioned from one status to another. */
  lastTransitionTime?: Time;
  /** A human readable message indicating details about the transition. */
  message?: string;
  /** The reason for the condition's last transition. */
  reason?: string;
  /** Status of the condition, one of True, False, Unknown. */
  status: string;
  /** Type of replica set condition. */
  type: string;
};

/** ReplicaSetList is a collection of ReplicaSets. */
export type ReplicaSetList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /**
   * List of ReplicaSets. More info:
   * https://kubernetes.io/docs/concepts/workloads/controllers/replicaset
   */
  items: ReplicaSet[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'ReplicaSetList';
  metadata?: ListMeta;
};

/** ReplicaSetSpec is the specification of a ReplicaSet. */
export type ReplicaSetSpec = {
  /**
   * Minimum number of seconds for which a newly created pod should be ready without any of its
   * container crashing, for it to be considered available. Defaults to 0 (pod will be considered
   * available as soon as it is ready)
   */
  minReadySeconds?: number;
  /**
   * Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero
   * and unspecified. Defaults to 1. More info:
   * https://kubernetes.io/docs/concepts/workloads/controllers/replicaset
   */
  replicas?: number;
  selector: LabelSelector;
  template?: PodTemplateSpec;
};

/** ReplicaSetStatus represents the current status of a ReplicaSet. */
export type ReplicaSetStatus = {
  /**
   * The number of available non-terminating pods (ready for at least minReadySeconds) for this
   * replica set.
   */
  availableReplicas?: number;
  /** Represents the latest available observations of a replica set's current state. */
  conditions?: ReplicaSetCondition[];
  /**
   * The number of non-terminating pods that have labels matching the labels of the pod template of
   * the replicaset.
   */
  fullyLabeledReplicas?: number;
  /** ObservedGeneration reflects the generation of the most recently observed ReplicaSet. */
  observedGeneration?: number;
  /** The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition. */
  readyReplicas?: number;
  /**
   * Replicas is the most recently observed number of non-terminating pods. More info:
   * https://kubernetes.io/docs/concepts/workloads/controllers/replicaset
   */
  replicas: number;
  /**
   * The number of terminating pods for this replica set. Terminating pods have a non-null
   * .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.
   * This is an alpha field. Enable DeploymentReplicaSetTerminatingReplicas to be able to use this
   * field.
   */
  terminatingReplicas?: number;
};

/** Spec to control the desired behavior of daemon set rolling update. */
export type RollingUpdateDaemonSet = {
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
};

/** Spec to control the desired behavior of rolling update. */
export type RollingUpdateDeployment = {
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
};

/**
 * RollingUpdateStatefulSetStrategy is used to communicate parameter for
 * RollingUpdateStatefulSetStrategyType.
 */
export type RollingUpdateStatefulSetStrategy = {
  maxUnavailable?: IntOrString;
  /**
   * Partition indicates the ordinal at which the StatefulSet should be partitioned for updates.
   * During a rolling update, all pods from ordinal Replicas-1 to Partition are updated. All pods
   * from ordinal Partition-1 to 0 remain untouched. This is helpful in being able to do a canary
   * based deployment. The default value is 0.
   */
  partition?: number;
};

/**
 * StatefulSet represents a set of pods with consistent identities. Identities are defined as:   -
 * Network: A single stable DNS and hostname.   - Storage: As many VolumeClaims as requested.  The
 * StatefulSet guarantees that a given network identity will always map to the same storage
 * identity.
 */
export type StatefulSet = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'StatefulSet';
  metadata?: ObjectMeta;
  spec?: StatefulSetSpec;
  status?: StatefulSetStatus;
};

/** StatefulSetCondition describes the state of a statefulset at a certain point. */
export type StatefulSetCondition = {
  /** Last time the condition transitioned from one status to another. */
  lastTransitionTime?: Time;
  /** A human readable message indicating details about the transition. */
  message?: string;
  /** The reason for the condition's last transition. */
  reason?: string;
  /** Status of the condition, one of True, False, Unknown. */
  status: string;
  /** Type of statefulset condition. */
  type: string;
};

/** StatefulSetList is a collection of StatefulSets. */
export type StatefulSetList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'apps/v1';
  /** Items is the list of stateful sets. */
  items: StatefulSet[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'StatefulSetList';
  metadata?: ListMeta;
};

/**
 * StatefulSetOrdinals describes the policy used for replica ordinal assignment in this StatefulSet.
 */
export type StatefulSetOrdinals = {
  /**
   * start is the number representing the first replica's index. It may be used to number replicas
   * from an alternate index (eg: 1-indexed) over the default 0-indexed names, or to orchestrate
   * progressive movement of replicas from one StatefulSet to another. If set, replica indices will
   * be in the range:   [.spec.ordinals.start, .spec.ordinals.start + .spec.replicas). If unset,
   * defaults to 0. Replica indices will be in the range:   [0, .spec.replicas).
   */
  start?: number;
};

/**
 * StatefulSetPersistentVolumeClaimRetentionPolicy describes the policy used for PVCs created from
 * the StatefulSet VolumeClaimTemplates.
 */
export type StatefulSetPersistentVolumeClaimRetentionPolicy = {
  /**
   * WhenDeleted specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when
   * the StatefulSet is deleted. The default policy of `Retain` causes PVCs to not be affected by
   * StatefulSet deletion. The `Delete` policy causes those PVCs to be deleted.
   */
  whenDeleted?: string;
  /**
   * WhenScaled specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when
   * the StatefulSet is scaled down. The default policy of `Retain` causes PVCs to not be affected
   * by a scaledown. The `Delete` policy causes the associated PVCs for any excess pods above the
   * replica count to be deleted.
   */
  whenScaled?: string;
};

/** A StatefulSetSpec is the specification of a StatefulSet. */
export type StatefulSetSpec = {
  /**
   * Minimum number of seconds for which a newly created pod should be ready without any of its
   * container crashing for it to be considered available. Defaults to 0 (pod will be considered
   * available as soon as it is ready)
   */
  minReadySeconds?: number;
  ordinals?: StatefulSetOrdinals;
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  /**
   * podManagementPolicy controls how pods are created during initial scale up, when replacing pods
   * on nodes, or when scaling down. The default policy is `OrderedReady`, where pods are created in
   * increasing order (pod-0, then pod-1, etc) and the controller will wait until each pod is ready
   * before continuing. When scaling down, the pods are removed in the opposite order. The
   * alternative policy is `Parallel` which will create pods in parallel to match the desired scale
   * without waiting, and on scale down will delete all pods at once.
   */
  podManagementPolicy?: string;
  /**
   * replicas is the desired number of replicas of the given Template. These are replicas in the
   * sense that they are instantiations of the same Template, but individual replicas also have a
   * consistent identity. If unspecified, defaults to 1.
   */
  replicas?: number;
  /**
   * revisionHistoryLimit is the maximum number of revisions that will be maintained in the
   * StatefulSet's revision history. The revision history consists of all revisions not represented
   * by a currently applied StatefulSetSpec version. The default value is 10.
   */
  revisionHistoryLimit?: number;
  selector: LabelSelector;
  /**
   * serviceName is the name of the service that governs this StatefulSet. This service must exist
   * before the StatefulSet, and is responsible for the network identity of the set. Pods get
   * DNS/hostnames that follow the pattern:
   * pod-specific-string.serviceName.default.svc.cluster.local where "pod-specific-string" is
   * managed by the StatefulSet controller.
   */
  serviceName?: string;
  template: PodTemplateSpec;
  updateStrategy?: StatefulSetUpdateStrategy;
  /**
   * volumeClaimTemplates is a list of claims that pods are allowed to reference. The StatefulSet
   * controller is responsible for mapping network identities to claims in a way that maintains the
   * identity of a pod. Every claim in this list must have at least one matching (by name)
   * volumeMount in one container in the template. A claim in this list takes precedence over any
   * volumes in the template, with the same name.
   */
  volumeClaimTemplates?: PersistentVolumeClaim[];
};

/** StatefulSetStatus represents the current state of a StatefulSet. */
export type StatefulSetStatus = {
  /**
   * Total number of available pods (ready for at least minReadySeconds) targeted by this
   * statefulset.
   */
  availableReplicas?: number;
  /**
   * collisionCount is the count of hash collisions for the StatefulSet. The StatefulSet controller
   * uses this field as a collision avoidance mechanism when it needs to create the name for the
   * newest ControllerRevision.
   */
  collisionCount?: number;
  /** Represents the latest available observations of a statefulset's current state. */
  conditions?: StatefulSetCondition[];
  /**
   * currentReplicas is the number of Pods created by the StatefulSet controller from the
   * StatefulSet version indicated by currentRevision.
   */
  currentReplicas?: number;
  /**
   * currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods
   * in the sequence [0,currentReplicas).
   */
  currentRevision?: string;
  /**
   * observedGeneration is the most recent generation observed for this StatefulSet. It corresponds
   * to the StatefulSet's generation, which is updated on mutation by the API Server.
   */
  observedGeneration?: number;
  /** readyReplicas is the number of pods created for this StatefulSet with a Ready Condition. */
  readyReplicas?: number;
  /** replicas is the number of Pods created by the StatefulSet controller. */
  replicas: number;
  /**
   * updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in
   * the sequence [replicas-updatedReplicas,replicas)
   */
  updateRevision?: string;
  /**
   * updatedReplicas is the number of Pods created by the StatefulSet controller from the
   * StatefulSet version indicated by updateRevision.
   */
  updatedReplicas?: number;
};

/**
 * StatefulSetUpdateStrategy indicates the strategy that the StatefulSet controller will use to
 * perform updates. It includes any additional parameters necessary to perform the update for the
 * indicated strategy.
 */
export type StatefulSetUpdateStrategy = {
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
  /** Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate. */
  type?: string;
};
