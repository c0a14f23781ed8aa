/**
 * The HorizontalPodAutoscaler controller (upstream `pkg/controller/podautoscaler`) and its pure
 * parts: the replica calculator, the behavior normalization and the one-sync planner.
 * `horizontalPodAutoscalerController` is what the controller manager runs.
 *
 * @module
 */
export {
  DEFAULT_SYNC_PERIOD_MS,
  HPA_CONTROLLER_NAME,
  HPA_RESOURCE,
  type HpaControllerOptions,
  horizontalPodAutoscalerController,
} from './controller.js';
export {
  ApiPodMetricsSource,
  type PodMetricsItem,
  type PodMetricsSource,
  resourceMetrics,
} from './metrics-source.js';
export { type HpaOptions, planSync, type SyncInput, type SyncPlan } from './plan.js';
export { ApiScaleClient, type ScaleClient } from './scale-target.js';
