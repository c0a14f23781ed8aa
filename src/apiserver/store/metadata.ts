/**
 * The generic metadata rules every kind follows on create and update, after upstream's
 * `rest.BeforeCreate` / `rest.BeforeUpdate` and `genericregistry.Store`. Pure functions:
 * the caller passes the time and the uid.
 *
 * @module
 */

import { deepEqual, type KubeObject, type ObjectMeta } from '../../api/object.js';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import { formatTime } from '../../api/time.js';

/** Sets `apiVersion` and `kind` to the endpoint's (the handler already rejected mismatches). */
export function setTypeMeta(obj: KubeObject, def: ResourceDefinition): void {
  obj.apiVersion = apiVersionOf(def);
  obj.kind = def.kind;
}

export function metaOf(obj: KubeObject): ObjectMeta {
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  return obj.metadata;
}

/** Drops `null` and empty collections that clients send (kubectl sends `creationTimestamp: null`). */
function tidyMeta(meta: ObjectMeta): void {
  for (const k of Object.keys(meta)) {
    if (meta[k] === null) delete meta[k];
  }
  for (const k of ['labels', 'annotations'] as const) {
    const v = meta[k];
    if (v !== undefined && v !== null && Object.keys(v).length === 0) delete meta[k];
  }
  for (const k of ['finalizers', 'ownerReferences', 'managedFields'] as const) {
    const v = meta[k];
    if (Array.isArray(v) && v.length === 0) delete meta[k];
  }
}

/** System fields a create request may not choose (upstream `BeforeCreate`). */
export function prepareCreateMeta(
  obj: KubeObject,
  def: ResourceDefinition,
  now: number,
  uid: string,
): void {
  const meta = metaOf(obj);
  tidyMeta(meta);
  meta.uid = uid;
  meta.creationTimestamp = formatTime(now);
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (def.generation === 'none') delete meta.generation;
  else meta.generation = 1;
}

/**
 * Carries the system fields of `old` into `next` (clients cannot change them through an
 * update) and bumps generation when anything outside metadata and status changed.
 */
export function prepareUpdateMeta(
  next: KubeObject,
  old: KubeObject,
  def: ResourceDefinition,
): void {
  const meta = metaOf(next);
  const oldMeta = old.metadata ?? {};
  tidyMeta(meta);
  // uid: a differing uid is caught by validation (immutable); an absent one is kept.
  if (meta.uid === undefined) meta.uid = oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp ?? null;
  if (meta.creationTimestamp === null) delete meta.creationTimestamp;
  copyOrDelete(meta, oldMeta, 'deletionTimestamp');
  copyOrDelete(meta, oldMeta, 'deletionGracePeriodSeconds');
  if (def.generation === 'none') {
    copyOrDelete(meta, oldMeta, 'generation');
  } else {
    const oldGen = oldMeta.generation ?? 1;
    const annotationsChanged =
      def.generation === 'spec-and-annotations' &&
      !deepEqual(meta.annotations ?? {}, oldMeta.annotations ?? {});
    const changed =
      def.generation === 'all-but-metadata'
        ? !deepEqual({ ...next, metadata: undefined }, { ...old, metadata: undefined })
        : specChanged(next, old);
    meta.generation = changed || annotationsChanged ? oldGen + 1 : oldGen;
  }
}

function copyOrDelete(meta: ObjectMeta, oldMeta: ObjectMeta, key: keyof ObjectMeta): void {
  const v = oldMeta[key];
  if (v === undefined || v === null) delete meta[key];
  else meta[key] = v;
}

/** Whether anything but `metadata`, `status`, `apiVersion` and `kind` differs. */
export function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): KubeObject => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return rest;
  };
  return !deepEqual(strip(a), strip(b));
}

/** Whether an update would store exactly what is stored (ignoring resourceVersion). */
export function sameStoredObject(next: KubeObject, old: KubeObject): boolean {
  // Shallow copies suffice: deepEqual skips keys whose value is undefined.
  const withoutRv = (o: KubeObject): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, resourceVersion: undefined },
  });
  return deepEqual(withoutRv(next), withoutRv(old));
}

/**
 * Whether an update leaves an object marked for deletion with nothing that holds it, so the
 * update removes it (upstream `ShouldDeleteDuringUpdate`). A graceful deletion still running
 * (`deletionGracePeriodSeconds` > 0: a pod whose kubelet has not confirmed) holds it too:
 * only the final delete with grace 0 removes such a pod, not a status write on the way.
 */
export function readyToRemove(obj: KubeObject, def: ResourceDefinition): boolean {
  const meta = obj.metadata ?? {};
  if (meta.deletionTimestamp === undefined || meta.deletionTimestamp === null) return false;
  if ((meta.finalizers ?? []).length > 0) return false;
  if ((meta.deletionGracePeriodSeconds ?? 0) > 0) return false;
  return !(def.strategy.holdsDeletion?.(obj) ?? false);
}
