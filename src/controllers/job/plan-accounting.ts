/**
 * Counting finished pods exactly once (upstream `trackJobStatusAndRemoveFinalizers`,
 * `cleanUncountedPodsWithoutFinalizers`): a finished pod that still carries the
 * `batch.kubernetes.io/job-tracking` finalizer is first recorded, by UID, in
 * `status.uncountedTerminatedPods` (an Indexed Job's success goes straight into
 * `completedIndexes`); only once that status is stored does its finalizer go; and only a
 * recorded UID whose pod lost the finalizer (or is gone) moves into `succeeded` / `failed`.
 * A pod without the finalizer is never recorded again, so no restart or retry counts it twice.
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import { INDEX_FAILURE_COUNT_ANNOTATION } from './constants.js';
import { parseIndexSet } from './indexes.js';
import type { JobSnapshot } from './plan-types.js';
import {
  completionIndex,
  hasTrackingFinalizer,
  isFailed,
  isSucceeded,
  matchPodFailurePolicy,
} from './pods.js';

/** The counts of one sync, mutable while the plan is made. */
export interface Accounting {
  succeeded: number;
  failed: number;
  readonly uncountedSucceeded: Set<string>;
  readonly uncountedFailed: Set<string>;
  /** Indexed Jobs: indexes that succeeded. */
  readonly completedIndexes: Set<number>;
  /** With backoffLimitPerIndex: indexes that failed for good. */
  readonly failedIndexes: Set<number>;
  /** Failures newly recorded by this sync (counted ones). */
  newFailures: number;
  /** Pods whose finalizer may go after the status write. */
  readonly removeFinalizers: Pod[];
}

export function isIndexed(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/** A valid completion index of an Indexed Job's pod (`undefined` otherwise). */
export function validIndex(job: Job, p: Pod): number | undefined {
  const ix = completionIndex(p);
  return ix !== undefined && ix < (job.spec?.completions ?? 0) ? ix : undefined;
}

/** The counted failures an index had before `p` (its annotation). */
export function indexFailureCount(p: Pod): number {
  const text = p.metadata?.annotations?.[INDEX_FAILURE_COUNT_ANNOTATION];
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : 0;
}

/** Upstream `isIndexFailed`: FailIndex matched, or a counted failure past the per-index limit. */
export function isIndexFailed(job: Job, p: Pod): boolean {
  const limit = job.spec?.backoffLimitPerIndex;
  if (limit == null || !isFailed(p, job)) return false;
  const match = matchPodFailurePolicy(job, p);
  if (match.action === 'FailIndex') return true;
  return match.countFailed && indexFailureCount(p) >= limit;
}

/** Steps 1 and 2: move recorded UIDs whose pods lost the finalizer, record newly finished pods. */
export function account(snapshot: JobSnapshot): Accounting {
  const { job, pods } = snapshot;
  const status = job.status ?? {};
  const completions = job.spec?.completions ?? 0;
  const indexed = isIndexed(job);
  const acc: Accounting = {
    succeeded: status.succeeded ?? 0,
    failed: status.failed ?? 0,
    uncountedSucceeded: new Set(status.uncountedTerminatedPods?.succeeded ?? []),
    uncountedFailed: new Set(status.uncountedTerminatedPods?.failed ?? []),
    completedIndexes: indexed ? parseIndexSet(status.completedIndexes, completions) : new Set(),
    failedIndexes: indexed ? parseIndexSet(status.failedIndexes ?? '', completions) : new Set(),
    newFailures: 0,
    removeFinalizers: [],
  };
  const byUid = new Map(pods.map((p) => [p.metadata?.uid ?? '', p]));
  const stillTracked = (uid: string): boolean => {
    const p = byUid.get(uid);
    return p !== undefined && hasTrackingFinalizer(p);
  };
  for (const uid of [...acc.uncountedSucceeded]) {
    if (stillTracked(uid)) continue;
    acc.uncountedSucceeded.delete(uid);
    acc.succeeded++;
  }
  for (const uid of [...acc.uncountedFailed]) {
    if (stillTracked(uid)) continue;
    acc.uncountedFailed.delete(uid);
    acc.failed++;
  }
  for (const p of pods) recordFinished(snapshot, acc, p);
  if (indexed) acc.succeeded = acc.completedIndexes.size;
  return acc;
}

function tracked(snapshot: JobSnapshot, p: Pod): boolean {
  const uid = p.metadata?.uid ?? '';
  return hasTrackingFinalizer(p) && !(snapshot.pendingFinalizerRemovals?.has(uid) ?? false);
}

function recordFinished(snapshot: JobSnapshot, acc: Accounting, p: Pod): void {
  const { job } = snapshot;
  if (!tracked(snapshot, p)) return;
  const uid = p.metadata?.uid ?? '';
  if (acc.uncountedSucceeded.has(uid) || acc.uncountedFailed.has(uid)) {
    // Recorded by an earlier sync whose finalizer removal did not go through.
    acc.removeFinalizers.push(p);
    return;
  }
  const indexed = isIndexed(job);
  if (isSucceeded(p)) {
    if (indexed) {
      const ix = validIndex(job, p);
      if (ix !== undefined && !acc.failedIndexes.has(ix)) acc.completedIndexes.add(ix);
    } else acc.uncountedSucceeded.add(uid);
    acc.removeFinalizers.push(p);
    return;
  }
  if (isFailed(p, job)) {
    recordFailure(snapshot, acc, p);
    acc.removeFinalizers.push(p);
  }
}

/**
 * Records a failed (or, once the Job is finishing, a not yet succeeded) pod: counted unless a
 * pod failure policy Ignore rule matched or its index is out of range.
 */
export function recordFailure(snapshot: JobSnapshot, acc: Accounting, p: Pod): void {
  const { job } = snapshot;
  const uid = p.metadata?.uid ?? '';
  if (acc.uncountedFailed.has(uid)) return;
  const indexed = isIndexed(job);
  const ix = indexed ? validIndex(job, p) : undefined;
  if (indexed && ix === undefined) return;
  if (matchPodFailurePolicy(job, p).countFailed) {
    acc.uncountedFailed.add(uid);
    acc.newFailures++;
  }
  if (ix !== undefined && isIndexFailed(job, p) && !acc.completedIndexes.has(ix)) {
    acc.failedIndexes.add(ix);
  }
}

/** Once the Job is finishing: every tracked pod that did not succeed counts as failed. */
export function recordUnfinished(snapshot: JobSnapshot, acc: Accounting): void {
  const seen = new Set(acc.removeFinalizers.map((p) => p.metadata?.uid ?? ''));
  for (const p of snapshot.pods) {
    if (!tracked(snapshot, p) || seen.has(p.metadata?.uid ?? '') || isSucceeded(p)) continue;
    recordFailure(snapshot, acc, p);
    acc.removeFinalizers.push(p);
  }
}
