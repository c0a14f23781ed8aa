/**
 * Schema defaulting of custom resources (upstream `apiserver/schema/defaulting/algorithm.go`
 * and `prunenulls.go`), applied whenever an object is decoded — on write and on read from
 * storage — after pruning.
 *
 * - A property's `default` fills it when absent, or when it is `null` and not `nullable`.
 * - Defaults are applied top-down, so a nested default appears only where its parent exists
 *   (or was itself defaulted: defaults inside a defaulted value are applied too).
 * - `null` in a non-nullable field without a default is dropped (upstream does this in the
 *   decoder right after pruning; we do it first thing here so the pair stays together).
 * - Map values (`additionalProperties`) and list items that are non-nullable `null`s take their
 *   schema's default.
 *
 * @module
 */
import { deepCopy, isJsonObject, type JsonObject } from '../../api/object.js';
import type { Schema } from '../../api/schema/types.js';

/** Applies `schema`'s defaults to `obj` in place and returns it. Idempotent. */
export function applyDefaults<T>(obj: T, schema: Schema | undefined): T {
  if (!schema) return obj;
  pruneNonNullableNullsWithoutDefaults(obj, schema);
  applySchemaDefaults(obj, schema);
  return obj;
}

function fieldSchema(s: Schema | undefined, key: string): Schema | undefined {
  if (!s) return undefined;
  const prop = s.properties?.[key];
  if (prop) return prop;
  return isJsonObject(s.additionalProperties) ? s.additionalProperties : undefined;
}

/** Go's `Default.Object != nil`: `default: null` is no default. */
function hasDefault(s: Schema | undefined): boolean {
  return s?.default !== undefined && s.default !== null;
}

function isNonNullableNonDefaultableNull(x: unknown, s: Schema | undefined): boolean {
  return x === null && s !== undefined && s.nullable !== true && !hasDefault(s);
}

/** Upstream `PruneNonNullableNullsWithoutDefaults`: drops `null`s the schema cannot hold. */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: Schema | undefined): void {
  if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, s?.items);
    return;
  }
  if (!isJsonObject(x)) return;
  for (const k of Object.keys(x)) {
    const sub = fieldSchema(s, k);
    if (isNonNullableNonDefaultableNull(x[k], sub)) delete x[k];
    else pruneNonNullableNullsWithoutDefaults(x[k], sub);
  }
}

function isNonNullableNull(x: unknown, s: Schema | undefined): boolean {
  return x === null && s !== undefined && s.nullable !== true;
}

/** Upstream `Default`: defaults are deep-copied, so objects never share a default value. */
export function applySchemaDefaults(x: unknown, s: Schema | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      if (isNonNullableNull(v, s.items)) x[i] = copyDefault(s.items?.default);
      applySchemaDefaults(x[i], s.items);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  fillPropertyDefaults(x, s);
  const extra = isJsonObject(s.additionalProperties) ? s.additionalProperties : undefined;
  for (const k of Object.keys(x)) {
    const prop = s.properties?.[k];
    if (prop) {
      applySchemaDefaults(x[k], prop);
    } else if (s.additionalProperties !== undefined) {
      if (isNonNullableNull(x[k], extra)) x[k] = copyDefault(extra?.default);
      applySchemaDefaults(x[k], extra);
    }
  }
}

function fillPropertyDefaults(x: JsonObject, s: Schema): void {
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (!hasDefault(prop)) continue;
    if (!Object.hasOwn(x, k) || x[k] === undefined || isNonNullableNull(x[k], prop)) {
      x[k] = copyDefault(prop.default);
    }
  }
}

/** A default of `undefined` (none) leaves `null`, as Go's nil `Default.Object` does. */
function copyDefault(v: unknown): unknown {
  return v === undefined || v === null ? null : deepCopy(v);
}
