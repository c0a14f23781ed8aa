/**
 * A set of field paths stored as a trie, as structured-merge-diff's `fieldpath.Set`: at each
 * level, `members` are the elements that are themselves in the set and `children` hold the
 * deeper paths. A path can be both a member and a parent (a list item owned as a whole *and*
 * field by field); `fieldsV1` writes that as a `".": {}` entry. Sets are immutable; every
 * operation returns a new set and never keeps an empty child, because an empty child would
 * serialize as `{}` and read back as a member. A set read from canonical `fieldsV1` keeps that
 * JSON, decodes a level only when an operation looks into it, and writes the JSON back as is
 * (see `fields-v1-canonical.ts`).
 *
 * @module
 */
import { errorMessage } from '../error-message.js';
import { isJsonObject } from '../object.js';
import { isCanonicalLevel } from './fields-v1-canonical.js';
import { compareStrings } from './go-json.js';
import {
  compareKeyedElements,
  comparePathElements,
  type FieldPath,
  type KeyedElement,
  type PathElement,
  parseFieldsV1Key,
  serializePathElement,
  UNKNOWN_ELEMENT,
} from './path-element.js';

export interface ChildNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/** `f`, the type letter of a field element's key (`f:name`). */
const F = 0x66;

function sortedValues<T>(m: ReadonlyMap<string, T>, pe: (t: T) => PathElement): T[] {
  return [...m.values()].sort((a, b) => comparePathElements(pe(a), pe(b)));
}

/** The private constructor, for the reader below (set in a static block). */
let newFieldSet: (
  m: ReadonlyMap<string, PathElement>,
  c: ReadonlyMap<string, ChildNode>,
) => FieldSet;

/** One decoded level of a set: its members and its children, by `fieldsV1` key. */
interface Level {
  readonly members: ReadonlyMap<string, PathElement>;
  readonly children: ReadonlyMap<string, ChildNode>;
}

/**
 * Sets are immutable, so operations share every untouched subtree with their inputs and return
 * an input itself when nothing changes: an update changes a handful of paths of sets with a
 * hundred members, and copying whole tries for that dominated the cost of a write.
 */
export class FieldSet {
  #m: ReadonlyMap<string, PathElement> | undefined;
  #c: ReadonlyMap<string, ChildNode> | undefined;
  /**
   * The canonical `fieldsV1` this set was read from (what {@link toFieldsV1} would write, with
   * `".": {}` when {@link #rawSelf}), kept so an entry a write leaves alone is written back
   * without re-encoding, and so a level is only decoded when an operation looks into it: an
   * update reads a handful of paths of sets with a hundred members.
   */
  readonly #raw: Readonly<Record<string, unknown>> | undefined;
  readonly #rawSelf: boolean;

  private constructor(
    members: ReadonlyMap<string, PathElement> | undefined,
    children: ReadonlyMap<string, ChildNode> | undefined,
    raw?: Readonly<Record<string, unknown>>,
    rawSelf = false,
  ) {
    this.#m = members;
    this.#c = children;
    this.#raw = raw;
    this.#rawSelf = rawSelf;
  }

  // `#m` and `#c` are set together: both undefined means the level is still raw.
  get #members(): ReadonlyMap<string, PathElement> {
    return this.#m ?? this.#decodeLevel().members;
  }

  get #children(): ReadonlyMap<string, ChildNode> {
    return this.#c ?? this.#decodeLevel().children;
  }

  /**
   * Decodes one level of a canonical {@link #raw}; deeper levels stay raw. `isCanonicalLevel`
   * has checked every key parses to a known element and every value is an object, so the
   * `continue`s below are never taken.
   */
  #decodeLevel(): Level {
    const raw: Readonly<Record<string, unknown>> = this.#raw ?? {};
    const members = new Map<string, PathElement>();
    const children = new Map<string, ChildNode>();
    for (const key of Object.keys(raw)) {
      if (key === '.') continue;
      const parsed = parseFieldsV1Key(key);
      const value = raw[key];
      if (parsed === UNKNOWN_ELEMENT || !isJsonObject(value)) continue;
      const { pe } = parsed;
      const inner = Object.keys(value);
      if (inner.length === 0) {
        members.set(key, pe);
        continue;
      }
      const self = inner[inner.length - 1] === '.';
      if (self) members.set(key, pe);
      children.set(key, { pe, set: new FieldSet(undefined, undefined, value, self) });
    }
    this.#m = members;
    this.#c = children;
    return { members, children };
  }

  static readonly EMPTY = new FieldSet(new Map(), new Map());

  /** The `fieldsV1` to write, sharing the JSON it was read from when that is canonical. */
  encodeFieldsV1(): Readonly<Record<string, unknown>> {
    return this.#raw !== undefined && !this.#rawSelf ? this.#raw : this.#emit(false);
  }

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
    // A raw set is never empty: canonical `fieldsV1` of an empty set is read as EMPTY.
    if (this.#m === undefined) return false;
    return this.#m.size === 0 && this.#c?.size === 0;
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
    const [mSmall, mLarge] = bySize(this.#members, other.#members);
    for (const [k, pe] of mSmall) if (mLarge.has(k)) members.set(k, pe);
    const children = new Map<string, ChildNode>();
    const [cSmall, cLarge] = bySize(this.#children, other.#children);
    for (const [k, n] of cSmall) {
      const theirs = cLarge.get(k);
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
    const mine = this.#children;
    const members = withoutKeys(this.#members, other.#members);
    // The copy of this set's children, made on the first removal only.
    let copy = recursive ? withoutKeys(mine, other.#members) : undefined;
    for (const [k, theirs] of other.#children) {
      const child = (copy ?? mine).get(k);
      if (!child) continue;
      const set = child.set.#minus(theirs.set, recursive);
      if (set === child.set) continue;
      copy ??= new Map(mine);
      if (set.isEmpty()) copy.delete(k);
      else copy.set(k, { pe: child.pe, set });
    }
    if (members === undefined && copy === undefined) return this;
    return newFieldSet(members ?? this.#members, copy ?? mine);
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
    if (this.#raw !== undefined && this.#rawSelf === includeSelf) return this.#raw;
    const members = this.#members;
    const children = this.#children;
    const keys: string[] = [];
    // Field names only (most levels): their keys sort as plain strings, without a comparator.
    let onlyFields = true;
    for (const key of members.keys()) {
      keys.push(key);
      if (key.charCodeAt(0) !== F) onlyFields = false;
    }
    for (const key of children.keys()) {
      if (members.has(key)) continue;
      keys.push(key);
      if (key.charCodeAt(0) !== F) onlyFields = false;
    }
    if (keys.length > 1) {
      if (onlyFields) sortStrings(keys);
      else sortKeys(keys, members, children);
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const child = children.get(key);
      out[key] = child ? child.set.#emit(members.has(key)) : {};
    }
    if (includeSelf && keys.length > 0) out['.'] = {};
    return out;
  }

  /** Reads `fieldsV1`; throws with upstream's message on a malformed key or a non-object value. */
  static fromFieldsV1(json: unknown): FieldSet {
    if (json === null || json === undefined) return FieldSet.EMPTY;
    if (isJsonObject(json)) {
      const keys = Object.keys(json);
      if (keys.length === 0) return FieldSet.EMPTY;
      // The root is never a member, so it never has `"."`.
      if (keys[keys.length - 1] !== '.' && isCanonicalLevel(json, keys))
        return new FieldSet(undefined, undefined, json, false);
    }
    return readLevel(json).children ?? FieldSet.EMPTY;
  }

  /**
   * The set of one built level, taking its maps over (the caller must not change them again);
   * `FieldSetBuilder.build` freezes its trie through this.
   */
  static ofLevel(
    members: ReadonlyMap<string, PathElement>,
    children: ReadonlyMap<string, ChildNode>,
  ): FieldSet {
    return newFieldSet(members, children);
  }

  static {
    newFieldSet = (m, c) => (m.size === 0 && c.size === 0 ? FieldSet.EMPTY : new FieldSet(m, c));
  }
}

function bySize<T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>) {
  return a.size <= b.size ? ([a, b] as const) : ([b, a] as const);
}

/**
 * Byte order (as {@link compareStrings}) in place: insertion sort for the short levels that
 * are most of a set (Array.prototype.sort cost about 7 µs of a Deployment's 17 µs encode).
 */
function sortStrings(keys: string[]): void {
  const n = keys.length;
  if (n > 32) {
    keys.sort(compareStrings);
    return;
  }
  for (let i = 1; i < n; i++) {
    const k = keys[i];
    if (k === undefined) continue;
    let j = i - 1;
    while (j >= 0) {
      const prev = keys[j];
      if (prev === undefined || prev <= k) break;
      keys[j + 1] = prev;
      j--;
    }
    keys[j + 1] = k;
  }
}

/** Upstream order of a level's keys, by their elements. */
function sortKeys(
  keys: string[],
  members: ReadonlyMap<string, PathElement>,
  children: ReadonlyMap<string, ChildNode>,
): void {
  const entries: KeyedElement[] = [];
  for (const key of keys) {
    // Every key is a member's or a child's (the caller collected them from the two maps).
    const pe = members.get(key) ?? children.get(key)?.pe;
    if (pe !== undefined) entries.push({ key, pe });
  }
  entries.sort(compareKeyedElements);
  let i = 0;
  for (const e of entries) keys[i++] = e.key;
}

/** A copy of `m` without the keys of `drop`; `undefined` (no copy) when it has none of them. */
function withoutKeys<T>(
  m: ReadonlyMap<string, T>,
  drop: ReadonlyMap<string, unknown>,
): Map<string, T> | undefined {
  let out: Map<string, T> | undefined;
  for (const k of drop.keys()) {
    if (!m.has(k)) continue;
    out ??= new Map(m);
    out.delete(k);
  }
  return out;
}

function addChild(c: Map<string, ChildNode>, key: string, pe: PathElement, set: FieldSet): void {
  if (set.isEmpty()) return;
  const prev = c.get(key);
  c.set(key, { pe, set: prev ? prev.set.union(set) : set });
}

/** One step of a path being built: a field name, or a list element with its `fieldsV1` key. */

function readLevel(json: unknown): { children: FieldSet | undefined; isMember: boolean } {
  if (!isJsonObject(json)) {
    throw new Error('ReadMapCB: expect { or n, but found something else');
  }
  let isMember = false;
  const members = new Map<string, PathElement>();
  const children = new Map<string, ChildNode>();
  for (const [raw, value] of Object.entries(json)) {
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
    throw new Error(`parsing key as path element: ${errorMessage(e)}`);
  }
}
