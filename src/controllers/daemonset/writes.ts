/**
 * The DaemonSet controller's writes (upstream `controller_ref_manager.go: ClaimPods,
 * ClaimControllerRevisions`, `RealPodControl.CreatePods / DeletePod` with their Events, and the
 * history writes of `update.go: constructHistory, snapshot, cleanupHistory`). Decisions are
 * made by the pure modules; this file only talks to the API.
 *
 * Events on the DaemonSet, as upstream's pod control records them: Normal `SuccessfulCreate`
 * "Created pod: <name>", Warning `FailedCreate` "Error creating: <err>" (none while the
 * namespace is terminating), Normal `SuccessfulDelete` "Deleted pod: <name>", Warning
 * `FailedDelete` "Error deleting: <err>" (none for NotFound).
 *
 * @module
 */
import type { LabelSelector } from '../../api/labels/selector.js';
import {
  asKind,
  type ControllerRevision,
  type DaemonSet,
  type Kinds,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { isAlreadyExists, isNotFound } from '../../client/api-client.js';
import type { ResourceType } from '../../client/resource-path.js';
import { RESOURCES } from '../../controller/context.js';
import { claimObjects, newControllerRef, recheckOwner } from '../../controller/controller-ref.js';
import type { EventRecorder } from '../../controller/events.js';
import { checkPodCreatable, podFromTemplate } from '../../controller/pod-template.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../replicaset/pod-control.js';
import { DAEMON_SET_KIND, matchesDaemonSet } from './history.js';
import { daemonPodTemplate } from './node-eligibility.js';

/** apps/v1 daemonsets (the controller context's table has no entry for them). */
export const DAEMONSETS: ResourceType = { group: 'apps', version: 'v1', plural: 'daemonsets' };

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const nsOf = (ds: DaemonSet): string => ds.metadata?.namespace ?? '';

/**
 * Claims `objects` for `ds` (adopting matching orphans after a fresh read of the DaemonSet,
 * releasing its own that no longer match); returns the claimed ones as they are afterwards.
 */
export async function claimChildren<N extends 'Pod' | 'ControllerRevision'>(
  client: ApiClient,
  ds: DaemonSet,
  selector: LabelSelector,
  objects: readonly KubeObject[],
  kind: N,
  resource: ResourceType,
): Promise<Kinds[N][]> {
  const plan = claimObjects(ds, selector, objects, { ownerKind: DAEMON_SET_KIND });
  const claimed = plan.claimed.map((o) => asKind(o, kind));
  const ref = (o: KubeObject) => ({
    ...resource,
    namespace: nsOf(ds),
    name: o.metadata?.name ?? '',
  });
  for (const p of plan.release) {
    await client.patch(ref(p.object), p.patch, 'strategic').catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
  if (plan.adopt.length > 0) {
    const fresh = await client
      .get({ ...DAEMONSETS, namespace: nsOf(ds), name: ds.metadata?.name ?? '' })
      .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    const refused = recheckOwner(ds, fresh, 'DaemonSet');
    if (refused !== undefined) throw new Error(`can't adopt ${kind}s: ${refused.message}`);
    for (const p of plan.adopt) {
      try {
        const patched = await client.patch(ref(p.object), p.patch, 'strategic');
        claimed.push(asKind(patched, kind));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
  return claimed;
}

/** Creates the daemon pod for `nodeName` and records the Event. */
export async function createDaemonPod(
  client: ApiClient,
  recorder: EventRecorder,
  ds: DaemonSet,
  nodeName: string,
  hash: string,
  generation: number | undefined,
): Promise<void> {
  const template = daemonPodTemplate(ds, nodeName, hash, generation);
  const pod = podFromTemplate(template, ds, newControllerRef(ds, DAEMON_SET_KIND));
  const refused = checkPodCreatable(pod);
  if (refused !== undefined) throw refused;
  let created: KubeObject;
  try {
    created = await client.create({ ...RESOURCES.pods, namespace: nsOf(ds) }, pod);
  } catch (err) {
    if (!hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
      recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorText(err)}`);
    }
    throw err;
  }
  recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata?.name ?? ''}`);
}

/** Deletes a daemon pod and records the Event; NotFound rejects without one. */
export async function deleteDaemonPod(
  client: ApiClient,
  recorder: EventRecorder,
  ds: DaemonSet,
  name: string,
): Promise<void> {
  try {
    await client.delete({ ...RESOURCES.pods, namespace: nsOf(ds), name });
  } catch (err) {
    if (!isNotFound(err)) {
      recorder.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorText(err)}`);
    }
    throw err;
  }
  recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
}

const revisionRef = (ds: DaemonSet, name: string) => ({
  ...RESOURCES.controllerrevisions,
  namespace: nsOf(ds),
  name,
});

/**
 * Upstream `snapshot`: creates the revision; on AlreadyExists reads it, uses it if it holds the
 * same template, else bumps `status.collisionCount` (a new name next sync) and fails this sync.
 */
export async function createRevision(
  client: ApiClient,
  ds: DaemonSet,
  revision: ControllerRevision,
): Promise<ControllerRevision> {
  try {
    return asKind(
      await client.create({ ...RESOURCES.controllerrevisions, namespace: nsOf(ds) }, revision),
      'ControllerRevision',
    );
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const name = revision.metadata?.name ?? '';
    const existing = asKind(await client.get(revisionRef(ds, name)), 'ControllerRevision');
    if (matchesDaemonSet(ds, existing)) return existing;
    const ref = { ...DAEMONSETS, namespace: nsOf(ds), name: ds.metadata?.name ?? '' };
    const fresh = asKind(await client.get(ref), 'DaemonSet');
    if ((fresh.status?.collisionCount ?? 0) === (ds.status?.collisionCount ?? 0)) {
      const status = {
        ...(fresh.status ?? zeroStatus()),
        collisionCount: (fresh.status?.collisionCount ?? 0) + 1,
      };
      await client.updateStatus(ref, { ...fresh, status });
    }
    throw new Error(
      `hash collision for DaemonSet ${nsOf(ds)}/${ds.metadata?.name ?? ''}: ${name} exists`,
      {
        cause: err,
      },
    );
  }
}

function zeroStatus() {
  return {
    currentNumberScheduled: 0,
    desiredNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
  };
}

/** Writes a changed revision (a new hash label or number). */
export async function updateRevision(
  client: ApiClient,
  ds: DaemonSet,
  revision: ControllerRevision,
): Promise<ControllerRevision> {
  const written = await client.update(revisionRef(ds, revision.metadata?.name ?? ''), revision);
  return asKind(written, 'ControllerRevision');
}

/** Deletes a revision (NotFound is fine: it is gone). */
export async function deleteRevision(
  client: ApiClient,
  ds: DaemonSet,
  name: string,
): Promise<void> {
  await client.delete(revisionRef(ds, name)).catch((err: unknown) => {
    if (!isNotFound(err)) throw err;
  });
}
