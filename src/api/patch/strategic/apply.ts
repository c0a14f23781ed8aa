/**
 * Applying a strategic merge patch (`application/strategic-merge-patch+json`) to a live object:
 * upstream's `StrategicMergeMapPatch` driven by our schemas instead of Go struct tags.
 *
 * Maps merge recursively and `null` deletes a key, as in JSON merge patch. Lists whose field
 * has `x-kubernetes-patch-strategy: merge` merge (by `x-kubernetes-patch-merge-key`, or as a
 * set of primitives); other lists are replaced. Directives: see `directives.ts`. Ordering of
 * merged lists: see `list-order.ts`.
 *
 * Pure: both inputs are copied first, and the result shares nothing with them.
 *
 * @module
 */
import type { SchemaNavigator } from '../../schema/navigator.js';
import type { Schema } from '../../schema/types.js';
import { cloneObject, setMember } from '../merge-patch.js';
import { type ListContext, mergeListField } from './apply-list.js';
import {
  DELETE,
  DELETE_FROM_PRIMITIVE_LIST,
  DIRECTIVE_MARKER,
  directiveTarget,
  materialize,
  materializeEntries,
  materializeList,
  REPLACE,
  RETAIN_KEYS,
  SET_ELEMENT_ORDER,
} from './directives.js';
import {
  BAD_RETAIN_KEYS,
  badArgType,
  badPatchFormat,
  badPatchType,
  decodeStrategicMergePatch,
  noMergeKey,
  unclassified,
} from './errors.js';
import { GO_MAP, goEqual, goType, goValue, isJsonObject, type JsonObject } from './go-values.js';
import { normalizeElementOrder, partitionByPresence, sliceElementType } from './list-order.js';
import { fieldPatchMeta } from './patch-meta.js';

/**
 * Applies `patch` to `original` and returns the patched object.
 *
 * @param original the live object (anything but an object counts as `{}`)
 * @param patch the decoded PATCH body; `null` is the empty patch
 * @param schema the object's schema; `undefined` merges everything like JSON merge patch
 * @throws {StrategicMergePatchError} (a `StatusError`) with upstream's code and message: 400
 *   for malformed directives or a body that is not an object, 422 for lists of lists, 500
 *   (no reason) for everything else, such as a missing merge key
 */
export function applyStrategicMergePatch(
  original: unknown,
  patch: unknown,
  schema: Schema | undefined,
  nav: SchemaNavigator,
): unknown {
  const body = cloneObject(decodeStrategicMergePatch(patch));
  const live = isJsonObject(original) ? cloneObject(original) : {};
  const ctx: ListContext = {
    nav,
    mergeMap: (o, p, s) => mergeMap(ctx, o, p, s),
  };
  return mergeMap(ctx, live, body, schema);
}

/** Upstream `mergeMap`; mutates `original` and `patch`, which are private copies. */
function mergeMap(
  ctx: ListContext,
  original: JsonObject,
  patch: JsonObject,
  schema: Schema | undefined,
): JsonObject {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return mapDirective(patch);
  applyRetainKeys(original, patch);
  mergeOrderedLists(ctx, original, patch, schema);
  // Deletions from sets last: upstream's map order is random and the outcome is the same.
  const keys = Object.keys(patch);
  const ordered = [
    ...keys.filter((k) => !k.startsWith(DELETE_FROM_PRIMITIVE_LIST)),
    ...keys.filter((k) => k.startsWith(DELETE_FROM_PRIMITIVE_LIST)),
  ];
  for (const key of ordered) mergeField(ctx, original, key, patch[key], schema);
  return original;
}

/** `$patch` on a map: `replace` takes the patch as the whole map, `delete` empties it. */
function mapDirective(patch: JsonObject): JsonObject {
  const directive = patch[DIRECTIVE_MARKER];
  if (directive === REPLACE) {
    delete patch[DIRECTIVE_MARKER];
    return materializeEntries(patch);
  }
  if (directive === DELETE) return {};
  throw badPatchType(directive, patch);
}

function setOrDrop(target: JsonObject, key: string, value: unknown): void {
  const m = materialize(value);
  if (m === undefined) delete target[key];
  else setMember(target, key, m);
}

function mergeField(
  ctx: ListContext,
  original: JsonObject,
  patchKey: string,
  value: unknown,
  schema: Schema | undefined,
): void {
  const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST);
  const key = isDeleteList ? directiveTarget(patchKey, DELETE_FROM_PRIMITIVE_LIST) : patchKey;
  if (value === null) {
    delete original[key];
    return;
  }
  const current = Object.hasOwn(original, key) ? original[key] : undefined;
  if (current === undefined || goType(current) !== goType(value)) {
    if (!isDeleteList) setOrDrop(original, key, value);
    return;
  }
  const meta = fieldPatchMeta(ctx.nav, schema, key);
  // `value` has the Go type of `current` (checked above): a map where `current` is one.
  if (isJsonObject(current) && isJsonObject(value)) {
    const merged =
      meta.strategy === 'replace' ? materialize(value) : ctx.mergeMap(current, value, meta.schema);
    if (merged === undefined) delete original[key];
    else setMember(original, key, merged);
  } else if (Array.isArray(current)) {
    setMember(original, key, mergeListField(ctx, current, value, meta, isDeleteList));
  } else {
    setMember(original, key, value);
  }
}

/**
 * `$retainKeys`: every non-null patch key must be listed (else 400), and live keys not listed
 * are cleared before the merge.
 */
function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const retain = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(retain)) throw badPatchFormat(BAD_RETAIN_KEYS);
  const listed = (k: string): boolean => retain.some((r) => goEqual(r, k));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) {
      continue;
    }
    if (!listed(k)) throw badPatchFormat(BAD_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!listed(k)) delete original[k];
}

/**
 * Upstream `mergePatchIntoOriginal`: each `$setElementOrder/<list>` merges `<list>` now and
 * orders the result by the directive, then the main loop skips that list.
 */
function mergeOrderedLists(
  ctx: ListContext,
  original: JsonObject,
  patch: JsonObject,
  schema: Schema | undefined,
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw badArgType('slice', order);
    const target = directiveTarget(key, SET_ELEMENT_ORDER);
    const ordered = orderedList(ctx, original, patch, target, order, schema);
    if (ordered !== undefined) setMember(original, target, ordered);
    delete patch[target];
  }
}

function orderedList(
  ctx: ListContext,
  original: JsonObject,
  patch: JsonObject,
  target: string,
  order: readonly unknown[],
  schema: Schema | undefined,
): unknown[] | undefined {
  const foundLive = Object.hasOwn(original, target);
  const foundPatch = Object.hasOwn(patch, target);
  const liveValue = foundLive ? original[target] : [];
  const patchValue = foundPatch ? patch[target] : [];
  if (!Array.isArray(liveValue)) throw badArgType('slice', liveValue);
  if (!Array.isArray(patchValue)) throw badArgType('slice', patchValue);
  const live: unknown[] = liveValue;
  const patchList: unknown[] = patchValue;
  const meta = fieldPatchMeta(ctx.nav, schema, target);
  validateAgainstOrder(patchList, order, meta.mergeKey);
  if (!foundLive && !foundPatch) return undefined;
  const merged = !foundPatch
    ? live
    : !foundLive
      ? materializeList(patchList)
      : mergeListField(ctx, live, patchList, meta, false);
  const kind = sliceElementType(live, patchList);
  // A replaced list of maps has no identity to order by (upstream panics on it).
  if (kind === GO_MAP && meta.mergeKey === '') return merged;
  const [named, serverOnly] = partitionByPresence(merged, order, meta.mergeKey);
  return normalizeElementOrder(named, serverOnly, order, live, meta.mergeKey, kind);
}

function sameMergeKey(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isJsonObject(left)) throw badArgType('map', left);
  if (!isJsonObject(right)) throw badArgType('map', right);
  if (!Object.hasOwn(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/**
 * The patch list's elements (deletions aside) must appear in `$setElementOrder`, in the same
 * relative order (upstream `validatePatchWithSetOrderList`).
 */
function validateAgainstOrder(
  patchList: readonly unknown[],
  order: readonly unknown[],
  mergeKey: string,
): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey !== '') {
    for (const item of patchList) if (!isJsonObject(item)) throw badArgType('map', item);
    items = patchList.filter((v) => !isJsonObject(v) || v[DIRECTIVE_MARKER] !== DELETE);
  }
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p];
    if (isJsonObject(item) && Object.hasOwn(item, DIRECTIVE_MARKER)) {
      p++;
      continue;
    }
    if (sameMergeKey(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw unclassified(
      `the order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goValue(order)}`,
    );
  }
}
