/**
 * How the server decodes an object's JSON (a request body, a patch, the stored text). Built-in
 * kinds decode int64 values exactly (`src/api/int64-json.ts`: a ControllerRevision's
 * `revision` of 3546343826724305832 stays that number). Custom resources keep `JSON.parse`:
 * their OpenAPI validation, defaulting and CEL read integers as numbers, and have not been
 * taught bigints yet (docs/adr/0012-int64-numbers.md); their stored text holds the doubles
 * they were decoded to, so both decoders read it back alike.
 *
 * @module
 */
import { parseJson } from '../../api/int64-json.js';
import { isKubeObject } from '../../api/is-kube-object.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';

/** Whether `def`'s objects decode integers beyond 2^53 exactly (as bigints). */
export function exactIntegers(def: ResourceDefinition): boolean {
  return def.customResource === undefined;
}

/** JSON text the store holds (only ever objects the server wrote), decoded. */
export function parseStoredObject(text: string): KubeObject {
  return storedObject(JSON.parse(text));
}

/** The stored (or served) JSON text of one of `def`'s objects, decoded. */
export function decodeObjectJson(def: ResourceDefinition, text: string): KubeObject {
  return storedObject(exactIntegers(def) ? parseJson(text) : JSON.parse(text));
}

/**
 * What the store holds is always an object the server validated and wrote: anything else is
 * a corrupt store, reported as such rather than read on as an object.
 */
function storedObject(v: unknown): KubeObject {
  if (!isKubeObject(v)) throw new TypeError('a stored value is not a Kubernetes object');
  return v;
}
