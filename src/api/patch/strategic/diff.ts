/**
 * The strategic merge patch that turns one object into another: upstream's
 * `CreateTwoWayMergePatch` (what kubectl computes for `edit` and, with a third document, for
 * client-side `apply`), driven by our schemas.
 *
 * - a key added or changed is sent (maps recursively); a key removed is sent as `null`;
 * - a merged list of maps sends changed and added elements, `{"$patch":"delete", <key>: v}`
 *   for removed ones, and `$setElementOrder/<list>` (merge keys in the new order) whenever
 *   anything changed or the order did;
 * - a merged set of primitives sends additions, `$deleteFromPrimitiveList/<list>` for
 *   removals, and `$setElementOrder/<list>` when the list changed;
 * - a map (or each element of a list) whose field has strategy `retainKeys` gets
 *   `$retainKeys` (its non-null keys, sorted) when it changed or lost a key;
 * - any other list is sent whole when it differs.
 *
 * @module
 */
import type { SchemaNavigator } from '../../schema/navigator.js';
import type { Schema } from '../../schema/types.js';
import { cloneJson, setMember } from '../merge-patch.js';
import { diffMergedList } from './diff-list.js';
import { DIRECTIVE_MARKER, RETAIN_KEYS } from './directives.js';
import { unclassified } from './errors.js';
import { deepEqualJson, goType, isJsonObject, type JsonObject } from './go-values.js';
import { fieldPatchMeta } from './patch-meta.js';

export interface DiffContext {
  readonly nav: SchemaNavigator;
}

/**
 * The two-way strategic merge patch from `original` to `modified`: applying it to `original`
 * with {@link applyStrategicMergePatch} yields `modified` (for objects without `null` values
 * and with unique merge keys, which is what the API stores).
 *
 * @throws {StrategicMergePatchError} when an element of a merged list lacks its merge key, or
 *   a list mixes element types
 */
export function createTwoWayMergePatch(
  original: unknown,
  modified: unknown,
  schema: Schema | undefined,
  nav: SchemaNavigator,
): Record<string, unknown> {
  const from = isJsonObject(original) ? original : {};
  const to = isJsonObject(modified) ? modified : {};
  return diffMaps({ nav }, from, to, schema, false);
}

/** Upstream `diffMaps`. The result holds copies of `modified`'s values, never the values. */
export function diffMaps(
  ctx: DiffContext,
  original: JsonObject,
  modified: JsonObject,
  schema: Schema | undefined,
  buildRetainKeys: boolean,
): JsonObject {
  const patch: JsonObject = {};
  const retainKeys: string[] = [];
  for (const [key, to] of Object.entries(modified)) {
    if (buildRetainKeys && to !== null) retainKeys.push(key);
    diffField(ctx, patch, key, original, to, schema);
  }
  for (const key of Object.keys(original)) {
    if (!Object.hasOwn(modified, key)) setMember(patch, key, null);
  }
  const dropsKeys = Object.entries(original).some(
    ([k, v]) => v !== null && !Object.hasOwn(modified, k),
  );
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || dropsKeys)) {
    patch[RETAIN_KEYS] = retainKeys.sort();
  }
  return patch;
}

function diffField(
  ctx: DiffContext,
  patch: JsonObject,
  key: string,
  original: JsonObject,
  to: unknown,
  schema: Schema | undefined,
): void {
  if (!Object.hasOwn(original, key)) {
    setMember(patch, key, cloneJson(to));
    return;
  }
  const from = original[key];
  if (key === DIRECTIVE_MARKER) {
    if (typeof from !== 'string' || typeof to !== 'string') {
      throw unclassified(`invalid value for special key: ${DIRECTIVE_MARKER}`);
    }
    if (from !== to) patch[key] = to;
    return;
  }
  if (goType(from) !== goType(to)) {
    setMember(patch, key, cloneJson(to));
    return;
  }
  // Of one Go type (checked above): both maps, both lists, or both scalars.
  if (isJsonObject(from) && isJsonObject(to)) {
    diffMapField(ctx, patch, key, from, to, schema);
  } else if (Array.isArray(from) && Array.isArray(to)) {
    diffListField(ctx, patch, key, from, to, schema);
  } else if (!deepEqualJson(from, to)) {
    setMember(patch, key, cloneJson(to));
  }
}

function diffMapField(
  ctx: DiffContext,
  patch: JsonObject,
  key: string,
  from: JsonObject,
  to: JsonObject,
  schema: Schema | undefined,
): void {
  const meta = fieldPatchMeta(ctx.nav, schema, key);
  if (meta.strategy === 'replace') {
    setMember(patch, key, cloneJson(to));
    return;
  }
  const sub = diffMaps(ctx, from, to, meta.schema, meta.retainKeys);
  if (Object.keys(sub).length > 0) setMember(patch, key, sub);
}

function diffListField(
  ctx: DiffContext,
  patch: JsonObject,
  key: string,
  from: unknown[],
  to: unknown[],
  schema: Schema | undefined,
): void {
  const meta = fieldPatchMeta(ctx.nav, schema, key);
  if (meta.strategy !== 'merge') {
    if (!deepEqualJson(from, to)) setMember(patch, key, cloneJson(to));
    return;
  }
  const diff = diffMergedList(ctx, from, to, meta);
  if (diff.changes.length > 0) setMember(patch, key, diff.changes);
  if (diff.deletions.length > 0) patch[`$deleteFromPrimitiveList/${key}`] = diff.deletions;
  if (diff.order.length > 0) patch[`$setElementOrder/${key}`] = diff.order;
}
