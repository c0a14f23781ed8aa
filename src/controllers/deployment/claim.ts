/**
 * The ReplicaSets a Deployment owns, after upstream `deployment_controller.go:
 * getReplicaSetsForDeployment` (claim: adopt matching orphans, release owned non-matching ones;
 * `controller-ref.ts` plans the patches) and `getPodMapForDeployment`.
 *
 * @module
 */
import type { LabelSelector } from '../../api/labels/selector.js';
import { asKind, type Deployment, type Pod, type ReplicaSet } from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { objectRef } from '../../client/resource-path.js';
import { RESOURCES } from '../../controller/context.js';
import { claimObjects, controllerRefOf, recheckOwner } from '../../controller/controller-ref.js';
import { DEPLOYMENT_KIND } from './replica-sets.js';

/** 422 Invalid: the ownerReference to remove is gone, or the UID precondition failed. */
function isInvalid(err: unknown): boolean {
  return err instanceof StatusCodeError && err.code === 422;
}

/**
 * Claims `candidates` (every RS in the Deployment's namespace) and returns the owned ones, with
 * adopted RSes as the adopt patch returned them. An adoption the fresh owner check refuses fails
 * the reconcile, as upstream's aggregated claim error does.
 */
export async function claimReplicaSets(
  client: ApiClient,
  d: Deployment,
  selector: LabelSelector,
  candidates: readonly ReplicaSet[],
  signal?: AbortSignal,
): Promise<ReplicaSet[]> {
  const call = signal ? { signal } : {};
  const dry = claimObjects(d, selector, candidates, { ownerKind: DEPLOYMENT_KIND });
  let blocked: Error | undefined;
  if (dry.adopt.length > 0) {
    const fresh = await client
      .get(objectRef(RESOURCES.deployments, d), call)
      .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    blocked = recheckOwner(d, fresh, 'Deployment');
  }
  const plan = claimObjects(d, selector, candidates, {
    ownerKind: DEPLOYMENT_KIND,
    canAdopt: () => blocked,
  });
  const claimed = [...plan.claimed];
  for (const { object, patch } of plan.adopt) {
    try {
      const ref = objectRef(RESOURCES.replicasets, object);
      claimed.push(asKind(await client.patch(ref, patch, 'strategic', call), 'ReplicaSet'));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  for (const { object, patch } of plan.release) {
    try {
      await client.patch(objectRef(RESOURCES.replicasets, object), patch, 'strategic', call);
    } catch (err) {
      if (!isNotFound(err) && !isInvalid(err)) throw err;
    }
  }
  if (plan.errors.length > 0)
    throw new AggregateError(plan.errors, plan.errors.map((e) => e.message).join(', '));
  return claimed;
}

/**
 * `getPodMapForDeployment`: pods matching the Deployment's selector, grouped by the UID of the
 * owned ReplicaSet that controls them (every owned RS gets an entry, possibly empty).
 */
export function podsByReplicaSet(
  pods: readonly Pod[],
  rsList: readonly ReplicaSet[],
): Map<string, Pod[]> {
  const map = new Map<string, Pod[]>();
  for (const rs of rsList) map.set(rs.metadata?.uid ?? '', []);
  for (const pod of pods) {
    const ref = controllerRefOf(pod);
    if (ref?.kind === 'ReplicaSet') map.get(ref.uid)?.push(pod);
  }
  return map;
}
