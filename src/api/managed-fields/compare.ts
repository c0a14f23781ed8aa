/**
 * Upstream `TypedValue.Compare`: which fields a write added, modified or removed. Leaves (scalars,
 * atomic lists and maps, and containers empty on both sides) are compared by value; a granular
 * map field or list element that appears or disappears as a whole is reported too, which is why
 * Update entries carry `".": {}` on new maps and list items.
 *
 * @module
 */
import { deepEqual } from '../object.js';
import type { Schema } from '../schema/types.js';
import { FieldSet } from './field-set.js';
import { indexList } from './field-set-of.js';
import { type FieldPath, fieldElement } from './path-element.js';
import { isEmptyContainer, type Shape, type TypeResolver } from './type-resolver.js';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Acc {
  readonly added: FieldPath[];
  readonly modified: FieldPath[];
  readonly removed: FieldPath[];
}

/** Compares two whole objects (`undefined`: absent). */
export function compareObjects(r: TypeResolver, lhs: unknown, rhs: unknown): Comparison {
  const acc: Acc = { added: [], modified: [], removed: [] };
  walk(r, lhs, rhs, r.root, [], acc);
  return {
    added: FieldSet.fromPaths(acc.added),
    modified: FieldSet.fromPaths(acc.modified),
    removed: FieldSet.fromPaths(acc.removed),
  };
}

/** The shape both sides share, or `undefined` when the write changed a value's kind. */
function sharedShape(
  r: TypeResolver,
  schema: Schema | undefined,
  lhs: unknown,
  rhs: unknown,
): Shape | undefined {
  const ls = lhs === undefined ? undefined : r.shape(schema, lhs);
  const rs = rhs === undefined ? undefined : r.shape(schema, rhs);
  if (ls && rs && ls.kind !== rs.kind) return undefined;
  return ls ?? rs;
}

export function isLeaf(shape: Shape | undefined, lhs: unknown, rhs: unknown): boolean {
  if (!shape || shape.kind === 'scalar') return true;
  if (shape.kind === 'list' ? shape.listType === 'atomic' : shape.atomic) return true;
  return isEmptyContainer(lhs) && isEmptyContainer(rhs);
}

function walk(
  r: TypeResolver,
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  path: FieldPath,
  acc: Acc,
): void {
  const shape = sharedShape(r, schema, lhs, rhs);
  if (isLeaf(shape, lhs, rhs)) {
    if (lhs === undefined) acc.added.push(path);
    else if (rhs === undefined) acc.removed.push(path);
    else if (!deepEqual(lhs, rhs)) acc.modified.push(path);
    return;
  }
  if (shape?.kind === 'list') walkList(r, shape, lhs, rhs, schema, path, acc);
  else walkMap(r, lhs, rhs, schema, path, acc);
  if (path.length === 0) return;
  if (lhs === undefined) acc.added.push(path);
  else if (rhs === undefined) acc.removed.push(path);
}

function walkMap(
  r: TypeResolver,
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  path: FieldPath,
  acc: Acc,
): void {
  const l = (lhs ?? {}) as Record<string, unknown>;
  const rr = (rhs ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(l), ...Object.keys(rr)]);
  const atRoot = path.length === 0;
  for (const k of keys) {
    if (l[k] === undefined && rr[k] === undefined) continue;
    walk(r, l[k], rr[k], r.field(schema, k, atRoot), [...path, fieldElement(k)], acc);
  }
}

function walkList(
  r: TypeResolver,
  shape: Extract<Shape, { kind: 'list' }>,
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  path: FieldPath,
  acc: Acc,
): void {
  const l = indexList(r, shape, schema, (lhs ?? []) as unknown[], path);
  const rr = indexList(r, shape, schema, (rhs ?? []) as unknown[], path);
  const itemSchema = r.items(schema);
  for (const [key, { pe, item }] of l)
    walk(r, item, rr.get(key)?.item, itemSchema, [...path, pe], acc);
  for (const [key, { pe, item }] of rr) {
    if (!l.has(key)) walk(r, undefined, item, itemSchema, [...path, pe], acc);
  }
}
