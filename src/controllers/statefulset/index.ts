/**
 * The StatefulSet controller (upstream `pkg/controller/statefulset`): pods with stable names,
 * claims and ordered rollout, ControllerRevision history and the PVC retention policy.
 * `statefulSetController()` is what the controller manager runs.
 *
 * @module
 */
export {
  STATEFUL_SET_CONTROLLER,
  STATEFUL_SET_EVENT_COMPONENT,
  type StatefulSetControllerOptions,
  statefulSetController,
} from './controller.js';
export { syncStatefulSet } from './sync.js';
