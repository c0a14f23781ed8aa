/**
 * Small typed accessors over plain JSON objects, so kind strategies read `unknown` fields
 * without casts. Readers return `undefined` for an absent field *or* one of the wrong type;
 * writers never overwrite a value of the wrong type (validation reports those instead).
 *
 * @module
 */
import { deepEqual, isJsonObject, type JsonObject } from '../object.js';

export { deepEqual as deepEqualJson, isJsonObject, type JsonObject };

/** `o[key]` when `o` is an object. */
export function get(o: unknown, key: string): unknown {
  return isJsonObject(o) ? o[key] : undefined;
}

/** An object field. */
export function getObj(o: unknown, key: string): JsonObject | undefined {
  const v = get(o, key);
  return isJsonObject(v) ? v : undefined;
}

/** A string field. */
export function getStr(o: unknown, key: string): string | undefined {
  const v = get(o, key);
  return typeof v === 'string' ? v : undefined;
}

/** A number field. */
export function getNum(o: unknown, key: string): number | undefined {
  const v = get(o, key);
  return typeof v === 'number' ? v : undefined;
}

/** A boolean field. */
export function getBool(o: unknown, key: string): boolean | undefined {
  const v = get(o, key);
  return typeof v === 'boolean' ? v : undefined;
}

/** A list field. */
export function getArr(o: unknown, key: string): unknown[] | undefined {
  const v = get(o, key);
  return Array.isArray(v) ? v : undefined;
}

/** The object entries of a list field (others skipped). */
export function objects(o: unknown, key: string): JsonObject[] {
  return (getArr(o, key) ?? []).filter(isJsonObject);
}

/** A string map field (`labels`, `matchLabels`, `data`), non-string values skipped. */
export function getStringMap(o: unknown, key: string): Record<string, string> | undefined {
  const v = getObj(o, key);
  if (v === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

/** Whether a field is unset the way Go sees it: absent or `null`. */
export function isUnset(o: JsonObject, key: string): boolean {
  return o[key] === undefined || o[key] === null;
}

/** Sets `o[key]` to `value` when the field is unset (absent or null). */
export function setDefault(o: JsonObject, key: string, value: unknown): void {
  if (isUnset(o, key)) o[key] = value;
}

/** Sets a string field when it is unset or empty (Go's `if x == ""`). */
export function setDefaultStr(o: JsonObject, key: string, value: string): void {
  if (isUnset(o, key) || o[key] === '') o[key] = value;
}

/** Sets a number field when it is unset or zero (Go's `if x == 0` for non-pointer ints). */
export function setDefaultNonZero(o: JsonObject, key: string, value: number): void {
  if (isUnset(o, key) || o[key] === 0) o[key] = value;
}

/**
 * The object at `o[key]`, created as `{}` when unset. Returns undefined (and leaves the value
 * alone) when the field holds something other than an object.
 */
export function ensureObj(o: JsonObject, key: string): JsonObject | undefined {
  if (isUnset(o, key)) o[key] = {};
  const v = o[key];
  return isJsonObject(v) ? v : undefined;
}

/** The object at `obj.spec`, created when unset. */
export function specOf(obj: JsonObject): JsonObject | undefined {
  return ensureObj(obj, 'spec');
}

/**
 * Drops what Go cannot tell from "not set" before comparing: `undefined`, `null`, `''`, `[]`
 * and `{}` (recursively). Upstream compares with `apiequality.Semantic.DeepEqual`, which also
 * treats nil and empty lists and maps alike.
 */
export function semanticNormalize(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(semanticNormalize);
    return items.length === 0 ? undefined : items;
  }
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, val] of Object.entries(v)) {
      const n = semanticNormalize(val);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null || v === '' ? undefined : v;
}
