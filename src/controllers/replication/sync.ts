/**
 * One sync of one ReplicationController key: the ReplicaSet controller's sync
 * (`../replicaset/sync.ts`) on the RC's ReplicaSet view (`./adapter.ts`), as upstream runs
 * its ReplicaSet controller on RCs: claim the active pods the RC's map selector matches
 * (controller refs of kind `v1 ReplicationController`), create or delete pods with
 * `manageReplicas` when the expectations are satisfied, and write the status computed by
 * `replicaSetStatus` to the RC's `/status` only when it changed.
 *
 * @module
 */
import {
  asKind,
  type Pod,
  type ReplicaSetStatus,
  type ReplicationController,
} from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import { isNotFound } from '../../client/api-client.js';
import type { Lister } from '../../client/shared-informer.js';
import { splitKey } from '../../client/store.js';
import { RESOURCES } from '../../controller/context.js';
import type { ReconcileResult } from '../../controller/controller.js';
import { claimObjects, newControllerRef, recheckOwner } from '../../controller/controller-ref.js';
import type { EventRecorder } from '../../controller/events.js';
import type { UIDTrackingExpectations } from '../../controller/expectations.js';
import { checkPodCreatable, podFromTemplate } from '../../controller/pod-template.js';
import type { Clock } from '../../util/clock.js';
import { manageReplicas } from '../replicaset/manage-replicas.js';
import {
  FAILED_CREATE_REASON,
  FAILED_DELETE_REASON,
  hasStatusCause,
  NAMESPACE_TERMINATING_CAUSE,
  type PodControl,
  SUCCESSFUL_CREATE_REASON,
  SUCCESSFUL_DELETE_REASON,
} from '../replicaset/pod-control.js';
import {
  availabilityRecheckSeconds,
  isPodActive,
  replicaSetStatus,
  replicaSetStatusChanged,
} from '../replicaset/status.js';
import {
  REPLICATION_CONTROLLER_KIND,
  REPLICATION_CONTROLLERS,
  rcSelector,
  replicaSetView,
} from './adapter.js';

export interface RcSyncDeps {
  readonly client: ApiClient;
  readonly controllers: Lister<ReplicationController>;
  readonly pods: Lister<Pod>;
  readonly recorder: EventRecorder;
  readonly expectations: UIDTrackingExpectations;
  readonly clock: Clock;
  readonly warn: (fields: Record<string, unknown>, msg: string) => void;
  readonly burstReplicas?: number;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** Pod writes for `rc`, with upstream's events recorded on the RC (not on its ReplicaSet view). */
export function rcPodControl(
  client: ApiClient,
  recorder: EventRecorder,
  rc: ReplicationController,
): PodControl {
  const namespace = rc.metadata?.namespace ?? '';
  return {
    async createPod() {
      const template = rc.spec?.template ?? {};
      const pod = podFromTemplate(template, rc, newControllerRef(rc, REPLICATION_CONTROLLER_KIND));
      const refused = checkPodCreatable(pod);
      if (refused !== undefined) throw refused;
      try {
        const created = await client.create({ ...RESOURCES.pods, namespace }, pod);
        recorder.event(
          rc,
          'Normal',
          SUCCESSFUL_CREATE_REASON,
          `Created pod: ${created.metadata?.name ?? ''}`,
        );
      } catch (err) {
        if (!hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
          recorder.event(rc, 'Warning', FAILED_CREATE_REASON, `Error creating: ${errorText(err)}`);
        }
        throw err;
      }
    },
    async deletePod(_rs, pod) {
      const name = pod.metadata?.name ?? '';
      try {
        await client.delete({ ...RESOURCES.pods, namespace, name });
      } catch (err) {
        if (isNotFound(err)) throw err;
        recorder.event(rc, 'Warning', FAILED_DELETE_REASON, `Error deleting: ${errorText(err)}`);
        throw new Error(`unable to delete pods: ${errorText(err)}`, { cause: err });
      }
      recorder.event(rc, 'Normal', SUCCESSFUL_DELETE_REASON, `Deleted pod: ${name}`);
    },
  };
}

/** Adopts and releases `pods` for `rc` (upstream `ClaimPods` with the RC's controller kind). */
async function claimPods(
  client: ApiClient,
  rc: ReplicationController,
  pods: readonly Pod[],
): Promise<{ claimed: Pod[]; errors: Error[] }> {
  const selector = rcSelector(rc);
  if (selector === undefined) return { claimed: [], errors: [] };
  const plan = claimObjects(rc, selector, pods, { ownerKind: REPLICATION_CONTROLLER_KIND });
  const claimed = [...plan.claimed];
  const errors = [...plan.errors];
  const patch = async (object: Pod, body: unknown): Promise<Pod> => {
    const ref = {
      ...RESOURCES.pods,
      namespace: object.metadata?.namespace ?? '',
      name: object.metadata?.name ?? '',
    };
    return asKind(await client.patch(ref, body, 'strategic'), 'Pod');
  };
  const work: Promise<void>[] = plan.release.map(async (p) => {
    await patch(p.object, p.patch).catch((err: unknown) => {
      if (!isNotFound(err)) errors.push(asError(err));
    });
  });
  if (plan.adopt.length > 0) {
    // Read without the cache before adopting: an RC deleted a moment ago must not adopt.
    const ref = {
      ...REPLICATION_CONTROLLERS,
      namespace: rc.metadata?.namespace ?? '',
      name: rc.metadata?.name ?? '',
    };
    const fresh = await client.get(ref).catch(asError);
    const refused = recheckOwner(rc, fresh, REPLICATION_CONTROLLER_KIND.kind);
    if (refused !== undefined) errors.push(refused);
    else {
      for (const p of plan.adopt) {
        work.push(
          patch(p.object, p.patch).then(
            (pod) => {
              claimed.push(pod);
            },
            (err: unknown) => {
              if (!isNotFound(err)) errors.push(asError(err));
            },
          ),
        );
      }
    }
  }
  await Promise.all(work);
  return { claimed, errors };
}

/** The ReplicaSet status as the RC's (an RC has no `terminatingReplicas`). */
function rcStatus(status: ReplicaSetStatus): ReplicaSetStatus {
  const { terminatingReplicas: _t, ...rest } = status;
  return rest;
}

/** Reconciles the ReplicationController `key` (`<namespace>/<name>`). */
export async function syncReplicationController(
  deps: RcSyncDeps,
  key: string,
): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const rc = deps.controllers.get(namespace, name);
  if (rc === undefined) {
    deps.expectations.delete(key);
    return {};
  }
  const needsSync = deps.expectations.satisfied(key);
  if (rcSelector(rc) === undefined) {
    deps.warn({ replicationController: key }, 'empty or invalid selector; not syncing');
    return {};
  }
  const claim = await claimPods(
    deps.client,
    rc,
    deps.pods.listInNamespace(namespace).filter(isPodActive),
  );
  if (claim.errors.length > 0) throw claim.errors[0];
  const view = replicaSetView(rc);
  let manageError: Error | undefined;
  if (needsSync && !rc.metadata?.deletionTimestamp) {
    manageError = await manageReplicas(
      {
        pods: rcPodControl(deps.client, deps.recorder, rc),
        expectations: deps.expectations,
        now: deps.clock.now(),
        ...(deps.burstReplicas !== undefined ? { burstReplicas: deps.burstReplicas } : {}),
      },
      view,
      claim.claimed,
      [],
    );
  }
  const status = rcStatus(replicaSetStatus(view, claim.claimed, deps.clock.now(), manageError));
  if (replicaSetStatusChanged(view, status)) {
    const ref = { ...REPLICATION_CONTROLLERS, namespace, name };
    await deps.client.updateStatus(ref, { ...rc, status });
  }
  if (manageError !== undefined) throw manageError;
  const recheck = availabilityRecheckSeconds(view, status, manageError);
  return recheck === undefined ? {} : { requeueAfter: recheck * 1000 };
}
