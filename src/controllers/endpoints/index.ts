/**
 * The endpoint controller (upstream `pkg/controller/endpoint`) and its pure planner.
 * `endpointsController` is what the controller manager runs.
 *
 * @module
 */
export { ENDPOINT_CONTROLLER_NAME, ENDPOINTS_RESOURCE, endpointsController } from './controller.js';
export {
  canonicalSubsets,
  changed,
  type DesiredEndpoints,
  desiredEndpoints,
  endpointsToWrite,
  isHeadless,
  managesEndpoints,
} from './plan.js';
export { findPort, podAddress, shouldPodBeInEndpoints, shouldSetHostname } from './pod-address.js';
export { servicesForPod, servicesToUpdateOnPodChange } from './pod-services.js';
export { repackSubsets, sortSubsets, truncateSubsets } from './repack.js';
export { TriggerTimeTracker } from './trigger-time.js';
export * from './types.js';
