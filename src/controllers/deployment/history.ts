/**
 * revisionHistoryLimit cleanup, after upstream `sync.go: cleanupDeployment` with
 * `ReplicaSetsByRevision`: of the old ReplicaSets not being deleted, the `count − limit` with the
 * lowest revisions are candidates; only fully scaled-down, fully observed ones are deleted.
 * Pure: returns the names to delete.
 *
 * @module
 */

import type { Deployment, ReplicaSet } from '../../api/model/index.js';
import { revisionOf } from './replica-sets.js';
import { byCreationTimestamp, rsReplicas } from './rollout-math.js';
import { hasRevisionHistoryLimit, rsStatusReplicas } from './types.js';

/** `ReplicaSetsByRevision`: lower revision first; unparsable or equal revisions by age. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  if (ra === undefined || rb === undefined || ra === rb) return byCreationTimestamp(a, b);
  return ra < rb ? -1 : 1;
}

/** A ReplicaSet that may still have pods or an unobserved spec is never deleted. */
function deletable(rs: ReplicaSet): boolean {
  return (
    rsStatusReplicas(rs) === 0 &&
    rsReplicas(rs) === 0 &&
    (rs.metadata?.generation ?? 0) <= (rs.status?.observedGeneration ?? 0) &&
    !rs.metadata?.deletionTimestamp
  );
}

/** Names of the old ReplicaSets `cleanupDeployment` deletes, in deletion order. */
export function planHistoryCleanup(d: Deployment, oldRSs: readonly ReplicaSet[]): string[] {
  if (!hasRevisionHistoryLimit(d)) return [];
  const alive = oldRSs.filter((rs) => !rs.metadata?.deletionTimestamp);
  const diff = alive.length - (d.spec?.revisionHistoryLimit ?? 0);
  if (diff <= 0) return [];
  return [...alive]
    .sort(byRevision)
    .slice(0, diff)
    .filter(deletable)
    .map((rs) => rs.metadata?.name ?? '');
}
