/**
 * The ReplicaSet controller (upstream `pkg/controller/replicaset`): keeps `spec.replicas` active
 * pods per ReplicaSet, adopting and releasing pods by selector, and reports their counts in
 * `status`. `replicaSetController` is what the controller manager runs.
 *
 * @module
 */
export {
  createReplicaSetController,
  REPLICA_SET_CONTROLLER_NAME,
  type ReplicaSetControllerOptions,
  replicaSetController,
} from './controller.js';
export { BURST_REPLICAS, manageReplicas, replicaChange } from './manage-replicas.js';
export {
  FAILED_CREATE_REASON,
  FAILED_DELETE_REASON,
  SUCCESSFUL_CREATE_REASON,
  SUCCESSFUL_DELETE_REASON,
} from './pod-control.js';
export {
  availabilityRecheckSeconds,
  isPodActive,
  isPodAvailable,
  isPodReady,
  REPLICA_FAILURE_CONDITION,
  replicaSetStatus,
} from './status.js';
export { POD_DELETION_COST_ANNOTATION, podsToDelete, rankPodsForDeletion } from './victims.js';
