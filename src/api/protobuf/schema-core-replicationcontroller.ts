/**
 * Protobuf schema tables: core/v1 ReplicationController (a typed client may send it as
 * protobuf; `served-kinds.test.ts` wants every served kind decodable).
 *
 * Field numbers from k8s.io/api v0.33 `core/v1/generated.proto`; rows in Go struct order
 * (the spec's `minReadySeconds`, number 4, comes second; the status's `observedGeneration`,
 * number 3, comes fifth).
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 ReplicationController messages. */
export const coreReplicationControllerTables: MessageTables = {
  /** k8s.io.api.core.v1.ReplicationController */
  'core.ReplicationController': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.ReplicationControllerSpec', 'o'],
    [3, 'status', 'core.ReplicationControllerStatus', 'o'],
  ],
  'core.ReplicationControllerSpec': [
    [1, 'replicas', 'int32', 'op'],
    [4, 'minReadySeconds', 'int32', 'o'],
    [2, 'selector', 'string', 'om'],
    [3, 'template', 'core.PodTemplateSpec', 'op'],
  ],
  'core.ReplicationControllerStatus': [
    [1, 'replicas', 'int32'],
    [2, 'fullyLabeledReplicas', 'int32', 'o'],
    [4, 'readyReplicas', 'int32', 'o'],
    [5, 'availableReplicas', 'int32', 'o'],
    [3, 'observedGeneration', 'int64', 'o'],
    [6, 'conditions', 'core.ReplicationControllerCondition', 'or'],
  ],
  'core.ReplicationControllerCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
};
