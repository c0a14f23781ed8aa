/**
 * One step of a field path, as structured-merge-diff's `fieldpath.PathElement`: a struct or map
 * field (`f:name`), a `map` list element by its keys (`k:{"name":"c"}`), a `set` list element by
 * its value (`v:"a"`), or an atomic list element by index (`i:0`). The serialized form is the
 * key used in `fieldsV1`; the order below is the order those keys are written in.
 *
 * @module
 */
import { isJsonObject } from '../object.js';
import { compareStrings, compareValues, goJson, goJsonString, valueToString } from './go-json.js';

export type KeyField = readonly [name: string, value: unknown];

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'index'; readonly index: number };

export type FieldPath = readonly PathElement[];

export function fieldElement(name: string): PathElement {
  return { kind: 'field', name };
}

/** A key element; fields are sorted by name, as upstream stores them. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareStrings(a[0], b[0])) };
}

export function valueElement(value: unknown): PathElement {
  return { kind: 'value', value };
}

export function indexElement(index: number): PathElement {
  return { kind: 'index', index };
}

const KIND_RANK = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Upstream `PathElement.Compare`: fields first (by name), then keys, values, indices. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_RANK[a.kind] < KIND_RANK[b.kind] ? -1 : 1;
  // Both of one kind: the test of `b.kind` in each case narrows `b` too (it never fails).
  switch (a.kind) {
    case 'field':
      return b.kind === 'field' ? compareStrings(a.name, b.name) : 0;
    case 'key':
      return b.kind === 'key' ? compareKeyFields(a.fields, b.fields) : 0;
    case 'value':
      return b.kind === 'value' ? compareValues(a.value, b.value) : 0;
    case 'index':
      return b.kind === 'index' ? Math.sign(a.index - b.index) : 0;
  }
}

function compareKeyFields(a: readonly KeyField[], b: readonly KeyField[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const fa = a[i];
    const fb = b[i];
    if (fa === undefined || fb === undefined) break;
    const c = compareStrings(fa[0], fb[0]) || compareValues(fa[1], fb[1]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/** The `fieldsV1` key of an element. */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map(([n, v]) => `${goJsonString(n)}:${goJson(v)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

/** A path element with its `fieldsV1` key. */
export interface KeyedElement {
  readonly key: string;
  readonly pe: PathElement;
}

/**
 * Upstream order of `fieldsV1` keys by their elements; field names (most keys) compare as
 * their `f:` keys, without the switch.
 */
export function compareKeyedElements(a: KeyedElement, b: KeyedElement): number {
  if (a.pe.kind === 'field' && b.pe.kind === 'field') return compareStrings(a.key, b.key);
  return comparePathElements(a.pe, b.pe);
}

/**
 * Interned elements: the same few hundred field names and list keys recur on every write of a
 * kind, and building `f:name` strings (then hashing them as map keys) or re-parsing `k:{…}` keys
 * was a large share of a write. Elements are immutable, so one instance serves every set. The
 * tables stop growing at a bound, because map keys (labels, ConfigMap data) are unbounded.
 */
const INTERN_LIMIT = 20_000;
const byFieldName = new Map<string, KeyedElement>();
const byRawKey = new Map<string, KeyedElement | typeof UNKNOWN_ELEMENT>();

/** The field element of `name` with its key. */
export function keyedField(name: string): KeyedElement {
  let e = byFieldName.get(name);
  if (e === undefined) {
    e = { key: `f:${name}`, pe: fieldElement(name) };
    if (byFieldName.size < INTERN_LIMIT) byFieldName.set(name, e);
  }
  return e;
}

/**
 * A `fieldsV1` key parsed, with its normalized form (key fields sorted, numbers as Go writes
 * them); throws as {@link deserializePathElement} does.
 */
export function parseFieldsV1Key(raw: string): KeyedElement | typeof UNKNOWN_ELEMENT {
  let e = byRawKey.get(raw);
  if (e === undefined) {
    const pe = deserializePathElement(raw);
    e = pe === UNKNOWN_ELEMENT ? pe : { key: serializePathElement(pe), pe };
    if (byRawKey.size < INTERN_LIMIT) byRawKey.set(raw, e);
  }
  return e;
}

/** Marks a key with a type letter structured-merge-diff does not know: upstream skips those. */
export const UNKNOWN_ELEMENT = Symbol('unknownPathElement');

/** Parses a `fieldsV1` key; throws with upstream's message when it is malformed. */
export function deserializePathElement(s: string): PathElement | typeof UNKNOWN_ELEMENT {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(body);
    case 'v':
      return valueElement(JSON.parse(body));
    case 'k':
      return keyElement(parseKeyObject(body));
    case 'i':
      if (!/^[+-]?\d+$/.test(body))
        throw new Error(`strconv.Atoi: parsing ${goJsonString(body)}: invalid syntax`);
      return indexElement(Number.parseInt(body, 10));
    default:
      return UNKNOWN_ELEMENT;
  }
}

function parseKeyObject(body: string): KeyField[] {
  const parsed: unknown = JSON.parse(body);
  if (!isJsonObject(parsed)) {
    throw new Error('ReadObjectCB: expect { or n, but found something else');
  }
  return Object.entries(parsed);
}

/** Upstream `PathElement.String()`: `.name`, `[name="c"]`, `[=v]`, `[0]`. */
export function pathElementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([n, v]) => `${n}=${valueToString(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** Upstream `Path.String()`: the elements concatenated, e.g. `.spec.containers[name="c"].image`. */
export function pathToString(path: FieldPath): string {
  return path.map(pathElementToString).join('');
}
