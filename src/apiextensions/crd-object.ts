/**
 * CustomResourceDefinition objects as this package reads them ({@link CustomResourceDefinition}:
 * every field optional). A CRD reaches the strategy hooks decoded against the kind's schema
 * (`spec` or `status` of another JSON type is a 400 before), and the controller from the store,
 * which holds only what the strategy validated: so the check here is of shape, as
 * `isKubeObject`'s, and a failure means a bug or a corrupt store, never a client's mistake.
 *
 * @module
 */
import type { CustomResourceDefinition } from '../api/crd-types.js';
import { isJsonObject, type KubeObject } from '../api/object.js';
import { parseStoredObject } from '../apiserver/store/object-json.js';

/** Whether `obj`'s `spec` and `status` are objects where present. */
export function isCustomResourceDefinition(obj: KubeObject): obj is CustomResourceDefinition {
  const { spec, status } = obj;
  return (
    (spec === undefined || isJsonObject(spec)) && (status === undefined || isJsonObject(status))
  );
}

/** `obj` as a CRD (the same object); throws a `TypeError` when its shape says otherwise. */
export function asCrd(obj: KubeObject): CustomResourceDefinition {
  if (!isCustomResourceDefinition(obj)) {
    throw new TypeError(
      `CustomResourceDefinition ${obj.metadata?.name ?? ''}: spec or status is not an object`,
    );
  }
  return obj;
}

/** A stored CRD's JSON text, decoded. */
export function parseStoredCrd(text: string): CustomResourceDefinition {
  return asCrd(parseStoredObject(text));
}
