/**
 * The CronJob controller (upstream `pkg/controller/cronjob`, the v2 controller): creates a Job
 * for each scheduled time of each CronJob (robfig/cron schedules, `spec.timeZone`, DST as
 * robfig), honouring `suspend`, `startingDeadlineSeconds` and `concurrencyPolicy`, trims
 * finished Jobs to the history limits, and keeps `status.active`, `lastScheduleTime` and
 * `lastSuccessfulTime`. `cronJobController` is what the controller manager runs.
 *
 * @module
 */
export {
  CRON_JOB_CONTROLLER_NAME,
  type CronJobControllerOptions,
  createCronJobController,
  cronJobController,
} from './controller.js';
export {
  CRON_JOB_KIND,
  jobFromTemplate,
  jobNameFor,
  SCHEDULED_TIMESTAMP_ANNOTATION,
} from './job-template.js';
export { mostRecentScheduleTime, nextScheduleDelay, owedScheduleTime } from './missed.js';
export { finishedCondition, type Plan, type PlanInput, planCronJob } from './plan.js';
export { cronJobSchedule, nextTime } from './schedule.js';
