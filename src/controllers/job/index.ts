/**
 * The Job controller (upstream `pkg/controller/job`): runs each Job's pods to completion,
 * NonIndexed or Indexed, with backoff limits (per Job and per index), pod failure and success
 * policies, active deadlines, suspension and exactly-once counting through the
 * `batch.kubernetes.io/job-tracking` finalizer. `jobController` is what `up` runs.
 *
 * @module
 */
export * from './constants.js';
export { createJobController, type JobControllerOptions, jobController } from './controller.js';
export { formatIndexSet, parseIndexSet } from './indexes.js';
export { isJobFinished, planJob } from './plan.js';
export type { JobPlan, JobSnapshot, PodToCreate } from './plan-types.js';
