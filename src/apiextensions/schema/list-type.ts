/**
 * Uniqueness of `x-kubernetes-list-type: set` and `map` lists (upstream
 * `apiserver/schema/listtype/validation.go`): a set may not repeat an element, a map list may
 * not repeat a key tuple (a missing key counts as its default). Reported as `Duplicate value`.
 *
 * @module
 */
import { type FieldError, FieldPath, fieldErrors } from '../../api/field-error.js';
import { isJsonObject, type JsonObject } from '../../api/object.js';
import type { Schema } from '../../api/schema/types.js';

/** Duplicate elements of set and map lists anywhere in `obj`. */
export function validateListSetsAndMaps(obj: unknown, schema: Schema | undefined): FieldError[] {
  return walk(new FieldPath(''), obj, schema);
}

function walk(path: FieldPath, x: unknown, s: Schema | undefined): FieldError[] {
  if (!s) return [];
  if (Array.isArray(x)) return walkArray(path, x, s);
  if (isJsonObject(x)) return walkObject(path, x, s);
  return [];
}

function walkObject(path: FieldPath, obj: JsonObject, s: Schema): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const prop = s.properties?.[k];
    if (prop) errs.push(...walk(path.child(k), v, prop));
  }
  const extra = s.additionalProperties;
  if (isJsonObject(extra)) {
    for (const [k, v] of Object.entries(obj)) errs.push(...walk(path.key(k), v, extra));
  }
  return errs;
}

function walkArray(path: FieldPath, arr: readonly unknown[], s: Schema): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') errs.push(...duplicateSetElements(path, arr));
  if (listType === 'map') errs.push(...duplicateMapKeys(path, arr, s));
  const items = s.items;
  arr.forEach((item, i) => {
    errs.push(...walk(path.index(i), item, items));
  });
  return errs;
}

/** Canonical text of a value for equality: JSON with sorted keys. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** Only the second occurrence of a value is reported, however often it repeats. */
function duplicateSetElements(path: FieldPath, arr: readonly unknown[]): FieldError[] {
  const seen = new Map<string, number>();
  const errs: FieldError[] = [];
  arr.forEach((x, i) => {
    const key = canonical(x);
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) errs.push(fieldErrors.duplicate(path.index(i), x));
  });
  return errs;
}

const UNSPECIFIED = '\u0000unspecified';

function duplicateMapKeys(path: FieldPath, arr: readonly unknown[], s: Schema): FieldError[] {
  const bad = arr.findIndex((x) => x !== null && x !== undefined && !isJsonObject(x));
  if (bad >= 0) {
    return [
      fieldErrors.invalid(
        path.index(bad),
        arr[bad],
        'must be an object for an array of list-type map',
      ),
    ];
  }
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  arr.forEach((x, i) => {
    if (!isJsonObject(x)) return;
    const keys = keyFields.map((f) => keyValue(x, f, s));
    const id = keys.map((k) => (k === UNSPECIFIED ? k : canonical(k))).join('\u0001');
    if (seen.has(id)) {
      const shown: JsonObject = {};
      keyFields.forEach((f, j) => {
        if (keys[j] !== UNSPECIFIED) shown[f] = keys[j];
      });
      errs.push(fieldErrors.duplicate(path.index(i), shown));
    } else {
      seen.add(id);
    }
  });
  return errs;
}

function keyValue(item: JsonObject, field: string, s: Schema): unknown {
  if (Object.hasOwn(item, field) && item[field] !== undefined) return item[field];
  const dflt = s.items?.properties?.[field]?.default;
  return dflt === undefined ? UNSPECIFIED : dflt;
}
