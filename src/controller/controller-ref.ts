/**
 * Controller references and claiming (upstream `controller_ref_manager.go`;
 * docs/design/controller-machinery.md §1).
 *
 * A controller lists every object of its child kind in its namespace and decides, per object,
 * whether it owns it ("claimed"), should adopt it (orphan matching its selector) or should release
 * it (owned but no longer matching). {@link claimObjects} returns that decision as a plan with the
 * exact patch bodies upstream sends; the caller applies the patches (strategic merge) and treats
 * NotFound on adopt, and NotFound/Invalid on release, as "not claimed" without error.
 *
 * @module
 */
import type { LabelSelector } from '../api/labels/selector.js';
import type { JsonObject, KubeObject, OwnerReference } from '../api/object.js';

/** The owner's group, version and kind (`schema.GroupVersionKind`); core group is `''`. */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** `apps/v1` for group apps, `v1` for the core group (upstream `GroupVersion.String()`). */
export function groupVersionString(gvk: GroupVersionKind): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

/** Upstream `metav1.GetControllerOf`: the first ownerReference with `controller: true`. */
export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** Upstream `metav1.IsControlledBy`: the object's controllerRef points at `owner`'s UID. */
export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  const ref = controllerRefOf(obj);
  return ref !== undefined && ref.uid === owner.metadata?.uid;
}

/** Upstream `metav1.NewControllerRef`: controller and blockOwnerDeletion both true. */
export function newControllerRef(owner: KubeObject, gvk: GroupVersionKind): OwnerReference {
  return {
    apiVersion: groupVersionString(gvk),
    kind: gvk.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Strategic-merge patch that adopts an object (upstream `ownerRefControllerPatch`). ownerReferences
 * merge by `uid`, so the ref is added beside existing ones; `metadata.uid` is a precondition: the
 * server answers 409/422 if the object was replaced by a namesake meanwhile.
 * Member order is upstream's JSON: ownerReferences, uid, finalizers (omitted when empty).
 */
export function adoptPatch(
  owner: KubeObject,
  gvk: GroupVersionKind,
  objectUid: string,
  finalizers: readonly string[] = [],
): JsonObject {
  const metadata: JsonObject = {
    ownerReferences: [newControllerRef(owner, gvk)],
    uid: objectUid,
  };
  if (finalizers.length > 0) metadata.finalizers = [...finalizers];
  return { metadata };
}

/**
 * Strategic-merge patch that releases an object (upstream
 * `GenerateDeleteOwnerRefStrategicMergeBytes`): deletes the ownerReference(s) with these UIDs,
 * with the object's `metadata.uid` as precondition. Member order is upstream's JSON:
 * uid, ownerReferences, `$deleteFromPrimitiveList/finalizers` (omitted when empty).
 */
export function releasePatch(
  ownerUids: string | readonly string[],
  objectUid: string,
  finalizers: readonly string[] = [],
): JsonObject {
  const uids = typeof ownerUids === 'string' ? [ownerUids] : ownerUids;
  const metadata: JsonObject = {
    uid: objectUid,
    ownerReferences: uids.map((uid) => ({ $patch: 'delete', uid })),
  };
  if (finalizers.length > 0) metadata['$deleteFromPrimitiveList/finalizers'] = [...finalizers];
  return { metadata };
}

/**
 * The fresh-read check made before adopting (upstream `RecheckDeletionTimestamp` around the
 * controllers' uncached GET). `fresh` is the object the GET returned, or the error it failed with.
 * Returns the error that blocks adoption, or undefined when adoption may proceed.
 */
export function recheckOwner(
  owner: KubeObject,
  fresh: KubeObject | Error,
  kind: string,
): Error | undefined {
  const ns = owner.metadata?.namespace ?? '';
  const name = owner.metadata?.name ?? '';
  if (fresh instanceof Error) return new Error(`can't recheck DeletionTimestamp: ${fresh.message}`);
  const freshUid = fresh.metadata?.uid ?? '';
  const uid = owner.metadata?.uid ?? '';
  if (freshUid !== uid) {
    const gone = `original ${kind} ${ns}/${name} is gone: got uid ${freshUid}, wanted ${uid}`;
    return new Error(`can't recheck DeletionTimestamp: ${gone}`);
  }
  const deletedAt = fresh.metadata?.deletionTimestamp;
  if (deletedAt) return new Error(`${ns}/${name} has just been deleted at ${deletedAt}`);
  return undefined;
}

/** One planned patch: the object it applies to and the strategic-merge body. */
export interface ClaimPatch<T extends KubeObject> {
  readonly object: T;
  readonly patch: JsonObject;
}

export interface ClaimOptions<T extends KubeObject> {
  /** The owner's kind, for the adopt patch's ownerReference. */
  readonly ownerKind: GroupVersionKind;
  /** Defaults to whether the owner carries a deletionTimestamp. */
  readonly ownerBeingDeleted?: boolean;
  /**
   * The fresh-read check (see {@link recheckOwner}); called lazily at most once per claim, only
   * when some orphan would be adopted. Omit it and gate `adopt` yourself before applying.
   */
  readonly canAdopt?: () => Error | undefined;
  /** Extra match conditions beside the selector (StatefulSet: the name parses as `<set>-<n>`). */
  readonly filters?: readonly ((obj: T) => boolean)[];
  /** Finalizers added on adopt and removed on release (Job's tracking finalizer). */
  readonly finalizers?: readonly string[];
}

/**
 * The claim decision. After applying: claimed = `claimed` ∪ the objects whose adopt patch
 * succeeded. Released objects are never claimed. `errors` are the adoption refusals from
 * `canAdopt`, one per orphan, as upstream aggregates them.
 */
export interface ClaimPlan<T extends KubeObject> {
  readonly claimed: T[];
  readonly adopt: ClaimPatch<T>[];
  readonly release: ClaimPatch<T>[];
  readonly errors: Error[];
}

type Decision = 'claimed' | 'adopt' | 'release' | 'ignore';

/** Upstream `ClaimObject`'s decision for one object, in upstream's order of checks. */
function decide(
  owner: KubeObject,
  obj: KubeObject,
  matches: boolean,
  ownerBeingDeleted: boolean,
): Decision {
  const ref = controllerRefOf(obj);
  if (ref !== undefined) {
    if (ref.uid !== owner.metadata?.uid) return 'ignore';
    if (matches) return 'claimed';
    return ownerBeingDeleted ? 'ignore' : 'release';
  }
  if (ownerBeingDeleted || !matches) return 'ignore';
  if (obj.metadata?.deletionTimestamp) return 'ignore';
  const ownerNs = owner.metadata?.namespace ?? '';
  if (ownerNs !== '' && ownerNs !== (obj.metadata?.namespace ?? '')) return 'ignore';
  return 'adopt';
}

/**
 * Plans the claim of `objects` by `owner` (upstream `ClaimObject` over a list):
 * - controlled by another UID → ignored;
 * - controlled by owner: matching → claimed (even while the owner is being deleted);
 *   not matching → released, unless the owner is being deleted;
 * - orphan: adopted if it matches, the owner is not being deleted, the object is not being
 *   deleted, it is in the owner's namespace and `canAdopt` allows it.
 */
export function claimObjects<T extends KubeObject>(
  owner: KubeObject,
  selector: LabelSelector,
  objects: readonly T[],
  options: ClaimOptions<T>,
): ClaimPlan<T> {
  const ownerBeingDeleted = options.ownerBeingDeleted ?? Boolean(owner.metadata?.deletionTimestamp);
  const filters = options.filters ?? [];
  const finalizers = options.finalizers ?? [];
  const plan: ClaimPlan<T> = { claimed: [], adopt: [], release: [], errors: [] };
  let adoptCheck: { error: Error | undefined } | undefined;

  for (const obj of objects) {
    const matches = selector.matches(obj.metadata?.labels) && filters.every((f) => f(obj));
    const uid = obj.metadata?.uid ?? '';
    switch (decide(owner, obj, matches, ownerBeingDeleted)) {
      case 'claimed':
        plan.claimed.push(obj);
        break;
      case 'release':
        plan.release.push({
          object: obj,
          patch: releasePatch(owner.metadata?.uid ?? '', uid, finalizers),
        });
        break;
      case 'adopt': {
        adoptCheck ??= { error: options.canAdopt?.() };
        if (adoptCheck.error !== undefined) {
          plan.errors.push(adoptionRefused(obj, adoptCheck.error));
        } else {
          plan.adopt.push({
            object: obj,
            patch: adoptPatch(owner, options.ownerKind, uid, finalizers),
          });
        }
        break;
      }
      case 'ignore':
        break;
    }
  }
  return plan;
}

/** Upstream's per-object wrapper, e.g. `can't adopt Pod ns/name (uid): <reason>`. */
function adoptionRefused(obj: KubeObject, reason: Error): Error {
  const m = obj.metadata;
  const kind = obj.kind ?? 'object';
  return new Error(
    `can't adopt ${kind} ${m?.namespace ?? ''}/${m?.name ?? ''} (${m?.uid ?? ''}): ${reason.message}`,
  );
}
