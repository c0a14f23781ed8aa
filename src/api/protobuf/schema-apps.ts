/**
 * Protobuf schema tables: apps/v1 messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for apps/v1 messages. */
export const appsTables: MessageTables = {
  /** k8s.io.api.apps.v1.Deployment */
  'apps.Deployment': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'apps.DeploymentSpec', 'o'],
    [3, 'status', 'apps.DeploymentStatus', 'o'],
  ],
  /** k8s.io.api.apps.v1.ReplicaSet */
  'apps.ReplicaSet': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'apps.ReplicaSetSpec', 'o'],
    [3, 'status', 'apps.ReplicaSetStatus', 'o'],
  ],
  /** k8s.io.api.apps.v1.StatefulSet */
  'apps.StatefulSet': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'apps.StatefulSetSpec', 'o'],
    [3, 'status', 'apps.StatefulSetStatus', 'o'],
  ],
  /** k8s.io.api.apps.v1.ControllerRevision */
  'apps.ControllerRevision': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'data', 'RawExtension', 'o'],
    [3, 'revision', 'int64'],
  ],
  /** k8s.io.api.apps.v1.DeploymentSpec */
  'apps.DeploymentSpec': [
    [1, 'replicas', 'int32', 'op'],
    [2, 'selector', 'meta.LabelSelector', 'p'],
    [3, 'template', 'core.PodTemplateSpec'],
    [4, 'strategy', 'apps.DeploymentStrategy', 'o'],
    [5, 'minReadySeconds', 'int32', 'o'],
    [6, 'revisionHistoryLimit', 'int32', 'op'],
    [7, 'paused', 'bool', 'o'],
    [9, 'progressDeadlineSeconds', 'int32', 'op'],
  ],
  /** k8s.io.api.apps.v1.DeploymentStatus */
  'apps.DeploymentStatus': [
    [1, 'observedGeneration', 'int64', 'o'],
    [2, 'replicas', 'int32', 'o'],
    [3, 'updatedReplicas', 'int32', 'o'],
    [7, 'readyReplicas', 'int32', 'o'],
    [4, 'availableReplicas', 'int32', 'o'],
    [5, 'unavailableReplicas', 'int32', 'o'],
    [9, 'terminatingReplicas', 'int32', 'op'],
    [6, 'conditions', 'apps.DeploymentCondition', 'or'],
    [8, 'collisionCount', 'int32', 'op'],
  ],
  /** k8s.io.api.apps.v1.ReplicaSetSpec */
  'apps.ReplicaSetSpec': [
    [1, 'replicas', 'int32', 'op'],
    [4, 'minReadySeconds', 'int32', 'o'],
    [2, 'selector', 'meta.LabelSelector', 'p'],
    [3, 'template', 'core.PodTemplateSpec', 'o'],
  ],
  /** k8s.io.api.apps.v1.ReplicaSetStatus */
  'apps.ReplicaSetStatus': [
    [1, 'replicas', 'int32'],
    [2, 'fullyLabeledReplicas', 'int32', 'o'],
    [4, 'readyReplicas', 'int32', 'o'],
    [5, 'availableReplicas', 'int32', 'o'],
    [7, 'terminatingReplicas', 'int32', 'op'],
    [3, 'observedGeneration', 'int64', 'o'],
    [6, 'conditions', 'apps.ReplicaSetCondition', 'or'],
  ],
  /** k8s.io.api.apps.v1.StatefulSetSpec */
  'apps.StatefulSetSpec': [
    [1, 'replicas', 'int32', 'op'],
    [2, 'selector', 'meta.LabelSelector', 'p'],
    [3, 'template', 'core.PodTemplateSpec'],
    [4, 'volumeClaimTemplates', 'core.PersistentVolumeClaim', 'or'],
    [5, 'serviceName', 'string'],
    [6, 'podManagementPolicy', 'string', 'o'],
    [7, 'updateStrategy', 'apps.StatefulSetUpdateStrategy', 'o'],
    [8, 'revisionHistoryLimit', 'int32', 'op'],
    [9, 'minReadySeconds', 'int32', 'o'],
    [
      10,
      'persistentVolumeClaimRetentionPolicy',
      'apps.StatefulSetPersistentVolumeClaimRetentionPolicy',
      'op',
    ],
    [11, 'ordinals', 'apps.StatefulSetOrdinals', 'op'],
  ],
  /** k8s.io.api.apps.v1.StatefulSetStatus */
  'apps.StatefulSetStatus': [
    [1, 'observedGeneration', 'int64', 'o'],
    [2, 'replicas', 'int32'],
    [3, 'readyReplicas', 'int32', 'o'],
    [4, 'currentReplicas', 'int32', 'o'],
    [5, 'updatedReplicas', 'int32', 'o'],
    [6, 'currentRevision', 'string', 'o'],
    [7, 'updateRevision', 'string', 'o'],
    [9, 'collisionCount', 'int32', 'op'],
    [10, 'conditions', 'apps.StatefulSetCondition', 'or'],
    [11, 'availableReplicas', 'int32'],
  ],
  /** k8s.io.api.apps.v1.DeploymentStrategy */
  'apps.DeploymentStrategy': [
    [1, 'type', 'string', 'o'],
    [2, 'rollingUpdate', 'apps.RollingUpdateDeployment', 'op'],
  ],
  /** k8s.io.api.apps.v1.DeploymentCondition */
  'apps.DeploymentCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [6, 'lastUpdateTime', 'Time', 'o'],
    [7, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.apps.v1.ReplicaSetCondition */
  'apps.ReplicaSetCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.apps.v1.StatefulSetUpdateStrategy */
  'apps.StatefulSetUpdateStrategy': [
    [1, 'type', 'string', 'o'],
    [2, 'rollingUpdate', 'apps.RollingUpdateStatefulSetStrategy', 'op'],
  ],
  /** k8s.io.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy */
  'apps.StatefulSetPersistentVolumeClaimRetentionPolicy': [
    [1, 'whenDeleted', 'string', 'o'],
    [2, 'whenScaled', 'string', 'o'],
  ],
  /** k8s.io.api.apps.v1.StatefulSetOrdinals */
  'apps.StatefulSetOrdinals': [[1, 'start', 'int32']],
  /** k8s.io.api.apps.v1.StatefulSetCondition */
  'apps.StatefulSetCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.apps.v1.RollingUpdateDeployment */
  'apps.RollingUpdateDeployment': [
    [1, 'maxUnavailable', 'IntOrString', 'op'],
    [2, 'maxSurge', 'IntOrString', 'op'],
  ],
  /** k8s.io.api.apps.v1.RollingUpdateStatefulSetStrategy */
  'apps.RollingUpdateStatefulSetStrategy': [
    [1, 'partition', 'int32', 'op'],
    [2, 'maxUnavailable', 'IntOrString', 'op'],
  ],
};
