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
import type { KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { RESOURCES } from '../../controller/context.js';
import { type ClaimPatch, claimObjects, recheckOwner } from '../../controller/controller-ref.js';
import { REPLICA_SET_KIND } from './lookup.js';

/** The claimed pods, and the errors that make this sync fail (after it did what it could). */
export interface ClaimResult {
  readonly claimed: KubeObject[];
  readonly errors: Error[];
}

function isInvalid(err: unknown): boolean {
  return err instanceof StatusCodeError && (err.status?.reason === 'Invalid' || err.code === 422);
}

async function freshOwnerCheck(client: ApiClient, rs: KubeObject): Promise<Error | undefined> {
  const ref = {
    ...RESOURCES.replicasets,
    namespace: rs.metadata?.namespace ?? '',
    name: rs.metadata?.name ?? '',
  };
  const fresh = await client
    .get(ref)
    .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  return recheckOwner(rs, fresh, REPLICA_SET_KIND.kind);
}

function patchPod(client: ApiClient, p: ClaimPatch<KubeObject>): Promise<KubeObject> {
  const ref = {
    ...RESOURCES.pods,
    namespace: p.object.metadata?.namespace ?? '',
    name: p.object.metadata?.name ?? '',
  };
  return client.patch(ref, p.patch, 'strategic');
}

function adoptionError(pod: KubeObject, reason: Error): Error {
  const m = pod.metadata;
  return new Error(
    `can't adopt Pod ${m?.namespace ?? ''}/${m?.name ?? ''} (${m?.uid ?? ''}): ${reason.message}`,
  );
}

/** Claims `pods` (the namespace's active pods) for `rs`. */
export async function claimPods(
  client: ApiClient,
  rs: KubeObject,
  selector: LabelSelector,
  pods: readonly KubeObject[],
): Promise<ClaimResult> {
  const plan = claimObjects(rs, selector, pods, { ownerKind: REPLICA_SET_KIND });
  const claimed = [...plan.claimed];
  const errors = [...plan.errors];
  const releases = plan.release.map(async (p) => {
    await patchPod(client, p).catch((err: unknown) => {
      if (!isNotFound(err) && !isInvalid(err)) errors.push(err as Error);
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
          if (!isNotFound(err)) errors.push(err as Error);
        }
      });
    }
  }
  await Promise.all([...releases, ...adoptions]);
  return { claimed, errors };
}
