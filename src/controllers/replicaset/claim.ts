/**
 * Claiming pods for a ReplicaSet (upstream `replica_set.go: claimPods` over
 * `controller_ref_manager.go: ClaimPods`): plan with `claimObjects`, then apply the patches.
 *
 * Before the first adoption the ReplicaSet is read again WITHOUT the cache (upstream #42639): a
 * ReplicaSet deleted a moment ago may still look alive in the informer, and must not adopt.
 * Adopt patches that meet NotFound, and release patches that meet NotFound or Invalid (the ref
 * or the pod's UID changed meanwhile), are not errors; the pod is simply not claimed.
 *
 * @module
 */
import type { LabelSelector } from '../../api/labels/selector.js';
import { asKind, type Pod, type ReplicaSet } from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { RESOURCES } from '../../controller/context.js';
import { type ClaimPatch, claimObjects, recheckOwner } from '../../controller/controller-ref.js';
import { REPLICA_SET_KIND } from './lookup.js';

/** The claimed pods, and the errors that make this sync fail (after it did what it could). */
export interface ClaimResult {
  readonly claimed: Pod[];
  readonly errors: Error[];
}

function isInvalid(err: unknown): boolean {
  return err instanceof StatusCodeError && (err.status?.reason === 'Invalid' || err.code === 422);
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

async function freshOwnerCheck(client: ApiClient, rs: ReplicaSet): Promise<Error | undefined> {
  const ref = {
    ...RESOURCES.replicasets,
    namespace: rs.metadata?.namespace ?? '',
    name: rs.metadata?.name ?? '',
  };
  const fresh = await client.get(ref).catch(asError);
  return recheckOwner(rs, fresh, REPLICA_SET_KIND.kind);
}

async function patchPod(client: ApiClient, p: ClaimPatch<Pod>): Promise<Pod> {
  const ref = {
    ...RESOURCES.pods,
    namespace: p.object.metadata?.namespace ?? '',
    name: p.object.metadata?.name ?? '',
  };
  return asKind(await client.patch(ref, p.patch, 'strategic'), 'Pod');
}

function adoptionError(pod: Pod, reason: Error): Error {
  const m = pod.metadata;
  return new Error(
    `can't adopt Pod ${m?.namespace ?? ''}/${m?.name ?? ''} (${m?.uid ?? ''}): ${reason.message}`,
  );
}

/** Claims `pods` (the namespace's active pods) for `rs`. */
export async function claimPods(
  client: ApiClient,
  rs: ReplicaSet,
  selector: LabelSelector,
  pods: readonly Pod[],
): Promise<ClaimResult> {
  const plan = claimObjects(rs, selector, pods, { ownerKind: REPLICA_SET_KIND });
  const claimed = [...plan.claimed];
  const errors = [...plan.errors];
  const releases = plan.release.map(async (p) => {
    await patchPod(client, p).catch((err: unknown) => {
      if (!isNotFound(err) && !isInvalid(err)) errors.push(asError(err));
    });
  });
  let adoptions: Promise<void>[] = [];
  if (plan.adopt.length > 0) {
    const refused = await freshOwnerCheck(client, rs);
    if (refused !== undefined) {
      for (const p of plan.adopt) errors.push(adoptionError(p.object, refused));
    } else {
      adoptions = plan.adopt.map(async (p) => {
        try {
          claimed.push(await patchPod(client, p));
        } catch (err) {
          if (!isNotFound(err)) errors.push(asError(err));
        }
      });
    }
  }
  await Promise.all([...releases, ...adoptions]);
  return { claimed, errors };
}
