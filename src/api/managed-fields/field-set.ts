/**
 * A set of field paths stored as a trie, as structured-merge-diff's `fieldpath.Set`: at each
 * level, `members` are the elements that are themselves in the set and `children` hold the
 * deeper paths. A path can be both a member and a parent (a list item owned as a whole *and*
 * field by field); `fieldsV1` writes that as a `".": {}` entry. Sets are immutable; every
 * operation returns a new set and never keeps an empty child, because an empty child would
 * serialize as `{}` and read back as a member.
 *
 * @module
 */
import { compareStrings } from './go-json.js';
import {
  comparePathElements,
  type FieldPath,
  type KeyedElement,
  keyedField,
  type PathElement,
  parseFieldsV1Key,
  serializePathElement,
  UNKNOWN_ELEMENT,
} from './path-element.js';

interface ChildNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

interface Entry {
  readonly key: string;
  readonly pe: PathElement;
}

/** Upstream order; field names (most keys) compare as their `f:` keys, without the switch. */
function compareEntries(a: Entry, b: Entry): number {
  if (a.pe.kind === 'field' && b.pe.kind === 'field') return compareStrings(a.key, b.key);
  return comparePathElements(a.pe, b.pe);
}

function sortedValues<T>(m: ReadonlyMap<string, T>, pe: (t: T) => PathElement): T[] {
  return [...m.values()].sort((a, b) => comparePathElements(pe(a), pe(b)));
}

/** The private constructor, for the builder and the reader below (set in a static block). */
let newFieldSet: (m: Map<string, PathElement>, c: Map<string, ChildNode>) => FieldSet;

/**
 * Sets are immutable, so operations share every untouched subtree with their inputs and return
 * an input itself when nothing changes: an update changes a handful of paths of sets with a
 * hundred members, and copying whole tries for that dominated the cost of a write.
 */
export class FieldSet {
  readonly #members: ReadonlyMap<string, PathElement>;
  readonly #children: ReadonlyMap<string, ChildNode>;

  private constructor(members: Map<string, PathElement>, children: Map<string, ChildNode>) {
    this.#members = members;
    this.#children = children;
  }

  static readonly EMPTY = new FieldSet(new Map(), new Map());

  /** A set of the given members and child subsets; empty subsets are dropped. */
  static of(
    members: Iterable<PathElement>,
    children: Iterable<[PathElement, FieldSet]> = [],
  ): FieldSet {
    const m = new Map<string, PathElement>();
    for (const pe of members) m.set(serializePathElement(pe), pe);
    const c = new Map<string, ChildNode>();
    for (const [pe, set] of children) addChild(c, serializePathElement(pe), pe, set);
    return new FieldSet(m, c);
  }

  /** The set of the given paths. The empty path (the whole object) is never tracked. */
  static fromPaths(paths: Iterable<FieldPath>): FieldSet {
    const b = new FieldSetBuilder();
    for (const p of paths) b.addPath(p);
    return b.build();
  }

  /** Members in upstream order. */
  members(): PathElement[] {
    return sortedValues(this.#members, (pe) => pe);
  }

  /** Child subsets in upstream order. */
  children(): [PathElement, FieldSet][] {
    return sortedValues(this.#children, (n) => n.pe).map((n) => [n.pe, n.set]);
  }

  hasMember(pe: PathElement): boolean {
    return this.#members.has(serializePathElement(pe));
  }

  /** The subset below `pe`, without the prefix (upstream `WithPrefix`). */
  withPrefix(pe: PathElement): FieldSet {
    return this.#children.get(serializePathElement(pe))?.set ?? FieldSet.EMPTY;
  }

  /** Constant time: no constructor or operation keeps an empty child. */
  isEmpty(): boolean {
    return this.#members.size === 0 && this.#children.size === 0;
  }

  /** Whether the path itself is a member (a parent of members is not). */
  has(path: FieldPath): boolean {
    const [head, ...rest] = path;
    if (!head) return false;
    if (rest.length === 0) return this.hasMember(head);
    return this.withPrefix(head).has(rest);
  }

  union(other: FieldSet): FieldSet {
    if (other === this || other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const members = new Map(this.#members);
    for (const [k, pe] of other.#members) members.set(k, pe);
    const children = new Map(this.#children);
    for (const [k, n] of other.#children) {
      const mine = children.get(k);
      children.set(k, mine ? { pe: n.pe, set: mine.set.union(n.set) } : n);
    }
    return new FieldSet(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    if (this.isEmpty() || other.isEmpty()) return FieldSet.EMPTY;
    const members = new Map<string, PathElement>();
    for (const [k, pe] of this.#members) if (other.#members.has(k)) members.set(k, pe);
    const children = new Map<string, ChildNode>();
    for (const [k, n] of this.#children) {
      const theirs = other.#children.get(k);
      if (!theirs) continue;
      const set = n.set.intersection(theirs.set);
      if (!set.isEmpty()) children.set(k, { pe: n.pe, set });
    }
    if (members.size === 0 && children.size === 0) return FieldSet.EMPTY;
    return new FieldSet(members, children);
  }

  /** Members of `this` not in `other`; a member of `other` does not remove this set's children. */
  difference(other: FieldSet): FieldSet {
    return this.#minus(other, false);
  }

  /** Like {@link difference}, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.#minus(other, true);
  }

  /** Copy-on-write difference: maps are copied only when something is actually removed. */
  #minus(other: FieldSet, recursive: boolean): FieldSet {
    if (this.isEmpty() || other.isEmpty()) return this;
    const members = withoutKeys(this.#members, other.#members);
    let children = recursive ? withoutKeys(this.#children, other.#members) : this.#children;
    for (const [k, theirs] of other.#children) {
      const mine = children.get(k);
      if (!mine) continue;
      const set = mine.set.#minus(theirs.set, recursive);
      if (set === mine.set) continue;
      const copy =
        children === this.#children ? new Map(children) : (children as Map<string, ChildNode>);
      if (set.isEmpty()) copy.delete(k);
      else copy.set(k, { pe: mine.pe, set });
      children = copy;
    }
    if (members === this.#members && children === this.#children) return this;
    return newFieldSet(members as Map<string, PathElement>, children as Map<string, ChildNode>);
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).isEmpty() && other.difference(this).isEmpty();
  }

  /** Every member path, depth first: a level's members, then its children (upstream `Iterate`). */
  paths(): FieldPath[] {
    const out: FieldPath[] = this.members().map((pe) => [pe]);
    for (const [pe, set] of this.children()) {
      for (const p of set.paths()) out.push([pe, ...p]);
    }
    return out;
  }

  /** The `fieldsV1` JSON object, keys in upstream order, `"."` last. */
  toFieldsV1(): Record<string, unknown> {
    return this.#emit(false);
  }

  #emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const entries: Entry[] = [];
    for (const [key, pe] of this.#members) entries.push({ key, pe });
    for (const [key, n] of this.#children) {
      if (!this.#members.has(key)) entries.push({ key, pe: n.pe });
    }
    if (entries.length > 1) entries.sort(compareEntries);
    for (const { key } of entries) {
      const child = this.#children.get(key);
      out[key] = child ? child.set.#emit(this.#members.has(key)) : {};
    }
    if (includeSelf && entries.length > 0) out['.'] = {};
    return out;
  }

  /** Reads `fieldsV1`; throws with upstream's message on a malformed key or a non-object value. */
  static fromFieldsV1(json: unknown): FieldSet {
    if (json === null || json === undefined) return FieldSet.EMPTY;
    return readLevel(json).children ?? FieldSet.EMPTY;
  }

  static {
    newFieldSet = (m, c) => (m.size === 0 && c.size === 0 ? FieldSet.EMPTY : new FieldSet(m, c));
  }
}

/** `m` without the keys of `drop`; `m` itself (no copy) when it has none of them. */
function withoutKeys<T>(
  m: ReadonlyMap<string, T>,
  drop: ReadonlyMap<string, unknown>,
): ReadonlyMap<string, T> {
  let out = m;
  for (const k of drop.keys()) {
    if (!out.has(k)) continue;
    if (out === m) out = new Map(out);
    (out as Map<string, T>).delete(k);
  }
  return out;
}

function addChild(c: Map<string, ChildNode>, key: string, pe: PathElement, set: FieldSet): void {
  if (set.isEmpty()) return;
  const prev = c.get(key);
  c.set(key, { pe, set: prev ? prev.set.union(set) : set });
}

/** One step of a path being built: a field name, or a list element with its `fieldsV1` key. */
export type PathStep = string | KeyedElement;

/**
 * A mutable trie that walks fill path by path, frozen once into a {@link FieldSet}. Adding a
 * path costs one map lookup per step, with no intermediate sets or path copies.
 */
export class FieldSetBuilder {
  readonly #members = new Map<string, PathElement>();
  readonly #children = new Map<string, { pe: PathElement; b: FieldSetBuilder }>();

  /** Adds the path of the first `length` steps; the empty path is ignored. */
  add(steps: readonly PathStep[], length: number): void {
    if (length === 0) return;
    let node: FieldSetBuilder = this;
    for (let i = 0; i < length - 1; i++) {
      const step = steps[i] as PathStep;
      const e = typeof step === 'string' ? keyedField(step) : step;
      let child = node.#children.get(e.key);
      if (!child) {
        child = { pe: e.pe, b: new FieldSetBuilder() };
        node.#children.set(e.key, child);
      }
      node = child.b;
    }
    const last = steps[length - 1] as PathStep;
    const e = typeof last === 'string' ? keyedField(last) : last;
    node.#members.set(e.key, e.pe);
  }

  addPath(path: FieldPath): void {
    this.add(
      path.map((pe) => ({ key: serializePathElement(pe), pe })),
      path.length,
    );
  }

  build(): FieldSet {
    const c = new Map<string, ChildNode>();
    for (const [k, { pe, b }] of this.#children) c.set(k, { pe, set: b.build() });
    return newFieldSet(this.#members, c);
  }
}

function readLevel(json: unknown): { children: FieldSet | undefined; isMember: boolean } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error('ReadMapCB: expect { or n, but found something else');
  }
  let isMember = false;
  const members = new Map<string, PathElement>();
  const children = new Map<string, ChildNode>();
  for (const [raw, value] of Object.entries(json as Record<string, unknown>)) {
    if (raw === '.') {
      isMember = true;
      continue;
    }
    const parsed = parseKey(raw);
    if (parsed === UNKNOWN_ELEMENT) continue;
    const { key, pe } = parsed;
    const inner = readLevel(value);
    if (inner.isMember) members.set(key, pe);
    if (inner.children) addChild(children, key, pe, inner.children);
  }
  const set = members.size > 0 || children.size > 0 ? newFieldSet(members, children) : undefined;
  return { children: set, isMember: isMember || set === undefined };
}

function parseKey(key: string): KeyedElement | typeof UNKNOWN_ELEMENT {
  try {
    return parseFieldsV1Key(key);
  } catch (e) {
    throw new Error(`parsing key as path element: ${(e as Error).message}`);
  }
}
