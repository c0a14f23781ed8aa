/**
 * Names the Job controller shares with the API and with users (upstream
 * `k8s.io/api/batch/v1` constants and `pkg/controller/job` reasons): pod labels and
 * annotations, the tracking finalizer, condition types, reasons and messages.
 *
 * @module
 */
import type { GroupVersionKind } from '../../controller/controller-ref.js';

export const JOB_CONTROLLER_NAME = 'job-controller';
/** The kind the controller's pod refs carry. */
export const JOB_KIND: GroupVersionKind = { group: 'batch', version: 'v1', kind: 'Job' };
/** The jobs resource for client calls. */
export const JOBS = { group: 'batch', version: 'v1', plural: 'jobs' } as const;

/** Upstream `batch.JobTrackingFinalizer`: keeps a finished pod until the Job counted it. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** Annotation and label with a pod's completion index (Indexed Jobs). */
export const COMPLETION_INDEX_KEY = 'batch.kubernetes.io/job-completion-index';
/** How many counted failures the index had before this pod (backoffLimitPerIndex). */
export const INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
/** How many failures of the index a podFailurePolicy Ignore rule did not count. */
export const INDEX_IGNORED_FAILURE_COUNT_ANNOTATION =
  'batch.kubernetes.io/job-index-ignored-failure-count';
/** The env var upstream adds to every container of an Indexed Job's pods. */
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** `spec.managedBy` value (or absence) that this controller reconciles. */
export const JOB_CONTROLLER_MANAGER = 'kubernetes.io/job-controller';

/** Upstream `MaxPodCreateDeletePerSync`. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
/** Upstream `DefaultJobPodFailureBackOff` and `MaxJobPodFailureBackOff`: 10 s doubling to 6 min. */
export const POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 6 * 60_000;

export const REASON = {
  backoffLimitExceeded: 'BackoffLimitExceeded',
  deadlineExceeded: 'DeadlineExceeded',
  podFailurePolicy: 'PodFailurePolicy',
  maxFailedIndexesExceeded: 'MaxFailedIndexesExceeded',
  failedIndexes: 'FailedIndexes',
  completionsReached: 'CompletionsReached',
  successPolicy: 'SuccessPolicy',
  suspended: 'JobSuspended',
  resumed: 'JobResumed',
} as const;

export const MESSAGE = {
  backoffLimitExceeded: 'Job has reached the specified backoff limit',
  deadlineExceeded: 'Job was active longer than specified deadline',
  maxFailedIndexesExceeded: 'Job has exceeded the specified maximum number of failed indexes',
  failedIndexes: 'Job has failed indexes',
  completionsReached: 'Reached expected number of succeeded pods',
  suspended: 'Job suspended',
  resumed: 'Job resumed',
} as const;
