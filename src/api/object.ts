/**
 * The shape of Kubernetes objects as the API server handles them: plain JSON with typed
 * metadata. Kind-specific fields stay `unknown` until a kind's strategy looks at them.
 *
 * @module
 */
import type { ObjectMeta as ObjectMetaFields } from './model/meta.generated.js';

/**
 * `OwnerReference`, `ManagedFieldsEntry` and the fields of `ObjectMeta` are the generated ones
 * (src/api/model/meta.generated.ts), so metadata has one definition.
 */
export type { ManagedFieldsEntry, OwnerReference } from './model/meta.generated.js';

/**
 * Metadata as the server's generic code handles it: the generated fields, plus any other key,
 * because stored and patched metadata carries patch directives
 * (`$deleteFromPrimitiveList/finalizers`) and is read by key (`meta[field]`).
 */
export interface ObjectMeta extends ObjectMetaFields {
  [extra: string]: unknown;
}

/** Any Kubernetes object. `spec`/`status`/`data`… are reached through the index signature. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** A JSON object: what a decoded request body must be before it is treated as an object. */
export type JsonObject = { [key: string]: unknown };

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep copy of plain JSON data (objects from the store are never mutated in place). */
export function deepCopy<T>(v: T): T {
  return structuredClone(v);
}

/** Structural equality of JSON values; key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (Array.isArray(b)) return false;
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const ak = Object.keys(a).filter((k) => a[k] !== undefined);
  const bk = Object.keys(b).filter((k) => b[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => deepEqual(a[k], b[k]));
}

/**
 * The value at a dotted field path (`spec.replicas`, or the JSONPath-like `.spec.replicas` CRDs
 * use for scale paths and selectable fields); undefined when any step is missing.
 */
export function valueAtPath(obj: unknown, dotted: string): unknown {
  let cur: unknown = obj;
  for (const part of dotted.replace(/^\./, '').split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    // Property access as JavaScript does it, arrays included (`items.0`).
    cur = Reflect.get(cur, part);
  }
  return cur;
}
