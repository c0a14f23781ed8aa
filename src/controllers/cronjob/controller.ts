/**
 * The CronJob controller's wiring (upstream `cronjob_controllerv2.go: NewControllerV2`, `Run`
 * and the handlers): informers on CronJobs and Jobs; a Job's events enqueue the CronJob its
 * controller reference names (the UID must match); a CronJob whose schedule or zone changed
 * is enqueued at its next scheduled time (an unparseable one gets an
 * `UnParseableCronJobSchedule` event instead), any other change at once. Workers run
 * {@link syncCronJob}, which requeues each CronJob at its next time on the injected clock, so
 * the virtual clock (`fleetyard up --clock virtual`) drives the schedules.
 *
 * The Jobs it creates are run by the Job controller.
 *
 * @module
 */
import type { CronJob, Job } from '../../api/model/batch.generated.js';
import type { OwnerReference } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import { deletedObject, type Lister } from '../../client/shared-informer.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import type { EventRecorder } from '../../controller/events.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { nextScheduleDelay } from './missed.js';
import { cronJobSchedule } from './schedule.js';
import { CRON_JOBS, JOBS, syncCronJob } from './sync.js';

/** The controller's name in `--controllers`, logs and metrics, and its events' source. */
export const CRON_JOB_CONTROLLER_NAME = 'cronjob-controller';

export interface CronJobControllerOptions {
  /** Concurrent syncs (kube-controller-manager's `--concurrent-cron-job-syncs`). @default 5 */
  readonly workers?: number;
}

function keyOf(obj: { metadata?: { namespace?: string; name?: string } }): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/** Upstream `resolveControllerRef`: the CronJob a Job's controller reference points at. */
function resolve(
  cronJobs: Lister<CronJob>,
  namespace: string,
  ref: OwnerReference | undefined,
): CronJob | undefined {
  if (ref?.kind !== 'CronJob') return undefined;
  const cronJob = cronJobs.get(namespace, ref.name);
  return cronJob?.metadata?.uid === ref.uid ? cronJob : undefined;
}

/**
 * Upstream `updateCronJob`: the delay until the next time when the schedule or zone changed
 * (undefined: the schedule does not parse, and an event says so), else 0.
 */
export function delayAfterUpdate(
  old: CronJob,
  cur: CronJob,
  now: number,
  recorder: EventRecorder,
): number | undefined {
  const spec = cur.spec;
  if (spec === undefined) return 0;
  if (old.spec?.schedule === spec.schedule && old.spec?.timeZone === spec.timeZone) return 0;
  // Upstream `formatSchedule`: an unknown zone leaves the schedule as written.
  let withZone = cronJobSchedule(spec);
  if ('reason' in withZone && withZone.reason === 'UnknownTimeZone')
    withZone = cronJobSchedule({ schedule: spec.schedule });
  if ('reason' in withZone) {
    recorder.event(
      cur,
      'Warning',
      'UnParseableCronJobSchedule',
      `unparseable schedule for cronjob: ${spec.schedule}`,
    );
    return undefined;
  }
  const lastScheduleTime = parseTime(cur.status?.lastScheduleTime);
  const times = {
    creationTime: parseTime(cur.metadata?.creationTimestamp) ?? now,
    ...(lastScheduleTime === undefined ? {} : { lastScheduleTime }),
  };
  return Math.max(0, nextScheduleDelay(times, now, withZone.schedule));
}

/** A CronJob controller definition with the given options. */
export function createCronJobController(
  options: CronJobControllerOptions = {},
): ControllerDefinition {
  return { name: CRON_JOB_CONTROLLER_NAME, start: (ctx) => run(ctx, options) };
}

async function run(ctx: ControllerContext, options: CronJobControllerOptions): Promise<void> {
  const cronJobInformer = kindInformer(ctx.informers.informer(CRON_JOBS), 'CronJob');
  const jobInformer = kindInformer(ctx.informers.informer(JOBS), 'Job');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'cronjob',
    metrics: ctx.metrics.queue,
  });
  const recorder = ctx.eventRecorder(CRON_JOB_CONTROLLER_NAME);
  const cronJobs = cronJobInformer.lister;
  const own = new OwnWrites<CronJob>();
  const enqueueOwner = (job: Job, ref = controllerRefOf(job)): void => {
    const owner = resolve(cronJobs, job.metadata?.namespace ?? '', ref);
    if (owner !== undefined) queue.add(keyOf(owner));
  };
  const registrations = [
    cronJobInformer.addEventHandler({
      onAdd: (cj) => queue.add(keyOf(cj)),
      onUpdate: (old, cur) => {
        const delay = delayAfterUpdate(old, cur, ctx.clock.now(), recorder);
        if (delay === 0) queue.add(keyOf(cur));
        else if (delay !== undefined) queue.addAfter(keyOf(cur), delay);
      },
      onDelete: (deleted) => {
        const cj = deletedObject(deleted);
        own.forget(keyOf(cj), cj.metadata?.uid);
        queue.add(keyOf(cj));
      },
    }),
    jobInformer.addEventHandler({
      onAdd: (job) => enqueueOwner(job),
      onUpdate: (old, cur) => {
        if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
        const oldRef = controllerRefOf(old);
        const curRef = controllerRefOf(cur);
        if (oldRef !== undefined && JSON.stringify(oldRef) !== JSON.stringify(curRef))
          enqueueOwner(old, oldRef);
        enqueueOwner(cur, curRef);
      },
      onDelete: (deleted) => enqueueOwner(deletedObject(deleted)),
    }),
  ];
  try {
    const informers = [cronJobInformer.informer, jobInformer.informer];
    if (!(await ctx.informers.waitForSync(informers, ctx.signal))) return;
    const deps = {
      client: ctx.client,
      cronJobs,
      jobs: jobInformer.lister,
      recorder,
      clock: ctx.clock,
      own,
    };
    await runController({
      name: CRON_JOB_CONTROLLER_NAME,
      queue,
      reconcile: (key) => syncCronJob(deps, key),
      workers: options.workers ?? 5,
      clock: ctx.clock,
      log: ctx.log,
      metrics: ctx.metrics.controller,
      signal: ctx.signal,
    });
  } finally {
    for (const r of registrations) r.remove();
    queue.shutdown();
  }
}

/** The CronJob controller with upstream defaults (5 workers). */
export const cronJobController: ControllerDefinition = createCronJobController();
