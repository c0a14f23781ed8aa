/**
 * Creating and deleting pods to close the gap between the active owned pods and `spec.replicas`
 * (upstream `replica_set.go: manageReplicas`; docs/design/replicaset-deployment.md §2).
 *
 * Expectations are set before any request, so events of the first pods cannot race past them:
 * - too few: expect n creations (n ≤ burstReplicas = 500), create in slow-start batches
 *   (1, 2, 4, …; the first failing batch stops the run), then lower the expectation once per pod
 *   that was not created, since no informer event will ever come for it. A create refused because
 *   the namespace is terminating counts as done: every create there would fail.
 * - too many: rank victims (`victims.ts`), expect exactly their deletions by pod key, delete them
 *   all at once; a failed delete lowers the expectation for that pod, and NotFound is no error.
 *
 * @module
 */
import type { Pod, ReplicaSet } from '../../api/model/index.js';
import { isNotFound } from '../../client/api-client.js';
import type { UIDTrackingExpectations } from '../../controller/expectations.js';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from '../../controller/slow-start.js';
import { objectKeyOf } from './lookup.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE, type PodControl } from './pod-control.js';
import { desiredReplicas } from './status.js';
import { podsToDelete } from './victims.js';

/** Upstream `BurstReplicas`: at most this many creates or deletes per sync. */
export const BURST_REPLICAS = 500;

/** How many pods to create (positive) or delete (negative) for a gap, capped by the burst. */
export function replicaChange(active: number, desired: number, burst = BURST_REPLICAS): number {
  const diff = active - desired;
  if (diff < 0) return Math.min(-diff, burst);
  return diff > 0 ? -Math.min(diff, burst) : 0;
}

export interface ManageDeps {
  readonly pods: PodControl;
  readonly expectations: UIDTrackingExpectations;
  /** Epoch ms, for the victim ranking's log buckets. */
  readonly now: number;
  readonly burstReplicas?: number;
}

/**
 * Creates or deletes pods for `rs` given its claimed active pods. Resolves with the first error
 * that should surface as the `ReplicaFailure` condition, or undefined when all went well.
 */
export async function manageReplicas(
  deps: ManageDeps,
  rs: ReplicaSet,
  filteredPods: readonly Pod[],
  relatedPods: readonly Pod[],
): Promise<Error | undefined> {
  const change = replicaChange(filteredPods.length, desiredReplicas(rs), deps.burstReplicas);
  if (change > 0) return createPods(deps, rs, change);
  if (change < 0)
    return deletePods(deps, rs, podsToDelete(filteredPods, relatedPods, -change, deps.now));
  return undefined;
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

async function createPods(deps: ManageDeps, rs: ReplicaSet, n: number): Promise<Error | undefined> {
  const rsKey = objectKeyOf(rs);
  deps.expectations.expectCreations(rsKey, n);
  const { successes, error } = await slowStartBatch(n, SLOW_START_INITIAL_BATCH_SIZE, async () => {
    try {
      await deps.pods.createPod(rs);
    } catch (err) {
      if (!hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) throw err;
    }
  });
  for (let skipped = n - successes; skipped > 0; skipped--)
    deps.expectations.creationObserved(rsKey);
  return error === undefined ? undefined : asError(error);
}

async function deletePods(
  deps: ManageDeps,
  rs: ReplicaSet,
  victims: readonly Pod[],
): Promise<Error | undefined> {
  const rsKey = objectKeyOf(rs);
  deps.expectations.expectDeletions(rsKey, victims.map(objectKeyOf));
  const errors: Error[] = [];
  await Promise.all(
    victims.map(async (pod) => {
      try {
        await deps.pods.deletePod(rs, pod);
      } catch (err) {
        deps.expectations.deletionObserved(rsKey, objectKeyOf(pod));
        if (!isNotFound(err)) errors.push(asError(err));
      }
    }),
  );
  return errors[0];
}
