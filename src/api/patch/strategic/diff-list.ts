/**
 * The patch for one merged list (upstream `diffLists`): the elements to send, the primitives to
 * delete, and the `$setElementOrder` list.
 *
 * @module
 */
import { cloneJson, cloneList, cloneObject } from '../merge-patch.js';
import { type DiffContext, diffMaps } from './diff.js';
import { DELETE, DIRECTIVE_MARKER } from './directives.js';
import { GO_MAP, goEqual, goValue, isJsonObjectList, type JsonObject } from './go-values.js';
import { requireMergeKey, sliceElementType, sortByReference } from './list-order.js';
import type { PatchMeta } from './patch-meta.js';

export interface ListDiff {
  /** Changed and added elements (maps: then the deletion directives), in the new order. */
  readonly changes: unknown[];
  /** Primitives to remove (`$deleteFromPrimitiveList`). */
  readonly deletions: unknown[];
  /** `$setElementOrder`: merge keys (maps) or values (primitives) in the new order. */
  readonly order: unknown[];
}

const NOTHING: ListDiff = { changes: [], deletions: [], order: [] };

export function diffMergedList(
  ctx: DiffContext,
  original: readonly unknown[],
  modified: readonly unknown[],
  meta: PatchMeta,
): ListDiff {
  if (original.length === 0) {
    return modified.length === 0 ? NOTHING : { ...NOTHING, changes: cloneList(modified) };
  }
  const kind = sliceElementType(original, modified);
  // A map kind means every element of both lists is a map: the guards narrow, never fail.
  if (kind === GO_MAP && isJsonObjectList(original) && isJsonObjectList(modified))
    return diffKeyedList(ctx, original, modified, meta);
  return diffSet(original, modified, kind);
}

function byGoString(a: unknown, b: unknown): number {
  const x = goValue(a);
  const y = goValue(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Upstream `diffListsOfScalars`: a sorted walk of both lists, compared as `%v` strings. */
function diffSet(
  original: readonly unknown[],
  modified: readonly unknown[],
  kind: ReturnType<typeof sliceElementType>,
): ListDiff {
  const from = [...original].sort(byGoString);
  const to = [...modified].sort(byGoString);
  const additions: unknown[] = [];
  const deletions: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    const c = i >= from.length ? 1 : j >= to.length ? -1 : byGoString(from[i], to[j]);
    if (c === 0) {
      i++;
      j++;
    } else if (c < 0) {
      deletions.push(from[i++]);
    } else {
      additions.push(to[j++]);
    }
  }
  const uniqueDeletions = deletions.filter(
    (v, n) => deletions.findIndex((d) => goEqual(d, v)) === n,
  );
  const changed = uniqueDeletions.length > 0 || !sameList(original, modified);
  return {
    changes: sortByReference(additions, modified, '', kind),
    deletions: uniqueDeletions,
    order: changed ? [...modified] : [],
  };
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => goEqual(v, b[i]));
}

/** Upstream `diffListsOfMaps` plus the ordering `diffLists` does around it. */
function diffKeyedList(
  ctx: DiffContext,
  original: readonly JsonObject[],
  modified: readonly JsonObject[],
  meta: PatchMeta,
): ListDiff {
  const key = meta.mergeKey;
  requireMergeKey(key, original, modified);
  const items = ctx.nav.items(meta.schema);
  const byKey = (a: JsonObject, b: JsonObject): number => byGoString(a[key], b[key]);
  const from = [...original].sort(byKey);
  const to = [...modified].sort(byKey);
  const changes: JsonObject[] = [];
  const deletes: JsonObject[] = [];
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    const a = from[i];
    const b = to[j];
    const c = a === undefined ? 1 : b === undefined ? -1 : byKey(a, b);
    if (c === 0 && a && b) {
      const sub = diffMaps(ctx, a, b, items, meta.retainKeys);
      if (Object.keys(sub).length > 0) changes.push({ ...sub, [key]: cloneJson(b[key]) });
      i++;
      j++;
    } else if (c > 0 && b) {
      changes.push(cloneObject(b));
      j++;
    } else if (a) {
      deletes.push({ [key]: cloneJson(a[key]), [DIRECTIVE_MARKER]: DELETE });
      i++;
    }
  }
  const ordered = sortByReference(changes, modified, key, GO_MAP);
  const orderChanged = !sameOrder(original, modified, key);
  const all = [...ordered, ...deletes];
  const order =
    all.length > 0 || orderChanged ? modified.map((m) => ({ [key]: cloneJson(m[key]) })) : [];
  return { changes: all, deletions: [], order };
}

/** Upstream `isOrderSame`: same length and the same merge key at every position. */
function sameOrder(a: readonly JsonObject[], b: readonly JsonObject[], key: string): boolean {
  return a.length === b.length && a.every((v, i) => goEqual(v[key], b[i]?.[key]));
}
