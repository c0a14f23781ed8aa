/**
 * Types of the autoscaling API group.
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

import type { LabelSelector, ListMeta, ObjectMeta, Quantity, Time } from './meta.generated.js';

/**
 * CrossVersionObjectReference contains enough information to let you identify the referred
 * resource.
 */
export type AutoscalingV1CrossVersionObjectReference = {
  /** apiVersion is the API version of the referent */
  apiVersion?: string;
  /**
   * kind is the kind of the referent; More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind: string;
  /**
   * name is the name of the referent; More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
   */
  name: string;
};

/** configuration of a horizontal pod autoscaler. */
export type AutoscalingV1HorizontalPodAutoscaler = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'autoscaling/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'HorizontalPodAutoscaler';
  metadata?: ObjectMeta;
  spec?: AutoscalingV1HorizontalPodAutoscalerSpec;
  status?: AutoscalingV1HorizontalPodAutoscalerStatus;
};

/** list of horizontal pod autoscaler objects. */
export type AutoscalingV1HorizontalPodAutoscalerList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'autoscaling/v1';
  /** items is the list of horizontal pod autoscaler objects. */
  items: AutoscalingV1HorizontalPodAutoscaler[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'HorizontalPodAutoscalerList';
  metadata?: ListMeta;
};

/** specification of a horizontal pod autoscaler. */
export type AutoscalingV1HorizontalPodAutoscalerSpec = {
  /**
   * maxReplicas is the upper limit for the number of pods that can be set by the autoscaler; cannot
   * be smaller than MinReplicas.
   */
  maxReplicas: number;
  /**
   * minReplicas is the lower limit for the number of replicas to which the autoscaler can scale
   * down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate
   * HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is
   * active as long as at least one metric value is available.
   */
  minReplicas?: number;
  scaleTargetRef: AutoscalingV1CrossVersionObjectReference;
  /**
   * targetCPUUtilizationPercentage is the target average CPU utilization (represented as a
   * percentage of requested CPU) over all the pods; if not specified the default autoscaling policy
   * will be used.
   */
  targetCPUUtilizationPercentage?: number;
};

/** current status of a horizontal pod autoscaler */
export type AutoscalingV1HorizontalPodAutoscalerStatus = {
  /**
   * currentCPUUtilizationPercentage is the current average CPU utilization over all pods,
   * represented as a percentage of requested CPU, e.g. 70 means that an average pod is using now
   * 70% of its requested CPU.
   */
  currentCPUUtilizationPercentage?: number;
  /** currentReplicas is the current number of replicas of pods managed by this autoscaler. */
  currentReplicas: number;
  /** desiredReplicas is the  desired number of replicas of pods managed by this autoscaler. */
  desiredReplicas: number;
  /**
   * lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods; used by
   * the autoscaler to control how often the number of pods is changed.
   */
  lastScaleTime?: Time;
  /** observedGeneration is the most recent generation observed by this autoscaler. */
  observedGeneration?: number;
};

/** Scale represents a scaling request for a resource. */
export type Scale = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'autoscaling/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'Scale';
  metadata?: ObjectMeta;
  spec?: ScaleSpec;
  status?: ScaleStatus;
};

/** ScaleSpec describes the attributes of a scale subresource. */
export type ScaleSpec = {
  /** replicas is the desired number of instances for the scaled object. */
  replicas?: number;
};

/** ScaleStatus represents the current status of a scale subresource. */
export type ScaleStatus = {
  /** replicas is the actual number of observed instances of the scaled object. */
  replicas: number;
  /**
   * selector is the label query over pods that should match the replicas count. This is same as the
   * label selector but in the string format to avoid introspection by clients. The string will be
   * in the same format as the query-param syntax. More info about label selectors:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/
   */
  selector?: string;
};

/**
 * ContainerResourceMetricSource indicates how to scale on a resource metric known to Kubernetes, as
 * specified in requests and limits, describing each pod in the current scale target (e.g. CPU or
 * memory).  The values will be averaged together before being compared to the target.  Such metrics
 * are built in to Kubernetes, and have special scaling options on top of those available to normal
 * per-pod metrics using the "pods" source.  Only one "target" type should be set.
 */
export type ContainerResourceMetricSource = {
  /** container is the name of the container in the pods of the scaling target */
  container: string;
  /** name is the name of the resource in question. */
  name: string;
  target: MetricTarget;
};

/**
 * ContainerResourceMetricStatus indicates the current value of a resource metric known to
 * Kubernetes, as specified in requests and limits, describing a single container in each pod in the
 * current scale target (e.g. CPU or memory).  Such metrics are built in to Kubernetes, and have
 * special scaling options on top of those available to normal per-pod metrics using the "pods"
 * source.
 */
export type ContainerResourceMetricStatus = {
  /** container is the name of the container in the pods of the scaling target */
  container: string;
  current: MetricValueStatus;
  /** name is the name of the resource in question. */
  name: string;
};

/**
 * CrossVersionObjectReference contains enough information to let you identify the referred
 * resource.
 */
export type AutoscalingV2CrossVersionObjectReference = {
  /** apiVersion is the API version of the referent */
  apiVersion?: string;
  /**
   * kind is the kind of the referent; More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind: string;
  /**
   * name is the name of the referent; More info:
   * https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
   */
  name: string;
};

/**
 * ExternalMetricSource indicates how to scale on a metric not associated with any Kubernetes object
 * (for example length of queue in cloud messaging service, or QPS from loadbalancer running outside
 * of cluster).
 */
export type ExternalMetricSource = {
  metric: MetricIdentifier;
  target: MetricTarget;
};

/**
 * ExternalMetricStatus indicates the current value of a global metric not associated with any
 * Kubernetes object.
 */
export type ExternalMetricStatus = {
  current: MetricValueStatus;
  metric: MetricIdentifier;
};

/** HPAScalingPolicy is a single policy which must hold true for a specified past interval. */
export type HPAScalingPolicy = {
  /**
   * periodSeconds specifies the window of time for which the policy should hold true. PeriodSeconds
   * must be greater than zero and less than or equal to 1800 (30 min).
   */
  periodSeconds: number;
  /** type is used to specify the scaling policy. */
  type: string;
  /**
   * value contains the amount of change which is permitted by the policy. It must be greater than
   * zero
   */
  value: number;
};

/**
 * HPAScalingRules configures the scaling behavior for one direction via scaling Policy Rules and a
 * configurable metric tolerance.  Scaling Policy Rules are applied after calculating
 * DesiredReplicas from metrics for the HPA. They can limit the scaling velocity by specifying
 * scaling policies. They can prevent flapping by specifying the stabilization window, so that the
 * number of replicas is not set instantly, instead, the safest value from the stabilization window
 * is chosen.  The tolerance is applied to the metric values and prevents scaling too eagerly for
 * small metric variations. (Note that setting a tolerance requires enabling the alpha
 * HPAConfigurableTolerance feature gate.)
 */
export type HPAScalingRules = {
  /**
   * policies is a list of potential scaling polices which can be used during scaling. If not set,
   * use the default values: - For scale up: allow doubling the number of pods, or an absolute
   * change of 4 pods in a 15s window. - For scale down: allow all pods to be removed in a 15s
   * window.
   */
  policies?: HPAScalingPolicy[];
  /**
   * selectPolicy is used to specify which policy should be used. If not set, the default value Max
   * is used.
   */
  selectPolicy?: string;
  /**
   * stabilizationWindowSeconds is the number of seconds for which past recommendations should be
   * considered while scaling up or scaling down. StabilizationWindowSeconds must be greater than or
   * equal to zero and less than or equal to 3600 (one hour). If not set, use the default values: -
   * For scale up: 0 (i.e. no stabilization is done). - For scale down: 300 (i.e. the stabilization
   * window is 300 seconds long).
   */
  stabilizationWindowSeconds?: number;
  /**
   * tolerance is the tolerance on the ratio between the current and desired metric value under
   * which no updates are made to the desired number of replicas (e.g. 0.01 for 1%). Must be greater
   * than or equal to zero. If not set, the default cluster-wide tolerance is applied (by default
   * 10%).  For example, if autoscaling is configured with a memory consumption target of 100Mi, and
   * scale-down and scale-up tolerances of 5% and 1% respectively, scaling will be triggered when
   * the actual consumption falls below 95Mi or exceeds 101Mi.  This is an alpha field and requires
   * enabling the HPAConfigurableTolerance feature gate.
   */
  tolerance?: Quantity;
};

/**
 * HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler, which automatically
 * manages the replica count of any resource implementing the scale subresource based on the metrics
 * specified.
 */
export type AutoscalingV2HorizontalPodAutoscaler = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'autoscaling/v2';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'HorizontalPodAutoscaler';
  metadata?: ObjectMeta;
  spec?: AutoscalingV2HorizontalPodAutoscalerSpec;
  status?: AutoscalingV2HorizontalPodAutoscalerStatus;
};

/**
 * HorizontalPodAutoscalerBehavior configures the scaling behavior of the target in both Up and Down
 * directions (scaleUp and scaleDown fields respectively).
 */
export type HorizontalPodAutoscalerBehavior = {
  scaleDown?: HPAScalingRules;
  scaleUp?: HPAScalingRules;
};

/**
 * HorizontalPodAutoscalerCondition describes the state of a HorizontalPodAutoscaler at a certain
 * point.
 */
export type HorizontalPodAutoscalerCondition = {
  /** lastTransitionTime is the last time the condition transitioned from one status to another */
  lastTransitionTime?: Time;
  /** message is a human-readable explanation containing details about the transition */
  message?: string;
  /** reason is the reason for the condition's last transition. */
  reason?: string;
  /** status is the status of the condition (True, False, Unknown) */
  status: string;
  /** type describes the current condition */
  type: string;
};

/** HorizontalPodAutoscalerList is a list of horizontal pod autoscaler objects. */
export type AutoscalingV2HorizontalPodAutoscalerList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'autoscaling/v2';
  /** items is the list of horizontal pod autoscaler objects. */
  items: AutoscalingV2HorizontalPodAutoscaler[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'HorizontalPodAutoscalerList';
  metadata?: ListMeta;
};

/**
 * HorizontalPodAutoscalerSpec describes the desired functionality of the HorizontalPodAutoscaler.
 */
export type AutoscalingV2HorizontalPodAutoscalerSpec = {
  behavior?: HorizontalPodAutoscalerBehavior;
  /**
   * maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.
   * It cannot be less that minReplicas.
   */
  maxReplicas: number;
  /**
   * metrics contains the specifications for which to use to calculate the desired replica count
   * (the maximum replica count across all metrics will be used).  The desired replica count is
   * calculated multiplying the ratio between the target value and the current value by the current
   * number of pods.  Ergo, metrics used must decrease as the pod count is increased, and
   * vice-versa.  See the individual metric source types for more information about how each type of
   * metric must respond. If not set, the default metric will be set to 80% average CPU utilization.
   */
  metrics?: MetricSpec[];
  /**
   * minReplicas is the lower limit for the number of replicas to which the autoscaler can scale
   * down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate
   * HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is
   * active as long as at least one metric value is available.
   */
  minReplicas?: number;
  scaleTargetRef: AutoscalingV2CrossVersionObjectReference;
};

/** HorizontalPodAutoscalerStatus describes the current status of a horizontal pod autoscaler. */
export type AutoscalingV2HorizontalPodAutoscalerStatus = {
  /**
   * conditions is the set of conditions required for this autoscaler to scale its target, and
   * indicates whether or not those conditions are met.
   */
  conditions?: HorizontalPodAutoscalerCondition[];
  /** currentMetrics is the last read state of the metrics used by this autoscaler. */
  currentMetrics?: MetricStatus[];
  /**
   * currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen
   * by the autoscaler.
   */
  currentReplicas?: number;
  /**
   * desiredReplicas is the desired number of replicas of pods managed by this autoscaler, as last
   * calculated by the autoscaler.
   */
  desiredReplicas: number;
  /**
   * lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods, used by
   * the autoscaler to control how often the number of pods is changed.
   */
  lastScaleTime?: Time;
  /** observedGeneration is the most recent generation observed by this autoscaler. */
  observedGeneration?: number;
};

/** MetricIdentifier defines the name and optionally selector for a metric */
export type MetricIdentifier = {
  /** name is the name of the given metric */
  name: string;
  selector?: LabelSelector;
};

/**
 * MetricSpec specifies how to scale based on a single metric (only `type` and one other matching
 * field should be set at once).
 */
export type MetricSpec = {
  containerResource?: ContainerResourceMetricSource;
  external?: ExternalMetricSource;
  object?: ObjectMetricSource;
  pods?: PodsMetricSource;
  resource?: ResourceMetricSource;
  /**
   * type is the type of metric source.  It should be one of "ContainerResource", "External",
   * "Object", "Pods" or "Resource", each mapping to a matching field in the object.
   */
  type: string;
};

/** MetricStatus describes the last-read state of a single metric. */
export type MetricStatus = {
  containerResource?: ContainerResourceMetricStatus;
  external?: ExternalMetricStatus;
  object?: ObjectMetricStatus;
  pods?: PodsMetricStatus;
  resource?: ResourceMetricStatus;
  /**
   * type is the type of metric source.  It will be one of "ContainerResource", "External",
   * "Object", "Pods" or "Resource", each corresponds to a matching field in the object.
   */
  type: string;
};

/**
 * MetricTarget defines the target value, average value, or average utilization of a specific metric
 */
export type MetricTarget = {
  /**
   * averageUtilization is the target value of the average of the resource metric across all
   * relevant pods, represented as a percentage of the requested value of the resource for the pods.
   * Currently only valid for Resource metric source type
   */
  averageUtilization?: number;
  /**
   * averageValue is the target value of the average of the metric across all relevant pods (as a
   * quantity)
   */
  averageValue?: Quantity;
  /** type represents whether the metric type is Utilization, Value, or AverageValue */
  type: string;
  /** value is the target value of the metric (as a quantity). */
  value?: Quantity;
};

/** MetricValueStatus holds the current value for a metric */
export type MetricValueStatus = {
  /**
   * currentAverageUtilization is the current value of the average of the resource metric across all
   * relevant pods, represented as a percentage of the requested value of the resource for the pods.
   */
  averageUtilization?: number;
  /**
   * averageValue is the current value of the average of the metric across all relevant pods (as a
   * quantity)
   */
  averageValue?: Quantity;
  /** value is the current value of the metric (as a quantity). */
  value?: Quantity;
};

/**
 * ObjectMetricSource indicates how to scale on a metric describing a kubernetes object (for
 * example, hits-per-second on an Ingress object).
 */
export type ObjectMetricSource = {
  describedObject: AutoscalingV2CrossVersionObjectReference;
  metric: MetricIdentifier;
  target: MetricTarget;
};

/**
 * ObjectMetricStatus indicates the current value of a metric describing a kubernetes object (for
 * example, hits-per-second on an Ingress object).
 */
export type ObjectMetricStatus = {
  current: MetricValueStatus;
  describedObject: AutoscalingV2CrossVersionObjectReference;
  metric: MetricIdentifier;
};

/**
 * PodsMetricSource indicates how to scale on a metric describing each pod in the current scale
 * target (for example, transactions-processed-per-second). The values will be averaged together
 * before being compared to the target value.
 */
export type PodsMetricSource = {
  metric: MetricIdentifier;
  target: MetricTarget;
};

/**
 * PodsMetricStatus indicates the current value of a metric describing each pod in the current scale
 * target (for example, transactions-processed-per-second).
 */
export type PodsMetricStatus = {
  current: MetricValueStatus;
  metric: MetricIdentifier;
};

/**
 * ResourceMetricSource indicates how to scale on a resource metric known to Kubernetes, as
 * specified in requests and limits, describing each pod in the current scale target (e.g. CPU or
 * memory).  The values will be averaged together before being compared to the target.  Such metrics
 * are built in to Kubernetes, and have special scaling options on top of those available to normal
 * per-pod metrics using the "pods" source.  Only one "target" type should be set.
 */
export type ResourceMetricSource = {
  /** name is the name of the resource in question. */
  name: string;
  target: MetricTarget;
};

/**
 * ResourceMetricStatus indicates the current value of a resource metric known to Kubernetes, as
 * specified in requests and limits, describing each pod in the current scale target (e.g. CPU or
 * memory).  Such metrics are built in to Kubernetes, and have special scaling options on top of
 * those available to normal per-pod metrics using the "pods" source.
 */
export type ResourceMetricStatus = {
  current: MetricValueStatus;
  /** name is the name of the resource in question. */
  name: string;
};
