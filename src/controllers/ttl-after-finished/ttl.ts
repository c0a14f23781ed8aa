/**
 * When a finished Job may go (upstream `pkg/controller/ttlafterfinished: needsCleanup,
 * processTTL, timeLeft, jobFinishTime`): a Job with `spec.ttlSecondsAfterFinished` whose
 * `Complete` or `Failed` condition is True, and that is not already being deleted, expires
 * `ttlSecondsAfterFinished` after that condition's `lastTransitionTime`.
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';

/** Upstream `needsCleanup` plus the enqueue filter: a TTL, finished, not being deleted. */
export function needsCleanup(job: Job): boolean {
  return (
    job.spec?.ttlSecondsAfterFinished != null &&
    finishedCondition(job) !== undefined &&
    !job.metadata?.deletionTimestamp
  );
}

function finishedCondition(job: Job) {
  return job.status?.conditions?.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** The verdict on one Job at `now`. */
export type TtlVerdict =
  | { readonly kind: 'skip' }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'expired' }
  | { readonly kind: 'error'; readonly message: string };

/** Upstream `processTTL` over `timeLeft`: skip, wait `ms` more, or expired. */
export function ttlVerdict(job: Job, now: number): TtlVerdict {
  if (!needsCleanup(job)) return { kind: 'skip' };
  const at = finishedCondition(job)?.lastTransitionTime;
  const finishedAt = at ? Date.parse(at) : Number.NaN;
  if (Number.isNaN(finishedAt))
    return { kind: 'error', message: 'unable to find the time when the Job finished' };
  const left = finishedAt + (job.spec?.ttlSecondsAfterFinished ?? 0) * 1000 - now;
  return left > 0 ? { kind: 'wait', ms: left } : { kind: 'expired' };
}
