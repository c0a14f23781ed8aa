/**
 * The disruption controller (upstream `pkg/controller/disruption`) and its pure planners.
 * `disruptionController` is what the controller manager runs.
 *
 * @module
 */
export { DISRUPTION_CONTROLLER_NAME, disruptionController } from './controller.js';
export { type ControllerScaleLookup, controllerScaleFromObjects } from './controller-scale.js';
export { type PdbEvent, type PdbStatusResult, pdbStatus } from './pdb-status.js';
export { STALE_POD_DISRUPTION_TIMEOUT_MS, staleDisruption } from './stale-disruption.js';
