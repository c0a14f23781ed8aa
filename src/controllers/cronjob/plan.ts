/**
 * One CronJob sync, decided without I/O (upstream `cronjob_controllerv2.go: sync`,
 * `cleanupFinishedJobs`, `syncCronJob`): from the CronJob, the Jobs it controls, which of its
 * active Jobs the API confirmed gone, and now, the plan says which finished Jobs to delete
 * beyond the history limits, what the status becomes, which events to record, and whether to
 * replace running Jobs and create one for a scheduled time; `sync.ts` applies it.
 *
 * Order, as upstream: history cleanup; the Jobs' outcomes (`SawCompletedJob`,
 * `lastSuccessfulTime`, `UnexpectedJob`, `MissingJob`); then, unless the CronJob is being
 * deleted, has an unknown zone, is suspended or has a schedule that does not parse, the owed
 * time: missed beyond `startingDeadlineSeconds` (`MissSchedule`), already run, held back by
 * `Forbid` (`JobAlreadyActive`), or run (after deleting the active Jobs under `Replace`).
 *
 * @module
 */

import type { CronSchedule } from '../../api/kinds/batch-cronjob-schedule.js';
import type { CronJob, CronJobStatus, Job } from '../../api/model/batch.generated.js';
import type { ObjectReference } from '../../api/model/index.js';
import { parseTime } from '../../api/time.js';
import type { EventType } from '../../controller/events.js';
import { jobFromTemplate, jobNameFor } from './job-template.js';
import { nextScheduleDelay, owedScheduleTime, type ScheduleTimes } from './missed.js';
import { cronJobSchedule } from './schedule.js';

export interface PlanInput {
  readonly cronJob: CronJob;
  /** The Jobs whose controller reference names this CronJob. */
  readonly jobs: readonly Job[];
  /** UIDs in `status.active` whose Job the API answered NotFound for. */
  readonly missing: ReadonlySet<string>;
  readonly now: number;
}

export interface PlanEvent {
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
}

/** The Job to create for `scheduledTime`, and the requeue once it is recorded. */
export interface PlannedCreate {
  readonly job: Job;
  readonly scheduledTime: number;
  readonly requeueAfter: number;
}

export interface Plan {
  /** Finished Jobs beyond the history limits, oldest first (their events come first). */
  readonly historyDeletes: readonly Job[];
  /** The status after the Jobs' outcomes, before the replace deletes and the create. */
  readonly status: CronJobStatus;
  readonly events: readonly PlanEvent[];
  /** Active Jobs to delete before the create (`concurrencyPolicy: Replace`). */
  readonly replace: readonly ObjectReference[];
  readonly create?: PlannedCreate;
  /** Milliseconds until the next sync when nothing is created; undefined: wait for a change. */
  readonly requeueAfter?: number;
}

/** Upstream `getFinishedStatus`: the first Complete or Failed condition that is True. */
export function finishedCondition(job: Job): 'Complete' | 'Failed' | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return undefined;
}

/** Upstream `byJobStartTime`: by start time (unstarted last), then by name. */
function byStartTime(a: Job, b: Job): number {
  const sa = parseTime(a.status?.startTime);
  const sb = parseTime(b.status?.startTime);
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa !== sb) return (sa ?? 0) - (sb ?? 0);
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
}

/** Upstream `cleanupFinishedJobs` / `removeOldestJobs`. */
export function jobsBeyondHistory(cronJob: CronJob, jobs: readonly Job[]): Job[] {
  const spec = cronJob.spec;
  const oldest = (outcome: 'Complete' | 'Failed', limit: number | undefined): Job[] => {
    if (limit === undefined) return [];
    const finished = jobs.filter((j) => finishedCondition(j) === outcome).sort(byStartTime);
    return finished.slice(0, Math.max(0, finished.length - limit));
  };
  return [
    ...oldest('Complete', spec?.successfulJobsHistoryLimit),
    ...oldest('Failed', spec?.failedJobsHistoryLimit),
  ];
}

function uidOf(obj: { metadata?: { uid?: string } }): string {
  return obj.metadata?.uid ?? '';
}

/** `lastSuccessfulTime` after a succeeded Job: its completion time when that is later. */
function laterCompletion(last: string | undefined, job: Job): string | undefined {
  const completed = job.status?.completionTime;
  if (completed === undefined) return last;
  const lastMs = parseTime(last);
  return lastMs === undefined || (parseTime(completed) ?? 0) > lastMs ? completed : last;
}

/** The Jobs' outcomes on the status (the first half of upstream `syncCronJob`). */
function observeJobs(input: PlanInput, deleted: ReadonlySet<string>, events: PlanEvent[]) {
  let active = (input.cronJob.status?.active ?? []).filter((r) => !deleted.has(r.uid ?? ''));
  let lastSuccessful = input.cronJob.status?.lastSuccessfulTime;
  const jobs = [...input.jobs].sort((a, b) =>
    (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1,
  );
  for (const job of jobs) {
    const name = job.metadata?.name ?? '';
    const found = active.some((r) => r.uid === uidOf(job));
    const finished = finishedCondition(job);
    if (!found && finished === undefined) {
      events.push({
        type: 'Warning',
        reason: 'UnexpectedJob',
        message: `Saw a job that the controller did not create or forgot: ${name}`,
      });
      continue;
    }
    if (finished === undefined) continue;
    if (found) {
      active = active.filter((r) => r.uid !== uidOf(job));
      events.push({
        type: 'Normal',
        reason: 'SawCompletedJob',
        message: `Saw completed job: ${name}, condition: ${finished}`,
      });
    }
    if (finished === 'Complete') lastSuccessful = laterCompletion(lastSuccessful, job);
  }
  for (const ref of active.filter((r) => input.missing.has(r.uid ?? ''))) {
    events.push({
      type: 'Normal',
      reason: 'MissingJob',
      message: `Active job went missing: ${ref.name ?? ''}`,
    });
    active = active.filter((r) => r.uid !== ref.uid);
  }
  const status: CronJobStatus = { ...input.cronJob.status, active };
  if (active.length === 0) delete status.active;
  if (lastSuccessful !== undefined) status.lastSuccessfulTime = lastSuccessful;
  return status;
}

/** Go's `time.RFC1123Z` in UTC, as the MissSchedule event prints the time. */
function rfc1123z(t: number): string {
  const d = new Date(t);
  const [wd, day, mon, year, time] = d.toUTCString().replace(',', '').split(' ');
  return `${wd}, ${day} ${mon} ${year} ${time} +0000`;
}

/** Plans one sync of `input.cronJob`. */
export function planCronJob(input: PlanInput): Plan {
  const { cronJob } = input;
  const historyDeletes = jobsBeyondHistory(cronJob, input.jobs);
  const events: PlanEvent[] = [];
  const status = observeJobs(input, new Set(historyDeletes.map(uidOf)), events);
  const done = (requeueAfter?: number): Plan => ({
    historyDeletes,
    status,
    events,
    replace: [],
    ...(requeueAfter === undefined ? {} : { requeueAfter }),
  });
  const spec = cronJob.spec;
  if (cronJob.metadata?.deletionTimestamp != null || spec === undefined) return done();
  const parsed = cronJobSchedule(spec);
  if ('reason' in parsed && parsed.reason === 'UnknownTimeZone') {
    events.push({ type: 'Warning', ...parsed });
    return done();
  }
  if (spec.suspend === true) return done();
  if ('reason' in parsed) {
    events.push({ type: 'Warning', ...parsed });
    return done();
  }
  if (parsed.usesTZ)
    events.push({
      type: 'Warning',
      reason: 'UnsupportedSchedule',
      message: `CRON_TZ or TZ used in schedule ${JSON.stringify(spec.schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
    });
  return { ...done(), ...planOwed(input, status, parsed.schedule, events) };
}

/** The owed time's part of the plan: requeue only, a miss, Forbid, or a create. */
function planOwed(
  input: PlanInput,
  status: CronJobStatus,
  schedule: CronSchedule,
  events: PlanEvent[],
): Pick<Plan, 'replace' | 'create' | 'requeueAfter'> {
  const { cronJob, now } = input;
  const spec = cronJob.spec ?? { schedule: '', jobTemplate: {} };
  const stop = (requeueAfter?: number) => ({
    replace: [],
    ...(requeueAfter === undefined ? {} : { requeueAfter }),
  });
  const lastScheduleTime = parseTime(status.lastScheduleTime);
  const deadline = spec.startingDeadlineSeconds;
  const times: ScheduleTimes = {
    creationTime: parseTime(cronJob.metadata?.creationTimestamp) ?? now,
    ...(lastScheduleTime === undefined ? {} : { lastScheduleTime }),
    ...(deadline === undefined ? {} : { startingDeadlineSeconds: deadline }),
  };
  const owed = owedScheduleTime(times, now, schedule);
  if (owed.tooMany)
    events.push({
      type: 'Warning',
      reason: 'TooManyMissedTimes',
      message:
        'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    });
  if (owed.error !== undefined) {
    events.push({
      type: 'Warning',
      reason: 'InvalidSchedule',
      message: `invalid schedule: ${spec.schedule} : ${owed.error}`,
    });
    return stop();
  }
  const requeue = () => nextScheduleDelay(times, now, schedule);
  const scheduled = owed.time;
  if (scheduled === undefined) return stop(requeue());
  if (deadline !== undefined && scheduled + deadline * 1000 < now) {
    events.push({
      type: 'Warning',
      reason: 'MissSchedule',
      message: `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`,
    });
    return stop(requeue());
  }
  const name = jobNameFor(cronJob.metadata?.name ?? '', scheduled);
  const active = status.active ?? [];
  if (active.some((r) => r.name === name) || lastScheduleTime === scheduled) return stop(requeue());
  if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
    events.push({
      type: 'Normal',
      reason: 'JobAlreadyActive',
      message:
        'Not starting job because prior execution is running and concurrency policy is Forbid',
    });
    return stop(requeue());
  }
  const after = nextScheduleDelay({ ...times, lastScheduleTime: scheduled }, now, schedule);
  return {
    replace: spec.concurrencyPolicy === 'Replace' ? active : [],
    create: {
      job: jobFromTemplate(cronJob, scheduled),
      scheduledTime: scheduled,
      requeueAfter: after,
    },
  };
}
