/**
 * The planner's view of a pod's claims (upstream `stateful_pod_control.go`:
 * `createPersistentVolumeClaims`, `PodClaimIsStale`, `hasStaleOwnerRef`; docs/design/statefulset.md §2–§3).
 * Existing claims are reused as they are: size or class changes are never applied.
 *
 * @module
 */
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../api/model/index.js';
import { claimsFor, ordinalOf } from './identity.js';
import { isTerminating, viewOf } from './plan-spec.js';

/** The pod's claims that do not exist yet, and the names of those being deleted. */
export function claimsForPod(
  set: StatefulSet,
  pod: Pod,
  existing: readonly PersistentVolumeClaim[],
): { missing: PersistentVolumeClaim[]; deleting: string[] } {
  const byName = new Map(existing.map((c) => [c.metadata?.name ?? '', c]));
  const missing: PersistentVolumeClaim[] = [];
  const deleting: string[] = [];
  for (const claim of claimsFor(set, ordinalOf(pod))) {
    const name = claim.metadata?.name ?? '';
    const found = byName.get(name);
    if (found === undefined) missing.push(claim);
    else if (isTerminating(found)) deleting.push(name);
  }
  return { missing, deleting };
}

/**
 * Upstream `PodClaimIsStale` for a pod about to be created (so it has no UID yet): with
 * `whenScaled: Delete`, an existing claim that names a Pod `<pod name>` as an owner belongs to a
 * previous incarnation and the garbage collector is about to delete it — creating the pod now
 * would attach it to a doomed claim, so the sync waits.
 */
export function claimsStale(
  set: StatefulSet,
  pod: Pod,
  existing: readonly PersistentVolumeClaim[],
): boolean {
  if (viewOf(set).whenScaled !== 'Delete') return false;
  const name = pod.metadata?.name ?? '';
  const uid = pod.metadata?.uid ?? '';
  const byName = new Map(existing.map((c) => [c.metadata?.name ?? '', c]));
  return claimsFor(set, ordinalOf(pod)).some((claim) => {
    const found = byName.get(claim.metadata?.name ?? '');
    return (found?.metadata?.ownerReferences ?? []).some(
      (r) => r.apiVersion === 'v1' && r.kind === 'Pod' && r.name === name && r.uid !== uid,
    );
  });
}
