/**
 * Upstream `TypedValue.Compare`: which fields a write added, modified or removed. Leaves (scalars,
 * atomic lists and maps, and containers empty on both sides) are compared by value; a granular
 * map field or list element that appears or disappears as a whole is reported too, which is why
 * Update entries carry `".": {}` on new maps and list items.
 *
 * @module
 */
import { deepEqual } from '../object.js';
import { type FieldSet, FieldSetBuilder, type PathStep } from './field-set.js';
import { indexList } from './field-set-of.js';
import { type FieldPath, fieldElement, type PathElement } from './path-element.js';
import {
  isEmptyContainer,
  type SchemaNode,
  type Shape,
  type TypeResolver,
} from './type-resolver.js';

type ListShape = Extract<Shape, { kind: 'list' }>;

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
  walk(w, lhs, rhs, r.node(r.root), 0);
  return { added: w.added.build(), modified: w.modified.build(), removed: w.removed.build() };
}

/** Whether a node is compared whole (the same decision {@link walk} takes inline). */
export function isLeaf(shape: Shape | undefined, lhs: unknown, rhs: unknown): boolean {
  if (!shape || shape.kind === 'scalar') return true;
  if (shape.kind === 'list' ? shape.listType === 'atomic' : shape.atomic) return true;
  return isEmptyContainer(lhs) && isEmptyContainer(rhs);
}

/** What a value is to the walk: absent, a scalar (null included), a map or a list. */
const ABSENT = 0;
const SCALAR = 1;
const MAP = 2;
const LIST = 3;

function kindOf(v: unknown): number {
  if (v === undefined) return ABSENT;
  if (typeof v !== 'object' || v === null) return SCALAR;
  return Array.isArray(v) ? LIST : MAP;
}

const NO_KEYS: readonly string[] = [];

/** An empty container of `other`'s kind when `other` is a non-empty one; else null. */
function emptyLike(other: unknown): unknown {
  if (typeof other !== 'object' || other === null) return null;
  if (Array.isArray(other)) return other.length > 0 ? [] : null;
  return Object.keys(other).length > 0 ? {} : null;
}

/**
 * One node of both objects. The same decision as {@link isLeaf} on the shape both sides share,
 * taken with one look at each value: a change of kind, a scalar, an atomic list or map, or two empty
 * containers are compared whole; other maps and lists are descended into.
 */
function walk(w: Walker, lhsIn: unknown, rhsIn: unknown, node: SchemaNode, depth: number) {
  // structured-merge-diff reads a null list or map as an empty one when the other side has
  // entries: the entries are added or removed, the field itself is only modified (no ".").
  // A Go zero value serialises non-omitempty lists as null (a PodSpec's `containers`).
  const lhs = lhsIn === null ? emptyLike(rhsIn) : lhsIn;
  const rhs = rhsIn === null ? emptyLike(lhsIn) : rhsIn;
  if (lhs === undefined && depth > 0) {
    addSubtree(w, rhs, node, w.added.at(w.steps, depth - 1), depth);
    return;
  }
  if (descend(w, lhs, rhs, node, depth)) {
    markWhole(w, lhs, rhs, depth);
    return;
  }
  if (lhs === undefined) w.added.add(w.steps, depth);
  else if (rhs === undefined) w.removed.add(w.steps, depth);
  else if (lhs !== rhs && !deepEqual(lhs, rhs)) w.modified.add(w.steps, depth);
}

/** Walks into a granular, non-empty map or list; false when the node is a leaf. */
function descend(w: Walker, lhs: unknown, rhs: unknown, node: SchemaNode, depth: number): boolean {
  const lk = kindOf(lhs);
  const rk = kindOf(rhs);
  const kind = lk === ABSENT ? rk : rk === ABSENT || rk === lk ? lk : SCALAR;
  if (kind === MAP) {
    if (node.atomicMap) return false;
    const lKeys = lk === MAP ? Object.keys(lhs as object) : NO_KEYS;
    const rKeys = rk === MAP ? Object.keys(rhs as object) : NO_KEYS;
    if (lKeys.length === 0 && rKeys.length === 0) return false;
    walkMap(w, lhs, rhs, lKeys, rKeys, node, depth);
    return true;
  }
  if (kind !== LIST) return false;
  const shape = w.r.nodeShape(node, lk === LIST ? lhs : rhs) as ListShape;
  const items = ((lhs ?? NO_KEYS) as unknown[]).length + ((rhs ?? NO_KEYS) as unknown[]).length;
  if (shape.listType === 'atomic' || items === 0) return false;
  walkList(w, shape, lhs, rhs, node, depth);
  return true;
}

/**
 * {@link walk} of a value the left side does not have (most of a create): everything in it is
 * added, so it is walked alone and its paths are added below `parent` (the node of the path
 * without its last step), one map operation per path instead of a walk from the root.
 */
function addSubtree(
  w: Walker,
  rhs: unknown,
  node: SchemaNode,
  parent: FieldSetBuilder,
  depth: number,
): void {
  const step = w.steps[depth - 1] as PathStep;
  const kind = kindOf(rhs);
  if (kind === MAP && !node.atomicMap)
    addMapEntries(w, rhs as Record<string, unknown>, node, parent, depth);
  else if (kind === LIST) addListItems(w, rhs as unknown[], node, parent, depth);
  parent.addMember(step);
}

function addMapEntries(
  w: Walker,
  rhs: Record<string, unknown>,
  node: SchemaNode,
  parent: FieldSetBuilder,
  depth: number,
): void {
  let here: FieldSetBuilder | undefined;
  const step = w.steps[depth - 1] as PathStep;
  for (const k of Object.keys(rhs)) {
    const l = NONE[k];
    const v = rhs[k];
    if (l === undefined && v === undefined) continue;
    const f = w.r.fieldStep(node, k, false);
    w.steps[depth] = f;
    // An inherited name (`constructor`) reads as a value on the left: compared as before.
    if (l !== undefined) {
      walk(w, l, v, f.node, depth + 1);
      continue;
    }
    if (here === undefined) here = parent.child(step);
    addSubtree(w, v, f.node, here, depth + 1);
  }
}

function addListItems(
  w: Walker,
  rhs: unknown[],
  node: SchemaNode,
  parent: FieldSetBuilder,
  depth: number,
): void {
  if (rhs.length === 0) return;
  const shape = w.r.nodeShape(node, rhs) as ListShape;
  if (shape.listType === 'atomic') return;
  const items = indexList(w.r, shape, node.schema, rhs, () => w.path(depth));
  const here = parent.child(w.steps[depth - 1] as PathStep);
  const itemNode = w.r.itemsNode(node);
  for (const step of items.values()) {
    w.steps[depth] = step;
    addSubtree(w, step.item, itemNode, here, depth + 1);
  }
}

/** A granular map or list that appears or disappears is itself added or removed. */
function markWhole(w: Walker, lhs: unknown, rhs: unknown, depth: number): void {
  if (depth === 0) return;
  if (lhs === undefined) w.added.add(w.steps, depth);
  else if (rhs === undefined) w.removed.add(w.steps, depth);
}

const NONE: Record<string, unknown> = {};

function walkMap(
  w: Walker,
  lhs: unknown,
  rhs: unknown,
  lKeys: readonly string[],
  rKeys: readonly string[],
  node: SchemaNode,
  depth: number,
): void {
  const l = (lhs ?? NONE) as Record<string, unknown>;
  const rr = (rhs ?? NONE) as Record<string, unknown>;
  const atRoot = depth === 0;
  // Keys of the left side, then the right side's new ones (a Set of both, without the Set).
  for (const k of lKeys) {
    if (l[k] === undefined && rr[k] === undefined) continue;
    const f = w.r.fieldStep(node, k, atRoot);
    w.steps[depth] = f;
    walk(w, l[k], rr[k], f.node, depth + 1);
  }
  for (const k of rKeys) {
    // `l[k]`, not `undefined`: an inherited name (`constructor`) reads as a value, as before.
    if (Object.hasOwn(l, k) || (l[k] === undefined && rr[k] === undefined)) continue;
    const f = w.r.fieldStep(node, k, atRoot);
    w.steps[depth] = f;
    walk(w, l[k], rr[k], f.node, depth + 1);
  }
}

function walkList(
  w: Walker,
  shape: ListShape,
  lhs: unknown,
  rhs: unknown,
  node: SchemaNode,
  depth: number,
): void {
  // The path is only for error messages: built when one is thrown.
  const l = indexList(w.r, shape, node.schema, (lhs ?? []) as unknown[], () => w.path(depth));
  const rr = indexList(w.r, shape, node.schema, (rhs ?? []) as unknown[], () => w.path(depth));
  const itemNode = w.r.itemsNode(node);
  for (const [key, step] of l) {
    w.steps[depth] = step;
    walk(w, step.item, rr.get(key)?.item, itemNode, depth + 1);
  }
  for (const [key, step] of rr) {
    if (l.has(key)) continue;
    w.steps[depth] = step;
    walk(w, undefined, step.item, itemNode, depth + 1);
  }
}
