/**
 * Upstream `TypedValue.Merge`: the applied configuration merged into the live object. Maps merge
 * key by key, `map` and `set` lists merge element by element (the order follows the applied
 * list for elements it mentions, keeping live-only elements where they were), and leaves —
 * scalars, atomic lists and structs — take the applied value. Nothing is removed here; pruning
 * does that.
 *
 * An applied `null` for a field that is not `nullable` removes the value: upstream stores the
 * typed object, where such a null cannot exist.
 *
 * @module
 */
import { deepCopy, isJsonObject } from '../object.js';
import type { Schema } from '../schema/types.js';
import { isLeaf } from './compare.js';
import { type IndexedItem, indexList } from './field-set-of.js';
import { type FieldPath, fieldElement } from './path-element.js';
import type { Shape, TypeResolver } from './type-resolver.js';

export function mergeObjects(r: TypeResolver, live: unknown, config: unknown): unknown {
  return merge(r, live, config, r.root, []);
}

function shapeOf(
  r: TypeResolver,
  schema: Schema | undefined,
  live: unknown,
  config: unknown,
): Shape | undefined {
  const ls = r.shape(schema, live);
  const cs = r.shape(schema, config);
  return ls.kind === cs.kind ? cs : undefined;
}

function merge(
  r: TypeResolver,
  live: unknown,
  config: unknown,
  schema: Schema | undefined,
  path: FieldPath,
): unknown {
  if (config === undefined) return deepCopy(live);
  if (live === undefined) return deepCopy(config);
  const shape = shapeOf(r, schema, live, config);
  if (isLeaf(shape, live, config)) return deepCopy(config);
  // Not a leaf: both sides are lists or both are maps (`shapeOf` gives no shape otherwise).
  if (shape?.kind === 'list' && Array.isArray(live) && Array.isArray(config))
    return mergeList(r, shape, live, config, schema, path);
  if (isJsonObject(live) && isJsonObject(config)) return mergeMap(r, live, config, schema, path);
  return deepCopy(config);
}

function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function mergeMap(
  r: TypeResolver,
  live: Record<string, unknown>,
  config: Record<string, unknown>,
  schema: Schema | undefined,
  path: FieldPath,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const atRoot = path.length === 0;
  const keys = new Set([...Object.keys(live), ...Object.keys(config)]);
  for (const k of keys) {
    const fieldSchema = r.field(schema, k, atRoot);
    if (config[k] === null && !r.nav.resolve(fieldSchema)?.nullable) continue;
    const v = merge(r, live[k], config[k], fieldSchema, [...path, fieldElement(k)]);
    if (v !== undefined) setKey(out, k, v);
  }
  return out;
}

/** Upstream's list order: shared elements in applied order, live-only elements kept in place. */
function mergeList(
  r: TypeResolver,
  shape: Extract<Shape, { kind: 'list' }>,
  live: readonly unknown[],
  config: readonly unknown[],
  schema: Schema | undefined,
  path: FieldPath,
): unknown[] {
  const l = [...indexList(r, shape, schema, live, path).entries()];
  const c = [...indexList(r, shape, schema, config, path, true).entries()];
  const lMap = new Map(l);
  const cMap = new Map(c);
  const shared = c.filter(([k]) => lMap.has(k)).map(([k]) => k);
  let next = 0;
  const itemSchema = r.items(schema);
  const out: unknown[] = [];
  const emit = (k: string, li: IndexedItem | undefined, ci: IndexedItem | undefined): void => {
    const pe = (ci ?? li)?.pe;
    if (pe) out.push(merge(r, li?.item, ci?.item, itemSchema, [...path, pe]));
    if (shared[next] === k) next++;
  };
  let li = 0;
  let ci = 0;
  while (li < l.length || ci < c.length) {
    const lEntry = l[li];
    const cEntry = c[ci];
    if (lEntry && cEntry) {
      if (lEntry[0] === cEntry[0]) {
        emit(lEntry[0], lEntry[1], cEntry[1]);
        li++;
        ci++;
        continue;
      }
      if (cMap.has(lEntry[0]) && shared[next] !== lEntry[0]) {
        li++;
        continue;
      }
    }
    if (lEntry && !cMap.has(lEntry[0])) {
      emit(lEntry[0], lEntry[1], undefined);
      li++;
      continue;
    }
    if (!cEntry) {
      // A live element already emitted through the applied list; never expected, but it must
      // not stall the loop.
      li++;
      continue;
    }
    emit(cEntry[0], lMap.get(cEntry[0]), cEntry[1]);
    ci++;
  }
  return out;
}
