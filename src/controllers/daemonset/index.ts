/**
 * The DaemonSet controller (upstream `pkg/controller/daemon`): one pod per eligible node, pinned
 * to it by node affinity for the scheduler to bind; ControllerRevision history; RollingUpdate
 * (maxUnavailable or maxSurge) and OnDelete. `daemonSetController()` is what the controller
 * manager runs.
 *
 * @module
 */
export {
  DAEMON_SET_CONTROLLER,
  DAEMON_SET_EVENT_COMPONENT,
  type DaemonSetControllerOptions,
  daemonSetController,
} from './controller.js';
export { syncDaemonSet } from './sync.js';
