/**
 * One sync of one ReplicaSet key (upstream `replica_set.go: syncReplicaSet` and
 * `replica_set_utils.go: updateReplicaSetStatus`; docs/design/replicaset-deployment.md §1, §6):
 *
 * 1. read the ReplicaSet from the cache; gone → forget its expectations, done;
 * 2. note whether its expectations are satisfied (no creates/deletes in flight, or 5 min passed);
 * 3. list the namespace's pods, keep the active ones, claim them (adopt/release);
 * 4. if satisfied and not being deleted, create/delete pods (`manage-replicas.ts`);
 * 5. compute the status (`status.ts`) and write it through `/status` only when it changed;
 * 6. ask for a re-sync after minReadySeconds while ready pods are not yet available;
 * 7. fail (so the key is retried with backoff) with the manage error, if any.
 *
 * @module
 */
import { asKind, type Pod, type ReplicaSet, type ReplicaSetStatus } from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import type { Lister } from '../../client/shared-informer.js';
import { splitKey } from '../../client/store.js';
import { RESOURCES } from '../../controller/context.js';
import type { ReconcileResult } from '../../controller/controller.js';
import type { UIDTrackingExpectations } from '../../controller/expectations.js';
import type { OwnWrites } from '../../controller/own-writes.js';
import type { Clock } from '../../util/clock.js';
import { claimPods } from './claim.js';
import { CONTROLLER_UID_INDEX, relatedPods, replicaSetSelector } from './lookup.js';
import { manageReplicas } from './manage-replicas.js';
import type { PodControl } from './pod-control.js';
import {
  availabilityRecheckSeconds,
  isPodActive,
  replicaSetStatus,
  replicaSetStatusChanged,
} from './status.js';

/** Upstream `statusUpdateRetries`: one GET + retry after a failed status write. */
const STATUS_UPDATE_RETRIES = 1;

export interface SyncDeps {
  readonly client: ApiClient;
  readonly replicaSets: Lister<ReplicaSet>;
  /**
   * Status writes the informer has not echoed yet (`own-writes.ts`): a pod event that wakes the
   * sync first would otherwise PUT the same status from the replaced version and earn a 409
   * (4 of 9 status writes in a 200-replica rollout).
   */
  readonly ownReplicaSets: OwnWrites<ReplicaSet>;
  readonly pods: Lister<Pod>;
  readonly podControl: PodControl;
  readonly expectations: UIDTrackingExpectations;
  readonly clock: Clock;
  /** Logs a ReplicaSet that cannot be synced and will not be retried (invalid selector). */
  readonly warn: (fields: Record<string, unknown>, msg: string) => void;
  readonly burstReplicas?: number;
}

/** Reconciles the ReplicaSet `key` (`<namespace>/<name>`). */
export async function syncReplicaSet(deps: SyncDeps, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const rs = deps.ownReplicaSets.newest(key, deps.replicaSets.get(namespace, name));
  if (rs === undefined) {
    deps.expectations.delete(key);
    return {};
  }
  const needsSync = deps.expectations.satisfied(key);
  const selector = replicaSetSelector(rs);
  if (selector === undefined) {
    deps.warn({ replicaSet: key }, 'invalid selector; not syncing');
    return {};
  }
  const namespacePods = deps.pods.listInNamespace(namespace);
  const claim = await claimPods(deps.client, rs, selector, namespacePods.filter(isPodActive));
  if (claim.errors.length > 0) throw aggregate(claim.errors);
  const filteredPods = claim.claimed;

  let manageError: Error | undefined;
  if (needsSync && !rs.metadata?.deletionTimestamp) {
    const siblings = deps.replicaSets.byIndex(CONTROLLER_UID_INDEX, controllerUid(rs));
    manageError = await manageReplicas(
      {
        pods: deps.podControl,
        expectations: deps.expectations,
        now: deps.clock.now(),
        ...(deps.burstReplicas !== undefined ? { burstReplicas: deps.burstReplicas } : {}),
      },
      rs,
      filteredPods,
      relatedPods(rs, siblings, namespacePods),
    );
  }
  const status = replicaSetStatus(rs, filteredPods, deps.clock.now(), manageError);
  const written = await writeStatus(deps.client, rs, status, (from, stored) =>
    deps.ownReplicaSets.record(key, from, stored),
  );
  if (manageError !== undefined) throw manageError;
  const recheck = availabilityRecheckSeconds(written, status, manageError);
  return recheck === undefined ? {} : { requeueAfter: recheck * 1000 };
}

function controllerUid(rs: ReplicaSet): string {
  return rs.metadata?.ownerReferences?.find((r) => r.controller === true)?.uid ?? '';
}

function aggregate(errors: readonly Error[]): Error {
  if (errors.length === 1 && errors[0] !== undefined) return errors[0];
  return new Error(`[${errors.map((e) => e.message).join(', ')}]`, { cause: errors[0] });
}

/**
 * Upstream `updateReplicaSetStatus`: nothing to write when nothing changed; otherwise PUT
 * `/status` with `status` on the cached object, and on failure GET the newest object and try
 * once more. Returns the ReplicaSet as stored (or as cached when nothing was written).
 */
async function writeStatus(
  client: ApiClient,
  rs: ReplicaSet,
  status: ReplicaSetStatus,
  wrote: (from: string | undefined, stored: ReplicaSet) => void,
): Promise<ReplicaSet> {
  if (!replicaSetStatusChanged(rs, status)) return rs;
  const ref = {
    ...RESOURCES.replicasets,
    namespace: rs.metadata?.namespace ?? '',
    name: rs.metadata?.name ?? '',
  };
  let current = rs;
  for (let attempt = 0; ; attempt++) {
    try {
      const stored = asKind(await client.updateStatus(ref, { ...current, status }), 'ReplicaSet');
      wrote(current.metadata?.resourceVersion, stored);
      return stored;
    } catch (err) {
      if (attempt >= STATUS_UPDATE_RETRIES) throw err;
      current = asKind(await client.get(ref), 'ReplicaSet');
    }
  }
}
