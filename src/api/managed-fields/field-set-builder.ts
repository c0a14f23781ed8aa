/**
 * Building a {@link FieldSet} from paths: a mutable trie filled path by path (a walk over an
 * object adds its leaves depth-first) and frozen once, and `fieldSetOfPaths` for a few
 * known paths.
 *
 * @module
 */
import { FieldSet } from './field-set.js';
import {
  type FieldPath,
  type KeyedElement,
  keyedField,
  type PathElement,
  serializePathElement,
} from './path-element.js';

/** The set of the given paths. The empty path (the whole object) is never tracked. */
export function fieldSetOfPaths(paths: Iterable<FieldPath>): FieldSet {
  const b = new FieldSetBuilder();
  for (const p of paths) b.addPath(p);
  return b.build();
}

export type PathStep = string | KeyedElement;

/** Shared empty maps for a built level without members or children (sets never change maps). */
const NO_MEMBERS = new Map<string, PathElement>();
const NO_CHILDREN = new Map<string, BuilderChild>();

/** A builder's child; `set` is filled in by `build`, so its map becomes the set's own. */
interface BuilderChild {
  readonly pe: PathElement;
  readonly b: FieldSetBuilder;
  set: FieldSet;
}

/**
 * A mutable trie that walks fill path by path, frozen once into a {@link FieldSet}. Adding a
 * path costs one map lookup per step, with no intermediate sets or path copies.
 */
export class FieldSetBuilder {
  // Created on first use: most nodes of a walk have members only (leaves), some children only.
  #members: Map<string, PathElement> | undefined;
  #children: Map<string, BuilderChild> | undefined;

  /**
   * The nodes of the last added path and the steps that led to them: a walk adds paths in
   * depth-first order, so consecutive paths share their prefix, and reusing it saves a map
   * lookup per shared step (a Deployment's leaves sit 6–9 steps deep). Only the root has one.
   */
  #cursor:
    | { readonly steps: PathStep[]; readonly nodes: FieldSetBuilder[]; depth: number }
    | undefined;

  /** Adds the path of the first `length` steps; the empty path is ignored. */
  add(steps: readonly PathStep[], length: number): void {
    if (length === 0) return;
    const last = steps[length - 1];
    if (last !== undefined) this.at(steps, length - 1).addMember(last);
  }

  /** The node of the path of the first `length` steps, created as needed (empty: this). */
  at(steps: readonly PathStep[], length: number): FieldSetBuilder {
    if (this.#cursor === undefined) this.#cursor = { steps: [], nodes: [], depth: 0 };
    const cursor = this.#cursor;
    let node: FieldSetBuilder = this;
    let i = 0;
    // Reuse the nodes of the previous path while its steps match (same name, same element key).
    const shared = Math.min(length, cursor.depth);
    for (; i < shared; i++) {
      const reused = cursor.nodes[i];
      if (reused === undefined || !sameStep(cursor.steps[i], steps[i])) break;
      node = reused;
    }
    for (; i < length; i++) {
      const step = steps[i];
      if (step === undefined) break;
      node = node.child(step);
      cursor.steps[i] = step;
      cursor.nodes[i] = node;
    }
    cursor.depth = i;
    return node;
  }

  /**
   * The node below this one at `step`, created as needed. A caller that creates a node must
   * add something below it: an empty node would build into an empty child.
   */
  child(step: PathStep): FieldSetBuilder {
    const e = typeof step === 'string' ? keyedField(step) : step;
    if (this.#children === undefined) this.#children = new Map();
    let child = this.#children.get(e.key);
    if (!child) {
      child = { pe: e.pe, b: new FieldSetBuilder(), set: FieldSet.EMPTY };
      this.#children.set(e.key, child);
    }
    return child.b;
  }

  /** Adds `step` itself as a member of this node. */
  addMember(step: PathStep): void {
    const e = typeof step === 'string' ? keyedField(step) : step;
    if (this.#members === undefined) this.#members = new Map();
    this.#members.set(e.key, e.pe);
  }

  addPath(path: FieldPath): void {
    this.add(
      path.map((pe) => ({ key: serializePathElement(pe), pe })),
      path.length,
    );
  }

  /** The set; the builder hands its maps over and must not be used afterwards. */
  build(): FieldSet {
    const children = this.#children ?? NO_CHILDREN;
    for (const child of children.values()) child.set = child.b.build();
    return FieldSet.ofLevel(this.#members ?? NO_MEMBERS, children);
  }
}

function sameStep(a: PathStep | undefined, b: PathStep | undefined): boolean {
  if (typeof a === 'string') return a === b;
  return a !== undefined && b !== undefined && typeof b !== 'string' && a.key === b.key;
}
