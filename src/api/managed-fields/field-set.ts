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
import {
  comparePathElements,
  deserializePathElement,
  type FieldPath,
  type PathElement,
  serializePathElement,
  UNKNOWN_ELEMENT,
} from './path-element.js';

interface ChildNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

function sortedValues<T>(m: ReadonlyMap<string, T>, pe: (t: T) => PathElement): T[] {
  return [...m.values()].sort((a, b) => comparePathElements(pe(a), pe(b)));
}

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
    for (const [pe, set] of children) {
      if (set.isEmpty()) continue;
      const key = serializePathElement(pe);
      const prev = c.get(key);
      c.set(key, { pe, set: prev ? prev.set.union(set) : set });
    }
    return new FieldSet(m, c);
  }

  /** The set of the given paths. The empty path (the whole object) is never tracked. */
  static fromPaths(paths: Iterable<FieldPath>): FieldSet {
    const members: PathElement[] = [];
    const grouped = new Map<string, { pe: PathElement; rest: FieldPath[] }>();
    for (const p of paths) {
      const [head, ...rest] = p;
      if (!head) continue;
      if (rest.length === 0) {
        members.push(head);
        continue;
      }
      const key = serializePathElement(head);
      const g = grouped.get(key) ?? { pe: head, rest: [] };
      g.rest.push(rest);
      grouped.set(key, g);
    }
    const children: [PathElement, FieldSet][] = [...grouped.values()].map((g) => [
      g.pe,
      FieldSet.fromPaths(g.rest),
    ]);
    return FieldSet.of(members, children);
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

  isEmpty(): boolean {
    if (this.#members.size > 0) return false;
    for (const n of this.#children.values()) if (!n.set.isEmpty()) return false;
    return true;
  }

  /** Whether the path itself is a member (a parent of members is not). */
  has(path: FieldPath): boolean {
    const [head, ...rest] = path;
    if (!head) return false;
    if (rest.length === 0) return this.hasMember(head);
    return this.withPrefix(head).has(rest);
  }

  union(other: FieldSet): FieldSet {
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
    const members = new Map([...this.#members].filter(([k]) => other.#members.has(k)));
    const children = new Map<string, ChildNode>();
    for (const [k, n] of this.#children) {
      const theirs = other.#children.get(k);
      if (!theirs) continue;
      const set = n.set.intersection(theirs.set);
      if (!set.isEmpty()) children.set(k, { pe: n.pe, set });
    }
    return new FieldSet(members, children);
  }

  /** Members of `this` not in `other`; a member of `other` does not remove this set's children. */
  difference(other: FieldSet): FieldSet {
    const members = new Map([...this.#members].filter(([k]) => !other.#members.has(k)));
    const children = new Map<string, ChildNode>();
    for (const [k, n] of this.#children) {
      const theirs = other.#children.get(k);
      const set = theirs ? n.set.difference(theirs.set) : n.set;
      if (!set.isEmpty()) children.set(k, { pe: n.pe, set });
    }
    return new FieldSet(members, children);
  }

  /** Like {@link difference}, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const members = new Map([...this.#members].filter(([k]) => !other.#members.has(k)));
    const children = new Map<string, ChildNode>();
    for (const [k, n] of this.#children) {
      if (other.#members.has(k)) continue;
      const theirs = other.#children.get(k);
      const set = theirs ? n.set.recursiveDifference(theirs.set) : n.set;
      if (!set.isEmpty()) children.set(k, { pe: n.pe, set });
    }
    return new FieldSet(members, children);
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
    const entries: [PathElement, FieldSet | undefined, boolean][] = [];
    for (const pe of this.#members.values()) {
      const child = this.#children.get(serializePathElement(pe));
      entries.push([pe, child?.set, true]);
    }
    for (const [k, n] of this.#children) {
      if (!this.#members.has(k)) entries.push([n.pe, n.set, false]);
    }
    entries.sort((a, b) => comparePathElements(a[0], b[0]));
    for (const [pe, child, isMember] of entries) {
      out[serializePathElement(pe)] = child ? child.#emit(isMember) : {};
    }
    if (includeSelf && entries.length > 0) out['.'] = {};
    return out;
  }

  /** Reads `fieldsV1`; throws with upstream's message on a malformed key or a non-object value. */
  static fromFieldsV1(json: unknown): FieldSet {
    if (json === null || json === undefined) return FieldSet.EMPTY;
    return readLevel(json).children ?? FieldSet.EMPTY;
  }
}

function readLevel(json: unknown): { children: FieldSet | undefined; isMember: boolean } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error('ReadMapCB: expect { or n, but found something else');
  }
  let isMember = false;
  const members: PathElement[] = [];
  const children: [PathElement, FieldSet][] = [];
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    const pe = parseKey(key);
    if (pe === UNKNOWN_ELEMENT) continue;
    const inner = readLevel(value);
    if (inner.isMember) members.push(pe);
    if (inner.children) children.push([pe, inner.children]);
  }
  const set =
    members.length > 0 || children.length > 0 ? FieldSet.of(members, children) : undefined;
  return { children: set, isMember: isMember || set === undefined };
}

function parseKey(key: string): PathElement | typeof UNKNOWN_ELEMENT {
  try {
    return deserializePathElement(key);
  } catch (e) {
    throw new Error(`parsing key as path element: ${(e as Error).message}`);
  }
}
