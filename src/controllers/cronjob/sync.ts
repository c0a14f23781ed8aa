/**
 * One sync of one CronJob key (upstream `cronjob_controllerv2.go: sync`): read the CronJob and
 * the Jobs that name it as controller from the caches, confirm with the API what the caches
 * may not have seen yet (a fresh CronJob when an unfinished Job is not in `status.active`; a
 * GET for each active Job missing from the cache), plan with {@link planCronJob}, apply the
 * plan (history deletes, events, replace deletes, the create), write `/status` if it changed
 * (also after an error, as upstream), and requeue at the next scheduled time on the clock.
 *
 * A create that answers AlreadyExists means the name lock worked: the Job for that time was
 * created before (by this controller before a crash, if it is ours) and is recorded in the
 * status now if it is ours and not there yet.
 *
 * @module
 */
import type { CronJob, CronJobStatus, Job } from '../../api/model/batch.generated.js';
import { asKind, type ObjectReference } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import type { ApiClient } from '../../client/api-client.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/api-errors.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import type { Lister } from '../../client/shared-informer.js';
import { splitKey } from '../../client/store.js';
import type { ReconcileResult } from '../../controller/controller.js';
import { controllerRefOf, isControlledBy } from '../../controller/controller-ref.js';
import type { EventRecorder } from '../../controller/events.js';
import type { OwnWrites } from '../../controller/own-writes.js';
import type { Clock } from '../../util/clock.js';
import { jobReference } from './job-template.js';
import { finishedCondition, type Plan, type PlannedCreate, planCronJob } from './plan.js';

export const JOBS = { group: 'batch', version: 'v1', plural: 'jobs' } as const;
export const CRON_JOBS = { group: 'batch', version: 'v1', plural: 'cronjobs' } as const;

export interface SyncDeps {
  readonly client: ApiClient;
  readonly cronJobs: Lister<CronJob>;
  readonly jobs: Lister<Job>;
  readonly recorder: EventRecorder;
  readonly clock: Pick<Clock, 'now'>;
  /** This controller's status writes the cache has not echoed yet (read-your-own-writes). */
  readonly own: OwnWrites<CronJob>;
}

/** Upstream `getJobsToBeReconciled`: every Job whose controller reference names the CronJob. */
export function ownedJobs(jobs: readonly Job[], cronJob: CronJob): Job[] {
  return jobs.filter((j) => {
    const ref = controllerRefOf(j);
    return ref?.kind === 'CronJob' && ref.name === cronJob.metadata?.name;
  });
}

function inActive(cronJob: CronJob, uid: string | undefined): boolean {
  return (cronJob.status?.active ?? []).some((r) => r.uid === uid);
}

/** A fresh CronJob when the cache may lag behind our own status write (undefined: gone). */
async function freshIfUnexpected(
  deps: SyncDeps,
  cached: CronJob,
  jobs: readonly Job[],
): Promise<CronJob | undefined> {
  const unexpected = jobs.some(
    (j) => finishedCondition(j) === undefined && !inActive(cached, j.metadata?.uid),
  );
  if (!unexpected) return cached;
  try {
    return asKind(await deps.client.get(cronJobRef(cached)), 'CronJob');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** UIDs of active Jobs the cache lacks and the API answers NotFound for. */
async function confirmMissing(
  deps: SyncDeps,
  cronJob: CronJob,
  jobs: readonly Job[],
): Promise<Set<string>> {
  const known = new Set(jobs.map((j) => j.metadata?.uid));
  const missing = new Set<string>();
  for (const ref of cronJob.status?.active ?? []) {
    if (known.has(ref.uid)) continue;
    try {
      await deps.client.get({ ...JOBS, namespace: ref.namespace ?? '', name: ref.name ?? '' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      missing.add(ref.uid ?? '');
    }
  }
  return missing;
}

function cronJobRef(cronJob: CronJob) {
  return {
    ...CRON_JOBS,
    namespace: cronJob.metadata?.namespace ?? '',
    name: cronJob.metadata?.name ?? '',
  };
}

/** Reconciles the CronJob `key` (`<namespace>/<name>`). */
export async function syncCronJob(deps: SyncDeps, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  // Our last status write while the cache lags: planning from the version it replaced would
  // see finished Jobs as still active and record their events twice.
  const cached = deps.own.newest(key, deps.cronJobs.get(namespace, name));
  if (cached === undefined) return {};
  const jobs = ownedJobs(deps.jobs.listInNamespace(namespace), cached);
  const cronJob = await freshIfUnexpected(deps, cached, jobs);
  if (cronJob === undefined) return {};
  const missing = await confirmMissing(deps, cronJob, jobs);
  const plan = planCronJob({ cronJob, jobs, missing, now: deps.clock.now() });
  const status: CronJobStatus = { ...plan.status, active: [...(plan.status.active ?? [])] };
  for (const job of plan.historyDeletes) await deleteJob(deps, cronJob, job, status);
  for (const e of plan.events) deps.recorder.event(cronJob, e.type, e.reason, e.message);
  let requeueAfter = plan.requeueAfter;
  let failure: unknown;
  try {
    requeueAfter = await runJobs(deps, cronJob, plan, status);
  } catch (err) {
    failure = err;
  }
  if ((status.active ?? []).length === 0) delete status.active;
  await writeStatus(deps, key, cronJob, status);
  if (failure !== undefined) throw failure;
  return requeueAfter === undefined ? {} : { requeueAfter: Math.max(0, requeueAfter) };
}

/** The replace deletes, then the create; the requeue the outcome asks for. */
async function runJobs(
  deps: SyncDeps,
  cronJob: CronJob,
  plan: Plan,
  status: CronJobStatus,
): Promise<number | undefined> {
  for (const ref of plan.replace) {
    const job: Job = {
      metadata: { name: ref.name ?? '', namespace: ref.namespace ?? '', uid: ref.uid ?? '' },
    };
    if (!(await deleteJob(deps, cronJob, job, status)))
      throw new Error(`could not replace job ${ref.namespace}/${ref.name}`);
  }
  if (plan.create === undefined) return plan.requeueAfter;
  return createJob(deps, cronJob, plan.create, status);
}

/** Upstream `deleteJob`: DELETE with background propagation, event, off the active list. */
async function deleteJob(
  deps: SyncDeps,
  cronJob: CronJob,
  job: Job,
  status: CronJobStatus,
): Promise<boolean> {
  const name = job.metadata?.name ?? '';
  try {
    await deps.client.delete(
      { ...JOBS, namespace: job.metadata?.namespace ?? '', name },
      { propagationPolicy: 'Background' },
    );
  } catch (err) {
    // Already gone is what a delete wants (upstream would report its GET's NotFound instead).
    if (!isNotFound(err)) {
      deps.recorder.event(cronJob, 'Warning', 'FailedDelete', `Deleted job: ${message(err)}`);
      return false;
    }
  }
  status.active = (status.active ?? []).filter((r) => r.uid !== job.metadata?.uid);
  deps.recorder.event(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
  return true;
}

async function createJob(
  deps: SyncDeps,
  cronJob: CronJob,
  create: PlannedCreate,
  status: CronJobStatus,
): Promise<number | undefined> {
  const namespace = cronJob.metadata?.namespace ?? '';
  let created: Job;
  try {
    created = asKind(await deps.client.create({ ...JOBS, namespace }, create.job), 'Job');
    deps.recorder.event(
      cronJob,
      'Normal',
      'SuccessfulCreate',
      `Created job ${created.metadata?.name ?? ''}`,
    );
  } catch (err) {
    if (!isAlreadyExists(err)) {
      if (!namespaceTerminating(err))
        deps.recorder.event(
          cronJob,
          'Warning',
          'FailedCreate',
          `Error creating job: ${message(err)}`,
        );
      throw err;
    }
    const name = create.job.metadata?.name ?? '';
    created = asKind(await deps.client.get({ ...JOBS, namespace, name }), 'Job');
    // Someone else's Job of that name, or ours already recorded: nothing to add.
    if (!isControlledBy(created, cronJob) || inActive(cronJob, created.metadata?.uid))
      return undefined;
  }
  const ref: ObjectReference = jobReference(created);
  status.active = [...(status.active ?? []), ref];
  status.lastScheduleTime = formatTime(create.scheduledTime);
  return create.requeueAfter;
}

function namespaceTerminating(err: unknown): boolean {
  if (!(err instanceof StatusCodeError)) return false;
  const details = err.status?.details;
  const causes =
    typeof details === 'object' && details !== null && 'causes' in details ? details.causes : [];
  return (
    Array.isArray(causes) &&
    causes.some((c) => typeof c === 'object' && c?.type === 'NamespaceTerminating')
  );
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** PUT `/status` when it changed; on a conflict once more over a fresh read. */
async function writeStatus(
  deps: SyncDeps,
  key: string,
  cronJob: CronJob,
  status: CronJobStatus,
): Promise<void> {
  if (JSON.stringify(normalize(cronJob.status)) === JSON.stringify(normalize(status))) return;
  const ref = cronJobRef(cronJob);
  let base = cronJob;
  let written: CronJob;
  try {
    written = asKind(await deps.client.updateStatus(ref, { ...base, status }), 'CronJob');
  } catch (err) {
    if (!isConflict(err)) throw err;
    base = asKind(await deps.client.get(ref), 'CronJob');
    written = asKind(await deps.client.updateStatus(ref, { ...base, status }), 'CronJob');
  }
  deps.own.record(key, base.metadata?.resourceVersion, written);
}

/** Status fields in one order, empty active list dropped (omitempty). */
function normalize(s: CronJobStatus | undefined): unknown[] {
  const active = s?.active ?? [];
  return [active.length === 0 ? undefined : active, s?.lastScheduleTime, s?.lastSuccessfulTime];
}
