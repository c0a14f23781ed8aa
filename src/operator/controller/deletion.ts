/**
 * Deleting a fleet (docs/design/operator.md §8, §10): the workload first, with Foreground propagation so
 * it goes only after its members drained on SIGTERM; then every fleet claim, including removed
 * members', each fenced by uid and resourceVersion; then the prerequisites the operator
 * created (the Go operator left them behind); then the finalizer. The reservation stays.
 *
 * Only objects carrying this fleet incarnation's UID label are touched; no other party's
 * finalizer is removed, no backend volume is deleted (the StorageClass's Delete policy and the
 * CSI driver do that), no cloud API is called.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { objectRef } from '../../client/resource-path.js';
import { LABEL_FLEET_UID } from '../render/metadata.js';
import { isOurs } from './children.js';
import type { FleetDeps } from './deps.js';
import { fencedDelete, fenceOf } from './fenced-delete.js';
import type { FleetObservation } from './observe.js';
import { type Outcome, outcome } from './outcome.js';
import { FLEET_FINALIZER, FLEETS } from './resources.js';

function deleting(o: Outcome): Outcome {
  return { ...o, kind: 'deleting' };
}

/** Deletes a cached child, fenced; a 409 or a 404 leaves it to the next event to re-plan. */
async function deleteChild(
  deps: FleetDeps,
  kind: string,
  obj: KubeObject,
  propagationPolicy?: 'Foreground',
): Promise<void> {
  const fence = fenceOf(kind, obj);
  if (fence !== undefined)
    await fencedDelete(deps, propagationPolicy ? { ...fence, propagationPolicy } : fence);
}

function ourClaims(obs: FleetObservation, uid: string): KubeObject[] {
  return obs.claims.filter(
    (c) =>
      c.metadata?.labels?.[LABEL_FLEET_UID] === uid &&
      (c.metadata?.ownerReferences ?? []).length === 0,
  );
}

function progress(message: string): Outcome {
  return deleting(outcome.progress('LifecycleProgress', message));
}

/** The workload goes first, Foreground, so it is gone only after its members exited. */
async function drainWorkload(
  deps: FleetDeps,
  obs: FleetObservation,
  uid: string,
): Promise<Outcome | undefined> {
  const workload =
    obs.workload !== undefined && isOurs(obs.workload, uid) ? obs.workload : undefined;
  if (workload !== undefined) {
    if (!workload.metadata?.deletionTimestamp) {
      await deleteChild(deps, obs.workloadKind, workload, 'Foreground');
    }
    return progress('Deleting workload; members drain on SIGTERM');
  }
  const members = obs.pods.filter((p) => p.metadata?.labels?.[LABEL_FLEET_UID] === uid);
  if (members.length === 0) return undefined;
  return progress(`Deleting workload; waiting for ${members.length} member pod(s) to exit`);
}

/** Then every claim of this fleet incarnation, removed members' included. */
async function deleteClaims(
  deps: FleetDeps,
  obs: FleetObservation,
  uid: string,
): Promise<Outcome | undefined> {
  const claims = ourClaims(obs, uid);
  if (claims.length === 0) return undefined;
  for (const c of claims) {
    if (!c.metadata?.deletionTimestamp) await deleteChild(deps, 'PersistentVolumeClaim', c);
  }
  return progress(`Deleting disks: ${claims.length} claim(s) remain`);
}

/** Then the prerequisites the operator created (the Go operator left them behind). */
async function deletePrerequisites(
  deps: FleetDeps,
  obs: FleetObservation,
  uid: string,
): Promise<Outcome | undefined> {
  const prerequisites: [string, KubeObject | undefined][] = [
    ...[...obs.services.values()].map((s): [string, KubeObject] => ['Service', s]),
    ['NetworkPolicy', obs.networkPolicy],
    ['PodDisruptionBudget', obs.pdb],
  ];
  const ours = prerequisites.filter(
    (p): p is [string, KubeObject] => p[1] !== undefined && isOurs(p[1], uid),
  );
  if (ours.length === 0) return undefined;
  for (const [kind, o] of ours) {
    if (!o.metadata?.deletionTimestamp) await deleteChild(deps, kind, o);
  }
  return progress('Deleting the fleet’s Services, NetworkPolicy and PodDisruptionBudget');
}

/** One step of the deletion; undefined once the finalizer is gone. */
export async function reconcileDeletion(
  deps: FleetDeps,
  obs: FleetObservation,
): Promise<Outcome | undefined> {
  const fleet = obs.fleet;
  const uid = fleet.metadata?.uid ?? '';
  const finalizers = fleet.metadata?.finalizers ?? [];
  if (!finalizers.includes(FLEET_FINALIZER)) return undefined;
  const step =
    (await drainWorkload(deps, obs, uid)) ??
    (await deleteClaims(deps, obs, uid)) ??
    (await deletePrerequisites(deps, obs, uid));
  if (step !== undefined) return step;
  // The merge patch carries the cached resourceVersion: a concurrent change is a 409, not a
  // finalizer list overwritten with stale entries.
  await deps.client.patch(
    objectRef(FLEETS, fleet),
    {
      metadata: {
        resourceVersion: fleet.metadata?.resourceVersion,
        finalizers: finalizers.filter((f) => f !== FLEET_FINALIZER),
      },
    },
    'merge',
  );
  return undefined;
}
