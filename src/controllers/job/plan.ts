/**
 * One Job sync as a pure function (upstream `job_controller.go: syncJob`): from the Job, its
 * pods and the clock, what to create, delete and write. The steps:
 *
 * 1. count finished pods exactly once (`plan-accounting.ts`);
 * 2. decide whether the Job is finishing: an interim `FailureTarget` (a pod failure policy
 *    FailJob rule, backoffLimit exceeded, active deadline passed, too many failed indexes) or
 *    `SuccessCriteriaMet` (completions reached, a success policy rule matched) condition;
 * 3. finishing: delete active pods, count every unfinished pod as failed; otherwise keep the
 *    right pods running (`plan-manage.ts`) and keep the `Suspended` condition and `startTime`;
 * 4. once nothing is uncounted or terminating, turn the interim condition into the terminal
 *    `Failed` or `Complete` one (upstream delays it that long since 1.31) with its event.
 *
 * @module
 */
import type { Job, JobCondition, JobStatus } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { MAX_POD_CREATE_DELETE_PER_SYNC, MESSAGE, REASON } from './constants.js';
import { formatIndexSet, parseIndexSet } from './indexes.js';
import { type Accounting, account, isIndexed, recordUnfinished } from './plan-accounting.js';
import { manage } from './plan-manage.js';
import type { JobPlan, JobSnapshot, PlannedEvent } from './plan-types.js';
import {
  hasTrackingFinalizer,
  isActive,
  isFailed,
  isReady,
  isTerminating,
  matchPodFailurePolicy,
} from './pods.js';

type Finish = Pick<JobCondition, 'type' | 'reason' | 'message'>;

const trueCondition = (job: Job, type: string): JobCondition | undefined =>
  job.status?.conditions?.find((c) => c.type === type && c.status === 'True');

/** Complete or Failed is True. */
export function isJobFinished(job: Job): boolean {
  return trueCondition(job, 'Complete') !== undefined || trueCondition(job, 'Failed') !== undefined;
}

/** Upstream `ensureJobConditionStatus`: set (or add, unless False) a condition; true if changed. */
function ensureCondition(
  conditions: JobCondition[],
  c: Finish & { status: string },
  now: string,
): boolean {
  const next: JobCondition = { ...c, lastProbeTime: now, lastTransitionTime: now };
  const i = conditions.findIndex((x) => x.type === c.type);
  const old = conditions[i];
  if (old !== undefined) {
    if (old.status === c.status && old.reason === c.reason && old.message === c.message)
      return false;
    conditions[i] = next;
    return true;
  }
  if (c.status === 'False') return false;
  conditions.push(next);
  return true;
}

/** Upstream `pastBackoffLimitOnFailure`: container restarts of OnFailure pods. */
function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [
      ...(p.status.containerStatuses ?? []),
      ...(p.status.initContainerStatuses ?? []),
    ])
      restarts += s.restartCount;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

function startMs(job: Job): number | undefined {
  const t = job.status?.startTime;
  return t ? Date.parse(t) : undefined;
}

/** Upstream `matchSuccessPolicy`: `Matched rules at index <i>` for the first satisfied rule. */
function matchSuccessPolicy(job: Job, acc: Accounting): string | undefined {
  const completions = job.spec?.completions ?? 0;
  for (const [i, rule] of (job.spec?.successPolicy?.rules ?? []).entries()) {
    const wanted =
      rule.succeededIndexes != null ? parseIndexSet(rule.succeededIndexes, completions) : undefined;
    const have =
      wanted === undefined
        ? acc.completedIndexes.size
        : [...wanted].filter((x) => acc.completedIndexes.has(x)).length;
    const need = rule.succeededCount ?? wanted?.size ?? 0;
    if (
      have >= need &&
      (wanted === undefined || rule.succeededCount != null || have === wanted.size)
    ) {
      return `Matched rules at index ${i}`;
    }
  }
  return undefined;
}

type Found = { finish?: Finish; requeueAfterMs?: number };

const failure = (reason: string, message: string): Found => ({
  finish: { type: 'FailureTarget', reason, message },
});

/** A pod failure policy FailJob rule matched by a failed pod. */
function policyFailure(job: Job, pods: readonly Pod[]): Found | undefined {
  for (const p of pods) {
    const m = isFailed(p, job) ? matchPodFailurePolicy(job, p) : undefined;
    if (m?.message !== undefined) return failure(REASON.podFailurePolicy, m.message);
  }
  return undefined;
}

/** Upstream `exceedsBackoffLimit` (a new failure beyond backoffLimit) or too many restarts. */
function backoffFailure(job: Job, pods: readonly Pod[], acc: Accounting): Found | undefined {
  const failed = acc.failed + acc.uncountedFailed.size;
  const active = pods.filter(isActive).length;
  const exceeds =
    failed > (job.status?.failed ?? 0) &&
    active !== (job.spec?.parallelism ?? 1) &&
    failed > (job.spec?.backoffLimit ?? 6);
  return exceeds || pastBackoffLimitOnFailure(job, pods)
    ? failure(REASON.backoffLimitExceeded, MESSAGE.backoffLimitExceeded)
    : undefined;
}

/** The active deadline: passed, or how long until it passes. */
function deadline(job: Job, now: number): Found {
  const seconds = job.spec?.activeDeadlineSeconds;
  const start = startMs(job);
  if (seconds == null || start === undefined || job.spec?.suspend === true) return {};
  const left = start + seconds * 1000 - now;
  return left <= 0
    ? failure(REASON.deadlineExceeded, MESSAGE.deadlineExceeded)
    : { requeueAfterMs: left };
}

/** backoffLimitPerIndex: too many failed indexes, or every index done and some failed. */
function indexFailure(job: Job, acc: Accounting): Found | undefined {
  if (!isIndexed(job) || job.spec?.backoffLimitPerIndex == null) return undefined;
  const maxFailed = job.spec.maxFailedIndexes;
  const failedIx = acc.failedIndexes.size;
  if (maxFailed != null && failedIx > maxFailed)
    return failure(REASON.maxFailedIndexesExceeded, MESSAGE.maxFailedIndexesExceeded);
  if (failedIx > 0 && failedIx + acc.completedIndexes.size >= (job.spec.completions ?? 0))
    return failure(REASON.failedIndexes, MESSAGE.failedIndexes);
  return undefined;
}

function successPolicyMet(job: Job, acc: Accounting): Found | undefined {
  const matched = isIndexed(job) ? matchSuccessPolicy(job, acc) : undefined;
  if (matched === undefined) return undefined;
  return { finish: { type: 'SuccessCriteriaMet', reason: REASON.successPolicy, message: matched } };
}

/** Step 2 before pods are managed: why a running Job fails (or an early success). */
function failureOf(snapshot: JobSnapshot, acc: Accounting): Found {
  const { job, pods, now } = snapshot;
  const timed = deadline(job, now);
  return (
    policyFailure(job, pods) ??
    backoffFailure(job, pods, acc) ??
    (timed.finish !== undefined ? timed : undefined) ??
    indexFailure(job, acc) ??
    successPolicyMet(job, acc) ??
    timed
  );
}

/** The interim condition already recorded, as the terminal condition it leads to. */
function recordedFinish(job: Job): Finish | undefined {
  const success = trueCondition(job, 'SuccessCriteriaMet');
  if (success)
    return { type: 'SuccessCriteriaMet', reason: success.reason, message: success.message };
  const failed = trueCondition(job, 'FailureTarget');
  if (failed) return { type: 'FailureTarget', reason: failed.reason, message: failed.message };
  return undefined;
}

function isComplete(job: Job, acc: Accounting, active: number): boolean {
  const completions = job.spec?.completions;
  const succeeded = acc.succeeded + acc.uncountedSucceeded.size;
  return active === 0 && (completions == null ? succeeded > 0 : succeeded >= completions);
}

/** The plan while it is made. */
interface Draft {
  readonly snapshot: JobSnapshot;
  readonly acc: Accounting;
  readonly nowText: string;
  readonly status: JobStatus;
  readonly conditions: JobCondition[];
  readonly events: PlannedEvent[];
  finish?: Finish;
  requeueAfterMs?: number;
  create: JobPlan['create'];
  delete: Pod[];
}

const earliest = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/** Upstream's `Suspended` condition, its events and `startTime`, once pods were managed. */
function trackSuspension(d: Draft, activeAfter: number): void {
  const job = d.snapshot.job;
  const suspended = job.spec?.suspend === true;
  const c = suspended
    ? { type: 'Suspended', status: 'True', reason: REASON.suspended, message: MESSAGE.suspended }
    : { type: 'Suspended', status: 'False', reason: REASON.resumed, message: MESSAGE.resumed };
  const changed = ensureCondition(d.conditions, c, d.nowText);
  if (suspended) {
    if (changed) d.events.push({ type: 'Normal', reason: 'Suspended', message: MESSAGE.suspended });
    // Suspending resets the active deadline's clock.
    if (activeAfter === 0) delete d.status.startTime;
  } else if (changed) {
    d.events.push({ type: 'Normal', reason: 'Resumed', message: MESSAGE.resumed });
    d.status.startTime = d.nowText;
  }
}

/** Step 3 for a running Job: keep the right pods, notice completion, track suspension. */
function manageRunning(d: Draft): void {
  const { snapshot, acc } = d;
  if (!(snapshot.expectationsSatisfied ?? true) || snapshot.job.metadata?.deletionTimestamp) return;
  const managed = manage(snapshot, acc);
  d.create = managed.create;
  d.delete = managed.delete;
  d.requeueAfterMs = earliest(d.requeueAfterMs, managed.requeueAfterMs);
  const activeAfter =
    snapshot.pods.filter(isActive).length - managed.delete.length + managed.create.length;
  if (isComplete(snapshot.job, acc, activeAfter)) {
    d.finish = {
      type: 'SuccessCriteriaMet',
      reason: REASON.completionsReached,
      message: MESSAGE.completionsReached,
    };
  } else trackSuspension(d, activeAfter);
}

/** Step 3 for a finishing Job: stop its pods, count them, record the interim condition. */
function stopAll(d: Draft, finish: Finish): void {
  d.create = [];
  d.delete = d.snapshot.pods.filter(isActive).slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
  recordUnfinished(d.snapshot, d.acc);
  if (trueCondition(d.snapshot.job, finish.type ?? '') !== undefined) return;
  d.conditions.push({
    ...finish,
    status: 'True',
    lastProbeTime: d.nowText,
    lastTransitionTime: d.nowText,
  });
}

/** Step 4: the terminal condition, once nothing is uncounted or terminating. */
function enactFinish(d: Draft, finish: Finish, terminating: number): boolean {
  const uncounted = d.acc.uncountedSucceeded.size + d.acc.uncountedFailed.size;
  if (uncounted > 0 || terminating > 0) return false;
  const type = finish.type === 'SuccessCriteriaMet' ? 'Complete' : 'Failed';
  const { reason = '', message = '' } = finish;
  d.conditions.push({
    type,
    status: 'True',
    reason,
    message,
    lastProbeTime: d.nowText,
    lastTransitionTime: d.nowText,
  });
  if (type === 'Complete') {
    d.status.completionTime = d.nowText;
    d.events.push({ type: 'Normal', reason: 'Completed', message: 'Job completed' });
  } else d.events.push({ type: 'Warning', reason, message });
  return true;
}

/** A finished Job: pods that outlived its end only need their finalizers gone. */
function finishedPlan(snapshot: JobSnapshot): JobPlan {
  const pending = snapshot.pendingFinalizerRemovals;
  const removeFinalizers = snapshot.pods.filter(
    (p) => hasTrackingFinalizer(p) && !pending?.has(p.metadata?.uid ?? ''),
  );
  return {
    create: [],
    delete: [],
    status: snapshot.job.status ?? {},
    removeFinalizers,
    events: [],
  };
}

export function planJob(snapshot: JobSnapshot): JobPlan {
  const { job, pods, now } = snapshot;
  if (isJobFinished(job)) return finishedPlan(snapshot);
  const nowText = formatTime(now);
  const d: Draft = {
    snapshot,
    acc: account(snapshot),
    nowText,
    status: { ...job.status },
    conditions: [...(job.status?.conditions ?? [])],
    events: [],
    create: [],
    delete: [],
  };
  if (d.status.startTime == null && job.spec?.suspend !== true) d.status.startTime = nowText;
  d.finish = recordedFinish(job);
  if (d.finish === undefined) Object.assign(d, failureOf(snapshot, d.acc));
  if (d.finish === undefined) manageRunning(d);
  if (d.finish !== undefined) stopAll(d, d.finish);
  const deleted = new Set(d.delete.map((p) => p.metadata?.uid));
  const active = pods.filter((p) => isActive(p) && !deleted.has(p.metadata?.uid));
  const terminating = pods.filter(isTerminating).length + d.delete.length;
  const finished = d.finish !== undefined && enactFinish(d, d.finish, terminating);
  writeCounts(d.status, job, d.acc, {
    active: finished ? 0 : active.length + d.create.length,
    ready: finished ? 0 : active.filter(isReady).length,
    terminating,
  });
  if (d.conditions.length > 0) d.status.conditions = d.conditions;
  else delete d.status.conditions;
  return {
    create: d.create,
    delete: d.delete,
    status: d.status,
    removeFinalizers: d.acc.removeFinalizers,
    events: d.events,
    ...(d.requeueAfterMs !== undefined && !finished ? { requeueAfterMs: d.requeueAfterMs } : {}),
  };
}

function writeCounts(
  status: JobStatus,
  job: Job,
  acc: Accounting,
  n: { active: number; ready: number; terminating: number },
): void {
  const set = (key: 'active' | 'succeeded' | 'failed', v: number): void => {
    if (v > 0) status[key] = v;
    else delete status[key];
  };
  set('active', n.active);
  set('succeeded', acc.succeeded);
  set('failed', acc.failed);
  status.ready = n.ready;
  status.terminating = n.terminating;
  if (isIndexed(job)) {
    const completed = formatIndexSet(acc.completedIndexes);
    if (completed !== '') status.completedIndexes = completed;
    else delete status.completedIndexes;
    if (job.spec?.backoffLimitPerIndex != null)
      status.failedIndexes = formatIndexSet(acc.failedIndexes);
  }
  const uncounted: NonNullable<JobStatus['uncountedTerminatedPods']> = {};
  if (acc.uncountedSucceeded.size > 0) uncounted.succeeded = [...acc.uncountedSucceeded];
  if (acc.uncountedFailed.size > 0) uncounted.failed = [...acc.uncountedFailed];
  status.uncountedTerminatedPods = uncounted;
}
