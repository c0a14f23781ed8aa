/**
 * Protobuf schema tables: autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscaler (kubectl
 * 1.33's `autoscale` sends its HPA as protobuf through the typed client).
 *
 * Field numbers from k8s.io/api v0.33 `autoscaling/v1/generated.proto` and
 * `autoscaling/v2/generated.proto`; rows in Go struct order (HPAScalingRules lists
 * `stabilizationWindowSeconds`, number 3, first). Scale stays in `schema-meta.ts`. Message
 * names carry the version: both versions have a `HorizontalPodAutoscaler`.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscaler messages. */
export const autoscalingTables: MessageTables = {
  /** k8s.io.api.autoscaling.v1.HorizontalPodAutoscaler */
  'autoscaling.v1.HorizontalPodAutoscaler': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'autoscaling.v1.HorizontalPodAutoscalerSpec', 'o'],
    [3, 'status', 'autoscaling.v1.HorizontalPodAutoscalerStatus', 'o'],
  ],
  'autoscaling.v1.HorizontalPodAutoscalerSpec': [
    [1, 'scaleTargetRef', 'autoscaling.CrossVersionObjectReference'],
    [2, 'minReplicas', 'int32', 'op'],
    [3, 'maxReplicas', 'int32'],
    [4, 'targetCPUUtilizationPercentage', 'int32', 'op'],
  ],
  'autoscaling.v1.HorizontalPodAutoscalerStatus': [
    [1, 'observedGeneration', 'int64', 'op'],
    [2, 'lastScaleTime', 'Time', 'op'],
    [3, 'currentReplicas', 'int32'],
    [4, 'desiredReplicas', 'int32'],
    [5, 'currentCPUUtilizationPercentage', 'int32', 'op'],
  ],
  /** The same message in v1 and v2. */
  'autoscaling.CrossVersionObjectReference': [
    [1, 'kind', 'string'],
    [2, 'name', 'string'],
    [3, 'apiVersion', 'string', 'o'],
  ],
  /** k8s.io.api.autoscaling.v2.HorizontalPodAutoscaler */
  'autoscaling.v2.HorizontalPodAutoscaler': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'autoscaling.v2.HorizontalPodAutoscalerSpec', 'o'],
    [3, 'status', 'autoscaling.v2.HorizontalPodAutoscalerStatus', 'o'],
  ],
  'autoscaling.v2.HorizontalPodAutoscalerSpec': [
    [1, 'scaleTargetRef', 'autoscaling.CrossVersionObjectReference'],
    [2, 'minReplicas', 'int32', 'op'],
    [3, 'maxReplicas', 'int32'],
    [4, 'metrics', 'autoscaling.v2.MetricSpec', 'or'],
    [5, 'behavior', 'autoscaling.v2.HorizontalPodAutoscalerBehavior', 'op'],
  ],
  'autoscaling.v2.HorizontalPodAutoscalerStatus': [
    [1, 'observedGeneration', 'int64', 'op'],
    [2, 'lastScaleTime', 'Time', 'op'],
    [3, 'currentReplicas', 'int32', 'o'],
    [4, 'desiredReplicas', 'int32'],
    [5, 'currentMetrics', 'autoscaling.v2.MetricStatus', 'or'],
    [6, 'conditions', 'autoscaling.v2.HorizontalPodAutoscalerCondition', 'or'],
  ],
  'autoscaling.v2.HorizontalPodAutoscalerBehavior': [
    [1, 'scaleUp', 'autoscaling.v2.HPAScalingRules', 'op'],
    [2, 'scaleDown', 'autoscaling.v2.HPAScalingRules', 'op'],
  ],
  'autoscaling.v2.HPAScalingRules': [
    [3, 'stabilizationWindowSeconds', 'int32', 'op'],
    [1, 'selectPolicy', 'string', 'op'],
    [2, 'policies', 'autoscaling.v2.HPAScalingPolicy', 'or'],
    [4, 'tolerance', 'Quantity', 'op'],
  ],
  'autoscaling.v2.HPAScalingPolicy': [
    [1, 'type', 'string'],
    [2, 'value', 'int32'],
    [3, 'periodSeconds', 'int32'],
  ],
  'autoscaling.v2.HorizontalPodAutoscalerCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
  'autoscaling.v2.MetricSpec': [
    [1, 'type', 'string'],
    [2, 'object', 'autoscaling.v2.ObjectMetricSource', 'op'],
    [3, 'pods', 'autoscaling.v2.PodsMetricSource', 'op'],
    [4, 'resource', 'autoscaling.v2.ResourceMetricSource', 'op'],
    [7, 'containerResource', 'autoscaling.v2.ContainerResourceMetricSource', 'op'],
    [5, 'external', 'autoscaling.v2.ExternalMetricSource', 'op'],
  ],
  'autoscaling.v2.MetricStatus': [
    [1, 'type', 'string'],
    [2, 'object', 'autoscaling.v2.ObjectMetricStatus', 'op'],
    [3, 'pods', 'autoscaling.v2.PodsMetricStatus', 'op'],
    [4, 'resource', 'autoscaling.v2.ResourceMetricStatus', 'op'],
    [7, 'containerResource', 'autoscaling.v2.ContainerResourceMetricStatus', 'op'],
    [5, 'external', 'autoscaling.v2.ExternalMetricStatus', 'op'],
  ],
  'autoscaling.v2.ObjectMetricSource': [
    [1, 'describedObject', 'autoscaling.CrossVersionObjectReference'],
    [2, 'target', 'autoscaling.v2.MetricTarget'],
    [3, 'metric', 'autoscaling.v2.MetricIdentifier'],
  ],
  'autoscaling.v2.PodsMetricSource': [
    [1, 'metric', 'autoscaling.v2.MetricIdentifier'],
    [2, 'target', 'autoscaling.v2.MetricTarget'],
  ],
  'autoscaling.v2.ResourceMetricSource': [
    [1, 'name', 'string'],
    [2, 'target', 'autoscaling.v2.MetricTarget'],
  ],
  'autoscaling.v2.ContainerResourceMetricSource': [
    [1, 'name', 'string'],
    [2, 'target', 'autoscaling.v2.MetricTarget'],
    [3, 'container', 'string'],
  ],
  'autoscaling.v2.ExternalMetricSource': [
    [1, 'metric', 'autoscaling.v2.MetricIdentifier'],
    [2, 'target', 'autoscaling.v2.MetricTarget'],
  ],
  'autoscaling.v2.ObjectMetricStatus': [
    [1, 'metric', 'autoscaling.v2.MetricIdentifier'],
    [2, 'current', 'autoscaling.v2.MetricValueStatus'],
    [3, 'describedObject', 'autoscaling.CrossVersionObjectReference'],
  ],
  'autoscaling.v2.PodsMetricStatus': [
    [1, 'metric', 'autoscaling.v2.MetricIdentifier'],
    [2, 'current', 'autoscaling.v2.MetricValueStatus'],
  ],
  'autoscaling.v2.ResourceMetricStatus': [
    [1, 'name', 'string'],
    [2, 'current', 'autoscaling.v2.MetricValueStatus'],
  ],
  'autoscaling.v2.ContainerResourceMetricStatus': [
    [1, 'name', 'string'],
    [2, 'current', 'autoscaling.v2.MetricValueStatus'],
    [3, 'container', 'string'],
  ],
  'autoscaling.v2.ExternalMetricStatus': [
    [1, 'metric', 'autoscaling.v2.MetricIdentifier'],
    [2, 'current', 'autoscaling.v2.MetricValueStatus'],
  ],
  'autoscaling.v2.MetricIdentifier': [
    [1, 'name', 'string'],
    [2, 'selector', 'meta.LabelSelector', 'op'],
  ],
  'autoscaling.v2.MetricTarget': [
    [1, 'type', 'string'],
    [2, 'value', 'Quantity', 'op'],
    [3, 'averageValue', 'Quantity', 'op'],
    [4, 'averageUtilization', 'int32', 'op'],
  ],
  'autoscaling.v2.MetricValueStatus': [
    [1, 'value', 'Quantity', 'op'],
    [2, 'averageValue', 'Quantity', 'op'],
    [3, 'averageUtilization', 'int32', 'op'],
  ],
};
