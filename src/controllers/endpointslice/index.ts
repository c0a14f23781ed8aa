/**
 * The EndpointSlice controller (upstream `pkg/controller/endpointslice`) and its pure planner.
 * `endpointSliceController()` is what the controller manager runs.
 *
 * @module
 */
export {
  ENDPOINT_SLICE_COMPONENT,
  ENDPOINT_SLICE_CONTROLLER_NAME,
  type EndpointSliceControllerOptions,
  endpointSliceController,
} from './controller.js';
export { addressTypeOf, desiredGroups, podEndpoint, portsKey, slicePorts } from './desired.js';
export {
  isManagedSliceOf,
  planSlices,
  type SlicePlan,
  serviceOwnerRef,
  sliceLabels,
} from './plan.js';
export { WriteTracker } from './tracker.js';
export * from './types.js';
