/**
 * Upstream `TypedValue.Compare`: which fields a write added, modified or removed. Leaves (scalars,
 * atomic lists and maps, and containers empty on both sides) are compared by value; a granular
 * map field or list element that appears or disappears as a whole is reported too, which is why
 * Update entries carry `".": {}` on new maps and list items.
 *
 * @module
 */
import { deepEqual, isJsonObject, type JsonObject } from '../object.js';
import type { FieldSet } from './field-set.js';
import { FieldSetBuilder, type PathStep } from './field-set-builder.js';
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
      const step = this.steps[i];
      if (step === undefined) break;
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

const NO_KEYS: readonly string[] = [];
const NO_ITEMS: readonly unknown[] = [];
/** The keys of an absent map (an empty one: `l[k]` still reads inherited names). */
const NONE: JsonObject = {};

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
    // The walk set the steps up to `depth` before coming here.
    const step = w.steps[depth - 1];
    if (step !== undefined) {
      addSubtree(w, rhs, node, w.added.at(w.steps, depth - 1), depth, step);
      return;
    }
  }
  if (descend(w, lhs, rhs, node, depth)) {
    markWhole(w, lhs, rhs, depth);
    return;
  }
  if (lhs === undefined) w.added.add(w.steps, depth);
  else if (rhs === undefined) w.removed.add(w.steps, depth);
  else if (lhs !== rhs && !deepEqual(lhs, rhs)) w.modified.add(w.steps, depth);
}

/**
 * Walks into a granular, non-empty map or list; false when the node is a leaf. Both sides are
 * maps or both lists, or one side is absent (`undefined`) and reads as an empty container of
 * the other's kind; a scalar (null included) or a change of kind makes the node a leaf.
 */
function descend(w: Walker, lhs: unknown, rhs: unknown, node: SchemaNode, depth: number): boolean {
  if (lhs === undefined) {
    if (isJsonObject(rhs)) return descendMaps(w, NONE, rhs, node, depth);
    return Array.isArray(rhs) && descendLists(w, NO_ITEMS, rhs, node, depth);
  }
  if (isJsonObject(lhs)) {
    if (rhs === undefined) return descendMaps(w, lhs, NONE, node, depth);
    return isJsonObject(rhs) && descendMaps(w, lhs, rhs, node, depth);
  }
  if (!Array.isArray(lhs)) return false;
  if (rhs === undefined) return descendLists(w, lhs, NO_ITEMS, node, depth);
  return Array.isArray(rhs) && descendLists(w, lhs, rhs, node, depth);
}

/** {@link descend} into two maps (an absent one is {@link NONE}). */
function descendMaps(
  w: Walker,
  l: JsonObject,
  r: JsonObject,
  node: SchemaNode,
  depth: number,
): boolean {
  if (node.atomicMap) return false;
  const lKeys = l === NONE ? NO_KEYS : Object.keys(l);
  const rKeys = r === NONE ? NO_KEYS : Object.keys(r);
  if (lKeys.length === 0 && rKeys.length === 0) return false;
  walkMap(w, l, r, lKeys, rKeys, node, depth);
  return true;
}

/** {@link descend} into two lists (an absent one is empty). */
function descendLists(
  w: Walker,
  l: readonly unknown[],
  r: readonly unknown[],
  node: SchemaNode,
  depth: number,
): boolean {
  const shape = w.r.nodeListShape(node);
  if (shape.listType === 'atomic' || l.length + r.length === 0) return false;
  walkList(w, shape, l, r, node, depth);
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
  step: PathStep,
): void {
  if (isJsonObject(rhs)) {
    if (!node.atomicMap) addMapEntries(w, rhs, node, parent, depth, step);
  } else if (Array.isArray(rhs)) addListItems(w, rhs, node, parent, depth, step);
  parent.addMember(step);
}

/** The entries of a new map `rhs`, reached by `step` (the last of the walk's first `depth`). */
function addMapEntries(
  w: Walker,
  rhs: JsonObject,
  node: SchemaNode,
  parent: FieldSetBuilder,
  depth: number,
  step: PathStep,
): void {
  let here: FieldSetBuilder | undefined;
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
    addSubtree(w, v, f.node, here, depth + 1, f);
  }
}

/** The items of a new list `rhs`, reached by `step` (the last of the walk's first `depth`). */
function addListItems(
  w: Walker,
  rhs: readonly unknown[],
  node: SchemaNode,
  parent: FieldSetBuilder,
  depth: number,
  step: PathStep,
): void {
  if (rhs.length === 0) return;
  const shape = w.r.nodeListShape(node);
  if (shape.listType === 'atomic') return;
  const items = indexList(w.r, shape, node.schema, rhs, () => w.path(depth));
  const here = parent.child(step);
  const itemNode = w.r.itemsNode(node);
  for (const item of items.values()) {
    w.steps[depth] = item;
    addSubtree(w, item.item, itemNode, here, depth + 1, item);
  }
}

/** A granular map or list that appears or disappears is itself added or removed. */
function markWhole(w: Walker, lhs: unknown, rhs: unknown, depth: number): void {
  if (depth === 0) return;
  if (lhs === undefined) w.added.add(w.steps, depth);
  else if (rhs === undefined) w.removed.add(w.steps, depth);
}

function walkMap(
  w: Walker,
  l: JsonObject,
  rr: JsonObject,
  lKeys: readonly string[],
  rKeys: readonly string[],
  node: SchemaNode,
  depth: number,
): void {
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
  lhs: readonly unknown[],
  rhs: readonly unknown[],
  node: SchemaNode,
  depth: number,
): void {
  // The path is only for error messages: built when one is thrown.
  const l = indexList(w.r, shape, node.schema, lhs, () => w.path(depth));
  const rr = indexList(w.r, shape, node.schema, rhs, () => w.path(depth));
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
