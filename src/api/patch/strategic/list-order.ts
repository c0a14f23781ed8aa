/**
 * The order of a merged list, as upstream computes it (design proposal "preserve order in
 * strategic merge patch"): precedence `$setElementOrder` > order in the patch list > order in
 * the live list.
 *
 * The merged elements are split into those the patch (or `$setElementOrder`) names and the
 * server-only rest. Each half is sorted by its own reference order, then the two are
 * interleaved: a server-only element goes before a patch element only when both appear in the
 * live list and it came first there. So an element the live list did not have goes *before*
 * the remaining server-only elements: patching `containers: [{name: new}]` into `[a, b]` yields
 * `[new, a, b]` (the Kubernetes "update API objects in place" docs show exactly this).
 *
 * @module
 */

import { DELETE, DIRECTIVE_MARKER } from './directives.js';
import {
  badArgType,
  elementTypesDiffer,
  noListOfLists,
  noMergeKey,
  unclassified,
} from './errors.js';
import { GO_MAP, GO_SLICE, type GoType, goEqual, goType, isJsonObject } from './go-values.js';

/** The identity of an element: its merge-key value for maps, the value itself otherwise. */
function identity(item: unknown, mergeKey: string, kind: GoType): unknown {
  if (kind !== GO_MAP) return item;
  return isJsonObject(item) ? item[mergeKey] : undefined;
}

/** Upstream `index`: the position of `item` in `list`, by identity, or -1. */
export function indexOf(
  list: readonly unknown[],
  item: unknown,
  mergeKey: string,
  kind: GoType,
): number {
  const want = identity(item, mergeKey, kind);
  return list.findIndex((v) => goEqual(identity(v, mergeKey, kind), want));
}

/**
 * The one Go type all elements of the lists share (upstream `sliceElementType`).
 *
 * @throws 422 for a list of lists; 500 for mixed types or when every list is empty
 */
export function sliceElementType(...lists: readonly (readonly unknown[])[]): GoType {
  let prev: GoType | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = goType(v);
      if (prev === undefined) {
        if (t === GO_SLICE) throw noListOfLists();
        prev = t;
      } else if (t !== prev) {
        throw elementTypesDiffer(lists);
      }
    }
  }
  if (prev === undefined) throw unclassified('no elements in any of the given slices');
  return prev;
}

/** Every element is a map holding `mergeKey` (upstream `validateMergeKeyInLists`). */
export function requireMergeKey(mergeKey: string, ...lists: readonly (readonly unknown[])[]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonObject(item)) throw badArgType('map', item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

function isDeleteDirective(item: unknown): boolean {
  return isJsonObject(item) && item[DIRECTIVE_MARKER] === DELETE;
}

/**
 * Sorts `items` by their position in `order`, stably; for maps, `$patch: delete` entries go
 * last (upstream `normalizeSliceOrder`). Elements missing from `order` keep their relative
 * place after the ones found (upstream's comparator is inconsistent there; no caller hits it).
 */
export function sortByReference(
  items: readonly unknown[],
  order: readonly unknown[],
  mergeKey: string,
  kind: GoType,
): unknown[] {
  let toSort = [...items];
  let deletes: unknown[] = [];
  if (kind === GO_MAP) {
    requireMergeKey(mergeKey, items, order);
    deletes = toSort.filter(isDeleteDirective);
    toSort = toSort.filter((v) => !isDeleteDirective(v));
  }
  const rank = (v: unknown): number => {
    const i = indexOf(order, v, mergeKey, kind);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const ranked = toSort.map((v) => ({ v, r: rank(v) }));
  ranked.sort((a, b) => a.r - b.r);
  return [...ranked.map((x) => x.v), ...deletes];
}

/**
 * Interleaves server-only elements (`left`) into patch elements (`right`): take the server-only
 * one first only if both sit in `liveOrder` and it comes earlier (upstream `mergeSortedSlice`).
 */
function interleave(
  left: readonly unknown[],
  right: readonly unknown[],
  liveOrder: readonly unknown[],
  mergeKey: string,
  kind: GoType,
): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexOf(liveOrder, left[i], mergeKey, kind);
      const ri = indexOf(liveOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** Upstream `normalizeElementOrder`: sort each half by its reference, then interleave. */
export function normalizeElementOrder(
  patchItems: readonly unknown[],
  serverOnly: readonly unknown[],
  patchOrder: readonly unknown[],
  liveOrder: readonly unknown[],
  mergeKey: string,
  kind: GoType,
): unknown[] {
  const sortedPatch = sortByReference(patchItems, patchOrder, mergeKey, kind);
  const sortedServer = sortByReference(serverOnly, liveOrder, mergeKey, kind);
  return interleave(sortedServer, sortedPatch, liveOrder, mergeKey, kind);
}

/**
 * Splits `merged` into the elements `by` names and the rest (upstream
 * `partitionPrimitivesByPresentInList` / `partitionMapsByPresentInList`).
 */
export function partitionByPresence(
  merged: readonly unknown[],
  by: readonly unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  const named: unknown[] = [];
  const rest: unknown[] = [];
  for (const v of merged) {
    let found: boolean;
    if (mergeKey === '') {
      found = by.some((b) => goEqual(b, v));
    } else {
      if (!isJsonObject(v)) throw badArgType('map', v);
      if (!Object.hasOwn(v, mergeKey)) throw noMergeKey(v, mergeKey);
      found = findByMergeKey(by, mergeKey, v[mergeKey]) >= 0;
    }
    (found ? named : rest).push(v);
  }
  return [named, rest];
}

/** Upstream `findMapInSliceBasedOnKeyValue`: the index of the map whose key equals `value`. */
export function findByMergeKey(list: readonly unknown[], mergeKey: string, value: unknown): number {
  for (const [i, v] of list.entries()) {
    if (!isJsonObject(v)) throw unclassified(`value for key ${i} is not a map`);
    if (Object.hasOwn(v, mergeKey) && goEqual(v[mergeKey], value)) return i;
  }
  return -1;
}
