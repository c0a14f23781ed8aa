/**
 * Protobuf schema tables: batch/v1 messages (Job, CronJob and what they hold). kubectl 1.33's
 * `create job` and `create cronjob` send their objects as protobuf.
 *
 * Field numbers from k8s.io/api v0.33 `batch/v1/generated.proto`; rows in Go struct order
 * (which upstream JSON follows), `omitempty` and pointers from the Go types' tags.
 * The messages are filed as `core.batch.*` only because `TableGroup` in `schema.ts` has no
 * `batch` yet; the names are internal (never on the wire) and become `batch.*` once that group
 * is added. List messages are left out: a list is never a request body.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for batch/v1 messages. */
export const batchTables: MessageTables = {
  /** k8s.io.api.batch.v1.Job */
  'core.batch.Job': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.batch.JobSpec', 'o'],
    [3, 'status', 'core.batch.JobStatus', 'o'],
  ],
  /** k8s.io.api.batch.v1.JobSpec */
  'core.batch.JobSpec': [
    [1, 'parallelism', 'int32', 'op'],
    [2, 'completions', 'int32', 'op'],
    [3, 'activeDeadlineSeconds', 'int64', 'op'],
    [11, 'podFailurePolicy', 'core.batch.PodFailurePolicy', 'op'],
    [16, 'successPolicy', 'core.batch.SuccessPolicy', 'op'],
    [7, 'backoffLimit', 'int32', 'op'],
    [12, 'backoffLimitPerIndex', 'int32', 'op'],
    [13, 'maxFailedIndexes', 'int32', 'op'],
    [4, 'selector', 'meta.LabelSelector', 'op'],
    [5, 'manualSelector', 'bool', 'op'],
    [6, 'template', 'core.PodTemplateSpec'],
    [8, 'ttlSecondsAfterFinished', 'int32', 'op'],
    [9, 'completionMode', 'string', 'op'],
    [10, 'suspend', 'bool', 'op'],
    [14, 'podReplacementPolicy', 'string', 'op'],
    [15, 'managedBy', 'string', 'op'],
  ],
  /** k8s.io.api.batch.v1.JobStatus */
  'core.batch.JobStatus': [
    [1, 'conditions', 'core.batch.JobCondition', 'or'],
    [2, 'startTime', 'Time', 'op'],
    [3, 'completionTime', 'Time', 'op'],
    [4, 'active', 'int32', 'o'],
    [5, 'succeeded', 'int32', 'o'],
    [6, 'failed', 'int32', 'o'],
    [11, 'terminating', 'int32', 'op'],
    [7, 'completedIndexes', 'string', 'o'],
    [10, 'failedIndexes', 'string', 'op'],
    [8, 'uncountedTerminatedPods', 'core.batch.UncountedTerminatedPods', 'op'],
    [9, 'ready', 'int32', 'op'],
  ],
  /** k8s.io.api.batch.v1.JobCondition */
  'core.batch.JobCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastProbeTime', 'Time', 'o'],
    [4, 'lastTransitionTime', 'Time', 'o'],
    [5, 'reason', 'string', 'o'],
    [6, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.batch.v1.PodFailurePolicy */
  'core.batch.PodFailurePolicy': [[1, 'rules', 'core.batch.PodFailurePolicyRule', 'r']],
  /** k8s.io.api.batch.v1.PodFailurePolicyRule */
  'core.batch.PodFailurePolicyRule': [
    [1, 'action', 'string'],
    [2, 'onExitCodes', 'core.batch.PodFailurePolicyOnExitCodesRequirement', 'op'],
    [3, 'onPodConditions', 'core.batch.PodFailurePolicyOnPodConditionsPattern', 'or'],
  ],
  /** k8s.io.api.batch.v1.PodFailurePolicyOnExitCodesRequirement */
  'core.batch.PodFailurePolicyOnExitCodesRequirement': [
    [1, 'containerName', 'string', 'op'],
    [2, 'operator', 'string'],
    [3, 'values', 'int32', 'r'],
  ],
  /** k8s.io.api.batch.v1.PodFailurePolicyOnPodConditionsPattern */
  'core.batch.PodFailurePolicyOnPodConditionsPattern': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
  ],
  /** k8s.io.api.batch.v1.SuccessPolicy */
  'core.batch.SuccessPolicy': [[1, 'rules', 'core.batch.SuccessPolicyRule', 'r']],
  /** k8s.io.api.batch.v1.SuccessPolicyRule */
  'core.batch.SuccessPolicyRule': [
    [1, 'succeededIndexes', 'string', 'op'],
    [2, 'succeededCount', 'int32', 'op'],
  ],
  /** k8s.io.api.batch.v1.UncountedTerminatedPods */
  'core.batch.UncountedTerminatedPods': [
    [1, 'succeeded', 'string', 'or'],
    [2, 'failed', 'string', 'or'],
  ],
  /** k8s.io.api.batch.v1.JobTemplateSpec */
  'core.batch.JobTemplateSpec': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.batch.JobSpec', 'o'],
  ],
  /** k8s.io.api.batch.v1.CronJob */
  'core.batch.CronJob': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.batch.CronJobSpec', 'o'],
    [3, 'status', 'core.batch.CronJobStatus', 'o'],
  ],
  /** k8s.io.api.batch.v1.CronJobSpec */
  'core.batch.CronJobSpec': [
    [1, 'schedule', 'string'],
    [8, 'timeZone', 'string', 'op'],
    [2, 'startingDeadlineSeconds', 'int64', 'op'],
    [3, 'concurrencyPolicy', 'string', 'o'],
    [4, 'suspend', 'bool', 'op'],
    [5, 'jobTemplate', 'core.batch.JobTemplateSpec'],
    [6, 'successfulJobsHistoryLimit', 'int32', 'op'],
    [7, 'failedJobsHistoryLimit', 'int32', 'op'],
  ],
  /** k8s.io.api.batch.v1.CronJobStatus */
  'core.batch.CronJobStatus': [
    [1, 'active', 'core.ObjectReference', 'or'],
    [4, 'lastScheduleTime', 'Time', 'op'],
    [5, 'lastSuccessfulTime', 'Time', 'op'],
  ],
};
