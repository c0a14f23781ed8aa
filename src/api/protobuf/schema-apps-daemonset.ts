/**
 * Protobuf schema tables: apps/v1 DaemonSet and its nested messages.
 *
 * Rows as in `schema-apps.ts` (`[field number, JSON name, type, flags]`, Go struct order), from
 * the Go types of k8s.io/api v0.33 and `apps/v1/generated.proto` (field 5 of DaemonSetSpec,
 * the old `templateGeneration`, is retired).
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for apps/v1 DaemonSet messages. */
export const appsDaemonSetTables: MessageTables = {
  /** k8s.io.api.apps.v1.DaemonSet */
  'apps.DaemonSet': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'apps.DaemonSetSpec', 'o'],
    [3, 'status', 'apps.DaemonSetStatus', 'o'],
  ],
  /** k8s.io.api.apps.v1.DaemonSetSpec */
  'apps.DaemonSetSpec': [
    [1, 'selector', 'meta.LabelSelector', 'p'],
    [2, 'template', 'core.PodTemplateSpec'],
    [3, 'updateStrategy', 'apps.DaemonSetUpdateStrategy', 'o'],
    [4, 'minReadySeconds', 'int32', 'o'],
    [6, 'revisionHistoryLimit', 'int32', 'op'],
  ],
  /** k8s.io.api.apps.v1.DaemonSetStatus: the first four counts are not omitempty. */
  'apps.DaemonSetStatus': [
    [1, 'currentNumberScheduled', 'int32'],
    [2, 'numberMisscheduled', 'int32'],
    [3, 'desiredNumberScheduled', 'int32'],
    [4, 'numberReady', 'int32'],
    [5, 'observedGeneration', 'int64', 'o'],
    [6, 'updatedNumberScheduled', 'int32', 'o'],
    [7, 'numberAvailable', 'int32', 'o'],
    [8, 'numberUnavailable', 'int32', 'o'],
    [9, 'collisionCount', 'int32', 'op'],
    [10, 'conditions', 'apps.DaemonSetCondition', 'or'],
  ],
  /** k8s.io.api.apps.v1.DaemonSetUpdateStrategy */
  'apps.DaemonSetUpdateStrategy': [
    [1, 'type', 'string', 'o'],
    [2, 'rollingUpdate', 'apps.RollingUpdateDaemonSet', 'op'],
  ],
  /** k8s.io.api.apps.v1.RollingUpdateDaemonSet */
  'apps.RollingUpdateDaemonSet': [
    [1, 'maxUnavailable', 'IntOrString', 'op'],
    [2, 'maxSurge', 'IntOrString', 'op'],
  ],
  /** k8s.io.api.apps.v1.DaemonSetCondition */
  'apps.DaemonSetCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
};
