/**
 * Claiming pods for a StatefulSet (upstream `stateful_set.go: getPodsForStatefulSet` over
 * `ClaimPods`): a pod belongs to the set when the selector matches AND its name is
 * `<set>-<ordinal>` (`isMemberOf`). Orphans are adopted after an uncached re-read of the set
 * (a set deleted a moment ago must not adopt); owned pods that stopped matching are released.
 * Adopt NotFound and release NotFound/Invalid mean "not ours" and are not errors.
 *
 * @module
 */
import type { LabelSelector } from '../../api/labels/selector.js';
import { asKind, type Pod, type StatefulSet } from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { RESOURCES } from '../../controller/context.js';
import { type ClaimPatch, claimObjects, recheckOwner } from '../../controller/controller-ref.js';
import { isMemberOf, STATEFULSET_GVK } from './identity.js';

function isInvalid(err: unknown): boolean {
  return err instanceof StatusCodeError && (err.status?.reason === 'Invalid' || err.code === 422);
}

async function patchPod(client: ApiClient, p: ClaimPatch<Pod>): Promise<Pod> {
  const m = p.object.metadata;
  const ref = { ...RESOURCES.pods, namespace: m?.namespace ?? '', name: m?.name ?? '' };
  return asKind(await client.patch(ref, p.patch, 'strategic'), 'Pod');
}

/** The set's pods after adoption and release; throws the first adoption error after trying all. */
export async function claimSetPods(
  client: ApiClient,
  set: StatefulSet,
  selector: LabelSelector,
  namespacePods: readonly Pod[],
): Promise<Pod[]> {
  const plan = claimObjects(set, selector, namespacePods, {
    ownerKind: STATEFULSET_GVK,
    filters: [(pod) => isMemberOf(set, pod)],
  });
  const claimed = [...plan.claimed];
  const errors: unknown[] = [];
  for (const p of plan.release) {
    await patchPod(client, p).catch((err: unknown) => {
      if (!isNotFound(err) && !isInvalid(err)) errors.push(err);
    });
  }
  if (plan.adopt.length > 0) {
    const ref = {
      ...RESOURCES.statefulsets,
      namespace: set.metadata?.namespace ?? '',
      name: set.metadata?.name ?? '',
    };
    const fresh = await client
      .get(ref)
      .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    const refused = recheckOwner(set, fresh, 'StatefulSet');
    if (refused !== undefined) throw refused;
    for (const p of plan.adopt) {
      try {
        claimed.push(await patchPod(client, p));
      } catch (err) {
        if (!isNotFound(err)) errors.push(err);
      }
    }
  }
  if (errors.length > 0) throw errors[0];
  return claimed;
}
