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
import { type FieldSet, FieldSetBuilder, type PathStep } from './field-set.js';
import { indexList } from './field-set-of.js';
import { type FieldPath, fieldElement, type PathElement } from './path-element.js';
import { isEmptyContainer, type Shape, type TypeResolver } from './type-resolver.js';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

/**
 * One walk over both objects. The current path is a stack of steps that is only turned into
 * set entries (or a {@link FieldPath}, for an error message) when something is found, so the
 * unchanged bulk of an update allocates nothing.
 */
class Walker {
  readonly r: TypeResolver;
  readonly added = new FieldSetBuilder();
  readonly modified = new FieldSetBuilder();
  readonly removed = new FieldSetBuilder();
  readonly steps: PathStep[] = [];

  constructor(r: TypeResolver) {
    this.r = r;
  }

  path(depth: number): FieldPath {
    const out: PathElement[] = [];
    for (let i = 0; i < depth; i++) {
      const step = this.steps[i] as PathStep;
      out.push(typeof step === 'string' ? fieldElement(step) : step.pe);
    }
    return out;
  }
}

/** Compares two whole objects (`undefined`: absent). */
export function compareObjects(r: TypeResolver, lhs: unknown, rhs: unknown): Comparison {
  const w = new Walker(r);
  walk(w, lhs, rhs, r.root, 0);
  return { added: w.added.build(), modified: w.modified.build(), removed: w.removed.build() };
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

function walk(w: Walker, lhs: unknown, rhs: unknown, schema: Schema | undefined, depth: number) {
  const shape = sharedShape(w.r, schema, lhs, rhs);
  if (isLeaf(shape, lhs, rhs)) {
    if (lhs === undefined) w.added.add(w.steps, depth);
    else if (rhs === undefined) w.removed.add(w.steps, depth);
    else if (lhs !== rhs && !deepEqual(lhs, rhs)) w.modified.add(w.steps, depth);
    return;
  }
  if (shape?.kind === 'list') walkList(w, shape, lhs, rhs, schema, depth);
  else walkMap(w, lhs, rhs, schema, depth);
  if (depth === 0) return;
  if (lhs === undefined) w.added.add(w.steps, depth);
  else if (rhs === undefined) w.removed.add(w.steps, depth);
}

const NONE: Record<string, unknown> = {};

function walkMap(
  w: Walker,
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  depth: number,
): void {
  const l = (lhs ?? NONE) as Record<string, unknown>;
  const rr = (rhs ?? NONE) as Record<string, unknown>;
  const atRoot = depth === 0;
  // Keys of the left side, then the right side's new ones (a Set of both, without the Set).
  for (const k of Object.keys(l)) {
    if (l[k] === undefined && rr[k] === undefined) continue;
    w.steps[depth] = k;
    walk(w, l[k], rr[k], w.r.field(schema, k, atRoot), depth + 1);
  }
  for (const k of Object.keys(rr)) {
    // `l[k]`, not `undefined`: an inherited name (`constructor`) reads as a value, as before.
    if (Object.hasOwn(l, k) || (l[k] === undefined && rr[k] === undefined)) continue;
    w.steps[depth] = k;
    walk(w, l[k], rr[k], w.r.field(schema, k, atRoot), depth + 1);
  }
}

function walkList(
  w: Walker,
  shape: Extract<Shape, { kind: 'list' }>,
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  depth: number,
): void {
  const path = w.path(depth);
  const l = indexList(w.r, shape, schema, (lhs ?? []) as unknown[], path);
  const rr = indexList(w.r, shape, schema, (rhs ?? []) as unknown[], path);
  const itemSchema = w.r.items(schema);
  for (const [key, step] of l) {
    w.steps[depth] = { key, pe: step.pe };
    walk(w, step.item, rr.get(key)?.item, itemSchema, depth + 1);
  }
  for (const [key, step] of rr) {
    if (l.has(key)) continue;
    w.steps[depth] = { key, pe: step.pe };
    walk(w, undefined, step.item, itemSchema, depth + 1);
  }
}
