/**
 * Request bodies for the GC's writes (upstream `patch.go`, `operations.go: removeFinalizer`),
 * and the same edits applied in memory so callers (and tests) can check a write changes
 * something before sending it.
 *
 * Built-in kinds take the strategic merge patch, which deletes list entries by their `uid`
 * merge key; custom resources have no strategic patch, so upstream falls back to a JSON merge
 * patch that carries the whole remaining list plus `resourceVersion`, making a concurrent edit
 * fail with 409 instead of being overwritten.
 *
 * @module
 */
import type { KubeObject, OwnerReference } from '../../api/object.js';

/** `refs` without the entries whose UID is in `uids`; order and other entries untouched. */
export function withoutOwnerRefs(
  refs: readonly OwnerReference[],
  uids: readonly string[],
): OwnerReference[] {
  const drop = new Set(uids);
  return refs.filter((r) => !drop.has(r.uid));
}

/** `refs` with `blockOwnerDeletion: true` turned to `false` for the given UIDs. */
export function withUnblockedOwnerRefs(
  refs: readonly OwnerReference[],
  uids: readonly string[],
): OwnerReference[] {
  const unblock = new Set(uids);
  return refs.map((r) =>
    r.blockOwnerDeletion === true && unblock.has(r.uid) ? { ...r, blockOwnerDeletion: false } : r,
  );
}

/**
 * Strategic merge patch removing the refs with `ownerUids` (upstream
 * `GenerateDeleteOwnerRefStrategicMergeBytes`); `metadata.uid` guards against a recreated object.
 */
export function deleteOwnerRefsStrategicPatch(dependentUid: string, ownerUids: readonly string[]) {
  return {
    metadata: {
      ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })),
      uid: dependentUid,
    },
  };
}

/** JSON merge patch form for custom resources (upstream `deleteOwnerRefJSONMergePatch`). */
export function deleteOwnerRefsMergePatch(obj: KubeObject, ownerUids: readonly string[]) {
  const meta = obj.metadata ?? {};
  return ownerRefsMergePatch(obj, withoutOwnerRefs(meta.ownerReferences ?? [], ownerUids));
}

/** Strategic merge patch setting `blockOwnerDeletion: false` on the given refs. */
export function unblockOwnerRefsStrategicPatch(obj: KubeObject, ownerUids: readonly string[]) {
  const meta = obj.metadata ?? {};
  const unblock = new Set(ownerUids);
  const refs = (meta.ownerReferences ?? []).filter(
    (r) => r.blockOwnerDeletion === true && unblock.has(r.uid),
  );
  return {
    metadata: {
      ownerReferences: refs.map((r) => ({ uid: r.uid, blockOwnerDeletion: false })),
      uid: meta.uid,
    },
  };
}

/** JSON merge patch form of {@link unblockOwnerRefsStrategicPatch}. */
export function unblockOwnerRefsMergePatch(obj: KubeObject, ownerUids: readonly string[]) {
  const meta = obj.metadata ?? {};
  return ownerRefsMergePatch(obj, withUnblockedOwnerRefs(meta.ownerReferences ?? [], ownerUids));
}

/**
 * JSON merge patch removing `finalizer` (upstream `removeFinalizer`); an emptied list is sent
 * as `null`, which removes the field.
 */
export function removeFinalizerMergePatch(obj: KubeObject, finalizer: string) {
  const meta = obj.metadata ?? {};
  const rest = (meta.finalizers ?? []).filter((f) => f !== finalizer);
  return {
    metadata: {
      ...(meta.resourceVersion === undefined ? {} : { resourceVersion: meta.resourceVersion }),
      finalizers: rest.length === 0 ? null : rest,
    },
  };
}

function ownerRefsMergePatch(obj: KubeObject, refs: OwnerReference[]) {
  const rv = obj.metadata?.resourceVersion;
  return {
    metadata: {
      ...(rv === undefined ? {} : { resourceVersion: rv }),
      ownerReferences: refs.length === 0 ? null : refs,
    },
  };
}
