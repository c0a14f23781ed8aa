/**
 * Finalizer edits shared by the two protection controllers: add or remove one finalizer with
 * an update under the cached resourceVersion (a Conflict retries the key from a fresher
 * cache; a NotFound means there is nothing left to protect).
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { type ApiClient, isNotFound } from '../../client/api-client.js';
import type { ObjectRef } from '../../client/resource-path.js';

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata?.finalizers ?? []).includes(finalizer);
}

export function isDeleting(obj: KubeObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null;
}

/** Writes `obj` with `finalizer` added (`add`) or removed. */
export async function setFinalizer(
  client: ApiClient,
  ref: ObjectRef,
  obj: KubeObject,
  finalizer: string,
  add: boolean,
): Promise<void> {
  const current = obj.metadata?.finalizers ?? [];
  const finalizers = add ? [...current, finalizer] : current.filter((f) => f !== finalizer);
  try {
    await client.update(ref, { ...obj, metadata: { ...obj.metadata, finalizers } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/**
 * The step both protection controllers take: a live object without the finalizer gets it; a
 * deleting one loses it once `released()` says nothing uses the object any more.
 */
export async function syncProtection(
  client: ApiClient,
  ref: ObjectRef,
  obj: KubeObject,
  finalizer: string,
  released: () => boolean | Promise<boolean>,
): Promise<void> {
  const has = hasFinalizer(obj, finalizer);
  if (!isDeleting(obj)) {
    if (!has) await setFinalizer(client, ref, obj, finalizer, true);
  } else if (has && (await released())) {
    await setFinalizer(client, ref, obj, finalizer, false);
  }
}
