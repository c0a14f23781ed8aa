/**
 * The strategic merge patch directives and how patch content becomes object content.
 *
 * - `$patch: replace | delete` in a map; `$patch: delete | replace` in an element of a merged
 *   list (`merge` is refused in both places, as upstream does).
 * - `$retainKeys: [keys]`: clear every other key of the live map (unions such as a volume
 *   source or a deployment strategy).
 * - `$setElementOrder/<list>: [...]`: the final order of a merged list.
 * - `$deleteFromPrimitiveList/<list>: [...]`: values to remove from a set of primitives.
 *
 * @module
 */
import { cloneJson, setMember } from '../merge-patch.js';
import { BAD_PRIMITIVE_LIST, BAD_SET_ELEMENT_ORDER, badPatchFormat } from './errors.js';
import { isJsonObject, type JsonObject } from './go-values.js';

export const DIRECTIVE_MARKER = '$patch';
export const DELETE = 'delete';
export const REPLACE = 'replace';
export const MERGE = 'merge';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/**
 * The list a `$setElementOrder/<list>` or `$deleteFromPrimitiveList/<list>` key is about.
 *
 * @throws 400 `invalid patch format of …` when the key is not `<prefix>/<list>`
 */
export function directiveTarget(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw badPatchFormat(prefix === SET_ELEMENT_ORDER ? BAD_SET_ELEMENT_ORDER : BAD_PRIMITIVE_LIST);
  }
  return key.slice(slash + 1);
}

/** A key that only steers the merge and never lands in the object. */
export function isDirectiveKey(key: string): boolean {
  return (
    key === DIRECTIVE_MARKER ||
    key === RETAIN_KEYS ||
    key.startsWith(`${SET_ELEMENT_ORDER}/`) ||
    key.startsWith(`${DELETE_FROM_PRIMITIVE_LIST}/`)
  );
}

/**
 * Patch content that lands in the object as-is (a field the live object lacks, a replaced map
 * or list, a new list element): a copy without directives and without `null` map values.
 * A map carrying `$patch` is dropped (`undefined`), as in upstream's `removeDirectives`.
 *
 * Upstream copies such content raw and lets decoding into the typed object drop the directive
 * keys and turn `null`s into absent fields; our store is untyped, so we drop them here (a
 * `null` inside a list is kept, as decoding would keep an element).
 */
export function materialize(value: unknown): unknown {
  if (Array.isArray(value)) return materializeList(value);
  if (!isJsonObject(value)) return cloneJson(value);
  if (Object.hasOwn(value, DIRECTIVE_MARKER)) return undefined;
  return materializeEntries(value);
}

/** {@link materialize} of a list, typed as one (its `$patch` maps are dropped). */
export function materializeList(list: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of list) {
    const m = materialize(v);
    if (m !== undefined) out.push(m);
  }
  return out;
}

/**
 * The entries of a map {@link materialize}d, whatever its own `$patch` says (the caller has
 * handled that): directive keys and `null` values dropped, the rest materialized.
 */
export function materializeEntries(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || isDirectiveKey(k)) continue;
    const m = materialize(v);
    if (m !== undefined) setMember(out, k, m);
  }
  return out;
}
