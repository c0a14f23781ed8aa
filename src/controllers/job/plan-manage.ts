/**
 * Which pods a running Job creates and deletes (upstream `manageJob`): a suspended Job deletes
 * its active pods; otherwise it keeps `min(parallelism, completions − succeeded)` pods active
 * (a work-queue Job without completions keeps `parallelism` until one succeeded), deleting the
 * least useful extras (unscheduled, pending, unready and newest first), and creates the rest,
 * at most 500 per sync, once the failure backoff allows (10 s doubling per failure since the
 * last success, at most 6 min). An Indexed Job creates the lowest missing indexes, one active
 * pod per index, and deletes duplicates and pods of finished indexes.
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import {
  INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  MAX_POD_CREATE_DELETE_PER_SYNC,
  MAX_POD_FAILURE_BACKOFF_MS,
  POD_FAILURE_BACKOFF_MS,
} from './constants.js';
import { type Accounting, indexFailureCount, isIndexed, validIndex } from './plan-accounting.js';
import type { JobSnapshot, PodToCreate } from './plan-types.js';
import {
  finishedAt,
  isActive,
  isFailed,
  isReady,
  isSucceeded,
  isTerminating,
  matchPodFailurePolicy,
  onlyReplaceFailedPods,
} from './pods.js';

export interface ManageResult {
  readonly create: PodToCreate[];
  readonly delete: Pod[];
  readonly requeueAfterMs?: number;
}

/** Upstream `getRemainingTime` of a backoff after `failures` failures, the last at `last`. */
export function backoffRemainingMs(failures: number, last: number, now: number): number {
  if (failures <= 0) return 0;
  const delay = Math.min(
    POD_FAILURE_BACKOFF_MS * 2 ** Math.min(failures - 1, 30),
    MAX_POD_FAILURE_BACKOFF_MS,
  );
  const elapsed = now - last;
  return delay < elapsed ? 0 : delay - elapsed;
}

/** The Job-wide backoff: counted failures after the last success, from the pods seen. */
function jobBackoffMs(job: Job, pods: readonly Pod[], now: number): number {
  const lastSuccess = Math.max(
    Number.NEGATIVE_INFINITY,
    ...pods.filter(isSucceeded).map((p) => finishedAt(p, now)),
  );
  const failures = pods
    .filter((p) => isFailed(p, job) && matchPodFailurePolicy(job, p).countFailed)
    .map((p) => finishedAt(p, now))
    .filter((t) => t > lastSuccess);
  return backoffRemainingMs(failures.length, Math.max(0, ...failures), now);
}

/** Upstream `controller.ActivePods` order: the pods to delete first come first. */
function deletionRank(a: Pod, b: Pod): number {
  const key = (p: Pod): number[] => [
    p.spec?.nodeName ? 1 : 0,
    p.status?.phase === 'Running' ? 1 : 0,
    isReady(p) ? 1 : 0,
  ];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  return ta === tb ? 0 : ta > tb ? -1 : 1;
}

function capped<T>(items: readonly T[]): T[] {
  return items.slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
}

/** The number of pods that should be active. */
export function wantActive(job: Job, acc: Accounting, active: number): number {
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  if (completions == null)
    return acc.succeeded + acc.uncountedSucceeded.size > 0 ? active : parallelism;
  const done = isIndexed(job)
    ? acc.completedIndexes.size + acc.failedIndexes.size
    : acc.succeeded + acc.uncountedSucceeded.size;
  return Math.max(0, Math.min(completions - done, parallelism));
}

export function manage(snapshot: JobSnapshot, acc: Accounting): ManageResult {
  const { job, pods, now } = snapshot;
  const active = pods.filter(isActive);
  if (job.spec?.suspend === true)
    return { create: [], delete: capped([...active].sort(deletionRank)) };
  if (isIndexed(job)) return manageIndexed(snapshot, acc, active);
  const want = wantActive(job, acc, active.length);
  if (active.length > want) {
    return {
      create: [],
      delete: capped([...active].sort(deletionRank).slice(0, active.length - want)),
    };
  }
  const terminating = onlyReplaceFailedPods(job) ? pods.filter(isTerminating).length : 0;
  const diff = want - active.length - terminating;
  if (diff <= 0) return { create: [], delete: [] };
  const wait = jobBackoffMs(job, pods, now);
  if (wait > 0) return { create: [], delete: [], requeueAfterMs: wait };
  return { create: capped(Array.from({ length: diff }, () => ({}))), delete: [] };
}

/** The failure counts a new pod of index `ix` carries, from the index's last failed pod. */
function indexCounts(job: Job, failed: readonly Pod[], now: number): PodToCreate {
  const last = [...failed].sort((a, b) => finishedAt(a, now) - finishedAt(b, now)).at(-1);
  if (last === undefined || job.spec?.backoffLimitPerIndex == null) return {};
  const ignored =
    Number(last.metadata?.annotations?.[INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] ?? 0) || 0;
  return matchPodFailurePolicy(job, last).countFailed
    ? { failureCount: indexFailureCount(last) + 1, ignoredFailureCount: ignored }
    : { failureCount: indexFailureCount(last), ignoredFailureCount: ignored + 1 };
}

/** One active pod per unfinished index stays (the most useful); the rest go. */
function indexedKeepers(
  job: Job,
  acc: Accounting,
  active: readonly Pod[],
): { keep: Map<number, Pod>; toDelete: Pod[] } {
  const toDelete: Pod[] = [];
  const keep = new Map<number, Pod>();
  for (const p of [...active].sort(deletionRank).reverse()) {
    const ix = validIndex(job, p);
    const done = ix === undefined || acc.completedIndexes.has(ix) || acc.failedIndexes.has(ix);
    if (done || keep.has(ix)) toDelete.push(p);
    else keep.set(ix, p);
  }
  const want = wantActive(job, acc, keep.size);
  const extra = [...keep.values()].sort(deletionRank).slice(0, Math.max(0, keep.size - want));
  for (const p of extra) {
    keep.delete(validIndex(job, p) ?? -1);
    toDelete.push(p);
  }
  return { keep, toDelete };
}

function failedPodsByIndex(job: Job, pods: readonly Pod[]): Map<number, Pod[]> {
  const out = new Map<number, Pod[]>();
  for (const p of pods) {
    const ix = validIndex(job, p);
    if (ix !== undefined && isFailed(p, job)) out.set(ix, [...(out.get(ix) ?? []), p]);
  }
  return out;
}

/** The lowest free indexes to start, `room` at most, unless their backoff says wait. */
function indexesToStart(
  snapshot: JobSnapshot,
  acc: Accounting,
  busy: ReadonlySet<number>,
  room: number,
): { create: PodToCreate[]; requeueAfterMs?: number } {
  const { job, pods, now } = snapshot;
  const perIndex = job.spec?.backoffLimitPerIndex != null;
  const failedByIndex = failedPodsByIndex(job, pods);
  const jobWait = perIndex ? 0 : jobBackoffMs(job, pods, now);
  const create: PodToCreate[] = [];
  let requeueAfterMs: number | undefined;
  for (let ix = 0; ix < (job.spec?.completions ?? 0) && create.length < room; ix++) {
    if (busy.has(ix) || acc.completedIndexes.has(ix) || acc.failedIndexes.has(ix)) continue;
    const failed = failedByIndex.get(ix) ?? [];
    const counts = indexCounts(job, failed, now);
    const last = Math.max(0, ...failed.map((p) => finishedAt(p, now)));
    const wait = perIndex ? backoffRemainingMs(counts.failureCount ?? 0, last, now) : jobWait;
    if (wait > 0) requeueAfterMs = Math.min(requeueAfterMs ?? wait, wait);
    else create.push({ index: ix, ...counts });
  }
  return requeueAfterMs === undefined ? { create } : { create, requeueAfterMs };
}

function manageIndexed(
  snapshot: JobSnapshot,
  acc: Accounting,
  active: readonly Pod[],
): ManageResult {
  const { job, pods } = snapshot;
  const { keep, toDelete } = indexedKeepers(job, acc, active);
  const busy = new Set(keep.keys());
  if (onlyReplaceFailedPods(job)) {
    for (const p of pods.filter(isTerminating)) busy.add(validIndex(job, p) ?? -1);
  }
  const room = wantActive(job, acc, keep.size) - keep.size;
  const start = indexesToStart(snapshot, acc, busy, room);
  return { ...start, create: capped(start.create), delete: capped(toDelete) };
}
