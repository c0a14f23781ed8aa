/**
 * Merging one list of a strategic merge patch into the live list (upstream `mergeSlice` and
 * friends). A list whose field has strategy `merge` merges: maps by merge key (recursively),
 * primitives as a set; `$patch: delete` elements remove by key, a `{"$patch": "replace"}`
 * element makes the rest of the patch list the whole result. Any other list is replaced.
 *
 * Works on private copies: the caller ({@link applyStrategicMergePatch}) cloned its inputs.
 *
 * @module
 */
import type { SchemaNavigator } from '../../schema/navigator.js';
import type { Schema } from '../../schema/types.js';
import {
  DELETE,
  DIRECTIVE_MARKER,
  MERGE,
  materialize,
  materializeList,
  REPLACE,
} from './directives.js';
import { badArgType, badPatchType, noMergeKey, unclassified } from './errors.js';
import { GO_MAP, goEqual, isJsonObject, type JsonObject } from './go-values.js';
import {
  findByMergeKey,
  normalizeElementOrder,
  partitionByPresence,
  sliceElementType,
} from './list-order.js';
import { elementKindName, type PatchMeta } from './patch-meta.js';

/** Merges two maps; injected to break the module cycle with `apply.ts`. */
export type MapMerger = (
  original: JsonObject,
  patch: JsonObject,
  schema: Schema | undefined,
) => JsonObject;

export interface ListContext {
  readonly nav: SchemaNavigator;
  readonly mergeMap: MapMerger;
}

/**
 * Upstream `mergeSliceHandler`: merge when the field says so (or for a deletion list, whatever
 * the field says), otherwise the patch list replaces the live one.
 */
export function mergeListField(
  ctx: ListContext,
  original: unknown,
  patch: unknown,
  meta: PatchMeta,
  isDeleteList: boolean,
): unknown[] {
  if (!Array.isArray(original)) throw badArgType('slice', original);
  if (!Array.isArray(patch)) throw badArgType('slice', patch);
  if (meta.strategy !== 'merge' && !isDeleteList) return materializeList(patch);
  return mergeList(ctx, original, patch, meta, isDeleteList);
}

function mergeList(
  ctx: ListContext,
  original: unknown[],
  patch: unknown[],
  meta: PatchMeta,
  isDeleteList: boolean,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  if (kind !== GO_MAP) {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => goEqual(d, v)));
    const merged = dedupe([...original, ...materializeList(patch)]);
    const [named, serverOnly] = partitionByPresence(merged, patch, '');
    return normalizeElementOrder(named, serverOnly, patch, original, '', kind);
  }
  const mergeKey = meta.mergeKey;
  if (mergeKey === '') {
    const items = ctx.nav.items(meta.schema);
    throw unclassified(
      `cannot merge lists without merge key for ${elementKindName(ctx.nav, items)}`,
    );
  }
  const special = applySpecialElements(original, patch, mergeKey);
  const merged = mergeKeyedElements(ctx, special.original, special.patch, meta);
  const [named, serverOnly] = partitionByPresence(merged, special.patch, mergeKey);
  return normalizeElementOrder(named, serverOnly, special.patch, special.original, mergeKey, kind);
}

/** Keeps the first of equal primitives (upstream deduplicates before re-sorting anyway). */
function dedupe(list: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of list) if (!out.some((o) => goEqual(o, v))) out.push(v);
  return out;
}

/**
 * Upstream `mergeSliceWithSpecialElements`: applies `$patch` elements. Deletions remove every
 * live element with that key; `replace` makes the plain patch elements the new live list.
 */
function applySpecialElements(
  original: unknown[],
  patch: readonly unknown[],
  mergeKey: string,
): { original: unknown[]; patch: JsonObject[] } {
  const plain: JsonObject[] = [];
  let live = original;
  let replace = false;
  for (const item of patch) {
    // The elements are maps (`sliceElementType` said so), as upstream's type switch expects.
    if (!isJsonObject(item)) throw badArgType('map', item);
    if (!Object.hasOwn(item, DIRECTIVE_MARKER)) {
      plain.push(item);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === DELETE) {
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
      live = live.filter((v) => !(isJsonObject(v) && goEqual(v[mergeKey], item[mergeKey])));
    } else if (directive === REPLACE) {
      replace = true;
    } else if (directive === MERGE) {
      throw unclassified('merging lists cannot yet be specified in the patch');
    } else {
      throw badPatchType(directive, item);
    }
  }
  if (replace) return { original: materializeList(plain), patch: [] };
  return { original: live, patch: plain };
}

/** Upstream `mergeSliceWithoutSpecialElements`: merge by key, append what is new. */
function mergeKeyedElements(
  ctx: ListContext,
  original: unknown[],
  patch: readonly JsonObject[],
  meta: PatchMeta,
): unknown[] {
  const out = [...original];
  const items = ctx.nav.items(meta.schema);
  for (const element of patch) {
    if (!Object.hasOwn(element, meta.mergeKey)) throw noMergeKey(element, meta.mergeKey);
    const at = findByMergeKey(out, meta.mergeKey, element[meta.mergeKey]);
    // A found element has the merge key, so it is a map.
    const found = at >= 0 ? out[at] : undefined;
    if (isJsonObject(found)) out[at] = ctx.mergeMap(found, element, items);
    else out.push(materialize(element));
  }
  return out;
}
