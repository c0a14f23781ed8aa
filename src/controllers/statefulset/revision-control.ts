/**
 * The StatefulSet's ControllerRevisions against the API (upstream `stateful_set.go:
 * adoptOrphanRevisions`, `stateful_set_control.go: ListRevisions, getStatefulSetRevisions,
 * truncateHistory`, `history.RealHistory: CreateControllerRevision, UpdateControllerRevision`):
 * the decisions are `revisions.ts`'s; this file adopts orphans, creates or re-numbers the update
 * revision (bumping the collision count on a name taken by other data) and deletes pruned history.
 *
 * @module
 */
import type { LabelSelector } from '../../api/labels/selector.js';
import {
  asKind,
  type ControllerRevision,
  type Pod,
  type StatefulSet,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { isAlreadyExists, isNotFound } from '../../client/api-client.js';
import type { Lister } from '../../client/shared-informer.js';
import { RESOURCES } from '../../controller/context.js';
import { adoptPatch, controllerRefOf, recheckOwner } from '../../controller/controller-ref.js';
import { STATEFULSET_GVK } from './identity.js';
import { planRevisions, type RevisionPlan, revisionsToPrune } from './revisions.js';

/** Re-plans after AlreadyExists before giving up this sync (each one is a fresh GET). */
const MAX_CREATE_ATTEMPTS = 5;

function refOf(set: KubeObject, name: string) {
  return { ...RESOURCES.controllerrevisions, namespace: set.metadata?.namespace ?? '', name };
}

function collectionOf(set: KubeObject) {
  return { ...RESOURCES.controllerrevisions, namespace: set.metadata?.namespace ?? '' };
}

/** Upstream `ListRevisions`: selector-matching revisions controlled by the set or orphaned. */
export function setRevisions(
  set: StatefulSet,
  selector: LabelSelector,
  namespaceRevisions: readonly ControllerRevision[],
): ControllerRevision[] {
  return namespaceRevisions.filter((r) => {
    if (!selector.matches(r.metadata?.labels)) return false;
    const ref = controllerRefOf(r);
    return ref === undefined || ref.uid === set.metadata?.uid;
  });
}

/**
 * Upstream `adoptOrphanRevisions`: when an orphan matches, re-read the set without the cache
 * (a set deleted a moment ago must not adopt) and patch a controllerRef onto each orphan.
 * Returns the revisions as they are after adoption.
 */
export async function adoptOrphanRevisions(
  client: ApiClient,
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
): Promise<ControllerRevision[]> {
  const orphans = revisions.filter((r) => controllerRefOf(r) === undefined);
  if (orphans.length === 0) return [...revisions];
  const fresh = await client
    .get({
      ...RESOURCES.statefulsets,
      namespace: set.metadata?.namespace ?? '',
      name: set.metadata?.name ?? '',
    })
    .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  const refused = recheckOwner(set, fresh, 'StatefulSet');
  if (refused !== undefined) throw new Error(`can't adopt ControllerRevisions: ${refused.message}`);
  const adopted = new Map<string, ControllerRevision>();
  for (const orphan of orphans) {
    const name = orphan.metadata?.name ?? '';
    const patch = adoptPatch(set, STATEFULSET_GVK, orphan.metadata?.uid ?? '');
    const patched = await client.patch(refOf(set, name), patch, 'strategic');
    adopted.set(name, asKind(patched, 'ControllerRevision'));
  }
  return revisions.map((r) => adopted.get(r.metadata?.name ?? '') ?? r);
}

/** The revisions of this sync after the history step was written. */
export interface EnsuredRevisions {
  readonly plan: RevisionPlan;
  /** The set's revisions including the created or re-numbered update revision. */
  readonly revisions: ControllerRevision[];
}

/**
 * Upstream `getStatefulSetRevisions`' writes: re-number an equal older revision (rollback), or
 * create the new one. AlreadyExists (a revision the cache had not seen) re-plans with the stored
 * object: equal data is reused, other data bumps the collision count.
 */
export async function ensureRevisions(
  client: ApiClient,
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
  namespaceRevisions: readonly ControllerRevision[],
): Promise<EnsuredRevisions> {
  const known = new Map(namespaceRevisions.map((r) => [r.metadata?.name ?? '', r]));
  for (let attempt = 0; ; attempt++) {
    const plan = planRevisions(set, revisions, { namespaceRevisions: [...known.values()] });
    if (plan.bump !== undefined) {
      const ref = refOf(set, plan.bump.metadata?.name ?? '');
      const bumped = asKind(await client.update(ref, plan.bump), 'ControllerRevision');
      return { plan: { ...plan, updateRevision: bumped }, revisions: replace(revisions, bumped) };
    }
    if (plan.create === undefined) return { plan, revisions: [...revisions] };
    try {
      const created = asKind(
        await client.create(collectionOf(set), plan.create),
        'ControllerRevision',
      );
      return { plan: { ...plan, updateRevision: created }, revisions: [...revisions, created] };
    } catch (err) {
      if (!isAlreadyExists(err) || attempt + 1 >= MAX_CREATE_ATTEMPTS) throw err;
      const name = plan.create.metadata?.name ?? '';
      known.set(name, asKind(await client.get(refOf(set, name)), 'ControllerRevision'));
    }
  }
}

function replace(
  revisions: readonly ControllerRevision[],
  updated: ControllerRevision,
): ControllerRevision[] {
  const name = updated.metadata?.name;
  return revisions.map((r) => (r.metadata?.name === name ? updated : r));
}

/** Upstream `truncateHistory`: delete the non-live revisions beyond `revisionHistoryLimit`. */
export async function truncateHistory(
  client: ApiClient,
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
  pods: readonly Pod[],
  live: { currentRevision: string; updateRevision: string },
): Promise<void> {
  for (const r of revisionsToPrune(set, revisions, pods, live)) {
    try {
      await client.delete(refOf(set, r.metadata?.name ?? ''));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** The lister-backed namespace revisions (a helper so the sync reads one place). */
export function namespaceRevisionsOf(
  lister: Lister<ControllerRevision>,
  set: KubeObject,
): ControllerRevision[] {
  return lister.listInNamespace(set.metadata?.namespace ?? '');
}
