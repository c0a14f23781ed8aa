/**
 * The ReplicationController controller: upstream's ReplicaSet controller run on RCs through a
 * conversion adapter (`pkg/controller/replication`). `replicationControllerController` is what
 * the controller manager runs.
 *
 * @module
 */
export { REPLICATION_CONTROLLER_KIND, rcSelector, replicaSetView } from './adapter.js';
export { REPLICATION_CONTROLLER_NAME, replicationControllerController } from './controller.js';
export { rcPodControl, syncReplicationController } from './sync.js';
