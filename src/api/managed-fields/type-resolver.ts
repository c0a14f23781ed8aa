/**
 * How server-side apply sees a value: a scalar leaf, a map (granular or atomic, with declared
 * struct fields), or a list (`atomic`, `set` or `map` keyed by fields), read from the schema
 * through {@link SchemaNavigator}. A value the schema does not describe is "deduced" as upstream
 * does for unknown fields: maps granular with every key undeclared, lists atomic.
 *
 * CRD schemas say little about `metadata`, so at the root a `metadata` schema without
 * properties is replaced by the ObjectMeta semantics upstream merges in (labels and annotations
 * granular maps, finalizers a set, ownerReferences a map keyed by uid).
 *
 * @module
 */
import type { SchemaNavigator } from '../schema/navigator.js';
import type { Schema } from '../schema/types.js';
import {
  type FieldPath,
  indexElement,
  type KeyedElement,
  type KeyField,
  keyElement,
  keyedField,
  type PathElement,
  pathToString,
  serializePathElement,
  valueElement,
} from './path-element.js';

const STRING: Schema = { type: 'string' };
const STRING_MAP: Schema = { type: 'object', additionalProperties: STRING };

/** ObjectMeta list and map semantics (upstream `+listType`/`+structType` markers). */
export const OBJECT_META_SCHEMA: Schema = {
  type: 'object',
  properties: {
    name: STRING,
    generateName: STRING,
    namespace: STRING,
    selfLink: STRING,
    uid: STRING,
    resourceVersion: STRING,
    generation: { type: 'integer' },
    creationTimestamp: STRING,
    deletionTimestamp: STRING,
    deletionGracePeriodSeconds: { type: 'integer' },
    labels: STRING_MAP,
    annotations: STRING_MAP,
    ownerReferences: {
      type: 'array',
      items: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
    },
    finalizers: { type: 'array', items: STRING, 'x-kubernetes-list-type': 'set' },
    managedFields: { type: 'array', items: { type: 'object' } },
  },
};

export type Shape =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'map'; readonly atomic: boolean }
  | {
      readonly kind: 'list';
      readonly listType: 'atomic' | 'set' | 'map';
      readonly keys: readonly string[];
    };

/** A value that cannot be typed (upstream `ValidationErrors` from typed conversion). */
export class TypedValueError extends Error {
  constructor(at: FieldPath | (() => FieldPath), message: string) {
    const path = typeof at === 'function' ? at() : at;
    super(path.length > 0 ? `${pathToString(path)}: ${message}` : message);
    this.name = 'TypedValueError';
  }
}

export function isJsonMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type ListShape = Extract<Shape, { kind: 'list' }>;

const SCALAR: Shape = { kind: 'scalar' };
const ATOMIC_MAP: Shape = { kind: 'map', atomic: true };
const GRANULAR_MAP: Shape = { kind: 'map', atomic: false };
const ATOMIC_LIST: ListShape = { kind: 'list', listType: 'atomic', keys: [] };

/**
 * What the resolver needs from one schema node, computed once: a write walks the same few
 * hundred nodes of a kind's schema on every request, and resolving `$ref`s and list semantics
 * each time was most of the cost. Schemas are treated as immutable (they are shared, parsed
 * component documents and CRD schemas).
 */
interface NodeInfo {
  readonly resolved: Schema | undefined;
  readonly properties: Readonly<Record<string, Schema>> | undefined;
  /** The schema of an undeclared field (additionalProperties, or `{}` when unknown fields are kept). */
  readonly extra: Schema | undefined;
  readonly atomicMap: boolean;
  readonly items: Schema | undefined;
  listShape: ListShape | undefined;
}

/**
 * A schema as a walk visits it: its facts and, kept on the node, the nodes of its fields and
 * items, so a walk steps from node to node instead of looking every schema up again. Nodes are
 * per navigator (like {@link NodeInfo}) and never change once built, except for filling caches.
 */
export interface SchemaNode {
  readonly schema: Schema | undefined;
  readonly atomicMap: boolean;
  /** Field nodes by name (bounded: map keys are unbounded and all share one schema). */
  readonly fields: Map<string, FieldStep>;
  items: SchemaNode | undefined;
  listShape: ListShape | undefined;
}

/** A field's node and its path element (a `PathStep` for the set builders). */
export interface FieldStep extends KeyedElement {
  readonly node: SchemaNode;
}

/** The node of no schema: everything below it is untyped too. */
const UNTYPED_NODE: SchemaNode = {
  schema: undefined,
  atomicMap: false,
  fields: new Map(),
  items: undefined,
  listShape: ATOMIC_LIST,
};
const FIELD_NODES_LIMIT = 1000;
const nodeCaches = new WeakMap<SchemaNavigator, WeakMap<Schema, SchemaNode>>();

/**
 * Interned list item elements with one primitive key value (`k:{"name":"web"}`) or a primitive
 * set value (`v:"a"`): a write names every item of every list on both sides, and building the
 * key text each time was a large share of a walk. Bounded like the path-element tables.
 */
const ITEM_INTERN_LIMIT = 20_000;
let internedItems = 0;
/** Per key-field list: nested maps, one level per key field's value, then the element. */
type KeyTrie = Map<string | number | boolean, KeyTrie | KeyedElement>;
const byKeyValues = new Map<string, KeyTrie>();
const bySetValue = new Map<string | number | boolean, KeyedElement>();

function isInternable(v: unknown): v is string | number | boolean {
  return (
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0))
  );
}

/** The element of an item whose key fields all hold primitives; `undefined` otherwise. */
function internedKeyElement(
  keys: readonly string[],
  item: Record<string, unknown>,
): KeyedElement | undefined {
  const first = keys[0];
  const lastKey = keys[keys.length - 1];
  if (first === undefined || lastKey === undefined) return undefined;
  const sig = keys.length === 1 ? first : keys.join('\u0000');
  let node: KeyTrie | undefined = byKeyValues.get(sig);
  if (node === undefined) {
    node = new Map();
    byKeyValues.set(sig, node);
  }
  // Every key but the last is a level of maps (one trie per key list: levels never mix).
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i];
    const v = key === undefined ? undefined : item[key];
    if (!isInternable(v)) return undefined;
    const hit: KeyTrie | KeyedElement | undefined = node.get(v);
    let next: KeyTrie | undefined = hit instanceof Map ? hit : undefined;
    if (next === undefined) {
      if (internedItems >= ITEM_INTERN_LIMIT) return undefined;
      next = new Map();
      node.set(v, next);
    }
    node = next;
  }
  const v = item[lastKey];
  if (!isInternable(v)) return undefined;
  return intern(node, v, () => keyElement(keys.map((k): KeyField => [k, item[k]])));
}

/** The interned element of `k` in `table` (a trie's last level, or the set values). */
function intern<K>(
  table: Map<K, KeyedElement | KeyTrie>,
  k: K,
  make: () => PathElement,
): KeyedElement {
  const hit = table.get(k);
  if (hit !== undefined && !(hit instanceof Map)) return hit;
  const pe = make();
  const e = { key: serializePathElement(pe), pe };
  if (internedItems < ITEM_INTERN_LIMIT) {
    table.set(k, e);
    internedItems++;
  }
  return e;
}

const ANYTHING: Schema = {};
const caches = new WeakMap<SchemaNavigator, WeakMap<Schema, NodeInfo>>();

function cacheOf(nav: SchemaNavigator): WeakMap<Schema, NodeInfo> {
  let c = caches.get(nav);
  if (!c) {
    c = new WeakMap();
    caches.set(nav, c);
  }
  return c;
}

/** `SchemaNavigator.property`'s fallback for a name the schema does not declare. */
function extraOf(s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  const extra = s.additionalProperties;
  if (extra === true) return ANYTHING;
  if (extra && typeof extra === 'object') return extra;
  if (s['x-kubernetes-preserve-unknown-fields']) return ANYTHING;
  return undefined;
}

export class TypeResolver {
  readonly nav: SchemaNavigator;
  readonly root: Schema | undefined;
  readonly #cache: WeakMap<Schema, NodeInfo>;

  readonly #nodes: WeakMap<Schema, SchemaNode>;

  constructor(root: Schema | undefined, nav: SchemaNavigator) {
    this.root = root;
    this.nav = nav;
    this.#cache = cacheOf(nav);
    let nodes = nodeCaches.get(nav);
    if (!nodes) {
      nodes = new WeakMap();
      nodeCaches.set(nav, nodes);
    }
    this.#nodes = nodes;
  }

  /** The node of `schema` (shared by every resolver of the same navigator). */
  node(schema: Schema | undefined): SchemaNode {
    if (!schema) return UNTYPED_NODE;
    let n = this.#nodes.get(schema);
    if (!n) {
      n = {
        schema,
        atomicMap: this.#info(schema).atomicMap,
        fields: new Map(),
        items: undefined,
        listShape: undefined,
      };
      this.#nodes.set(schema, n);
    }
    return n;
  }

  /** {@link field} as a node; `metadata` at the root is resolved each time (it may be replaced). */
  fieldNode(parent: SchemaNode, name: string, atRoot: boolean): SchemaNode {
    return this.fieldStep(parent, name, atRoot).node;
  }

  /** {@link fieldNode} with the field's path element, both from one lookup. */
  fieldStep(parent: SchemaNode, name: string, atRoot: boolean): FieldStep {
    let f = parent.fields.get(name);
    if (f === undefined || (atRoot && name === 'metadata')) {
      const node =
        parent === UNTYPED_NODE ? UNTYPED_NODE : this.node(this.field(parent.schema, name, atRoot));
      const e = keyedField(name);
      f = { node, key: e.key, pe: e.pe };
      // The root's `metadata` is not kept: the same node may be a root in one walk, not another.
      if (!(atRoot && name === 'metadata') && parent.fields.size < FIELD_NODES_LIMIT)
        parent.fields.set(name, f);
    }
    return f;
  }

  itemsNode(parent: SchemaNode): SchemaNode {
    if (parent.items === undefined) parent.items = this.node(this.items(parent.schema));
    return parent.items;
  }

  /** {@link shape} from a node. */
  nodeShape(node: SchemaNode, value: unknown): Shape {
    if (Array.isArray(value)) return this.nodeListShape(node);
    if (isJsonMap(value)) return node.atomicMap ? ATOMIC_MAP : GRANULAR_MAP;
    return SCALAR;
  }

  /** {@link nodeShape} of a list at `node` (of no schema: atomic, as {@link shape}). */
  nodeListShape(node: SchemaNode): ListShape {
    if (node.listShape === undefined)
      node.listShape = node.schema ? this.#listShape(node.schema) : ATOMIC_LIST;
    return node.listShape;
  }

  /** {@link itemElement} with its `fieldsV1` key; primitive keys and set values are interned. */
  itemKeyed(
    shape: Extract<Shape, { kind: 'list' }>,
    listSchema: Schema | undefined,
    item: unknown,
    index: number,
    path: FieldPath | (() => FieldPath),
  ): KeyedElement {
    if (shape.listType === 'map' && shape.keys.length > 0 && isJsonMap(item)) {
      const hit = internedKeyElement(shape.keys, item);
      if (hit !== undefined) return hit;
    } else if (
      (shape.listType === 'set' || (shape.listType === 'map' && shape.keys.length === 0)) &&
      isInternable(item)
    ) {
      return intern(bySetValue, item, () => valueElement(item));
    }
    const pe = this.itemElement(shape, listSchema, item, index, path);
    return { key: serializePathElement(pe), pe };
  }

  #info(schema: Schema): NodeInfo {
    let info = this.#cache.get(schema);
    if (info) return info;
    const resolved = this.nav.resolve(schema);
    info = {
      resolved,
      properties: resolved?.properties,
      extra: extraOf(resolved),
      atomicMap:
        (schema['x-kubernetes-map-type'] ?? resolved?.['x-kubernetes-map-type']) === 'atomic',
      items: resolved?.items,
      listShape: undefined,
    };
    this.#cache.set(schema, info);
    return info;
  }

  #listShape(schema: Schema): ListShape {
    const info = this.#info(schema);
    if (!info.listShape) {
      const sem = this.nav.listSemantics(schema);
      info.listShape = { kind: 'list', listType: sem.listType, keys: sem.mapKeys };
    }
    return info.listShape;
  }

  /** The shape of `value` under `schema`; shapes are shared and must not be changed. */
  shape(schema: Schema | undefined, value: unknown): Shape {
    if (Array.isArray(value)) return schema ? this.#listShape(schema) : ATOMIC_LIST;
    if (isJsonMap(value)) return schema && this.#info(schema).atomicMap ? ATOMIC_MAP : GRANULAR_MAP;
    return SCALAR;
  }

  isAtomicMap(schema: Schema | undefined): boolean {
    return schema ? this.#info(schema).atomicMap : false;
  }

  /** Whether `name` is a declared struct field (upstream `FindField`), not a map key. */
  isDeclared(schema: Schema | undefined, name: string, atRoot: boolean): boolean {
    if (atRoot && name === 'metadata') return true;
    if (!schema) return false;
    return this.#info(schema).properties?.[name] !== undefined;
  }

  field(schema: Schema | undefined, name: string, atRoot: boolean): Schema | undefined {
    if (!schema) return undefined;
    const info = this.#info(schema);
    const s = info.properties?.[name] || info.extra;
    if (atRoot && name === 'metadata' && !this.#resolvedProperties(s)) return OBJECT_META_SCHEMA;
    return s;
  }

  #resolvedProperties(schema: Schema | undefined): unknown {
    return schema ? this.#info(schema).properties : undefined;
  }

  items(schema: Schema | undefined): Schema | undefined {
    return schema ? this.#info(schema).items : undefined;
  }

  /** The element naming list item `index` (upstream `listItemToPathElement`). */
  itemElement(
    shape: Extract<Shape, { kind: 'list' }>,
    listSchema: Schema | undefined,
    item: unknown,
    index: number,
    path: FieldPath | (() => FieldPath),
  ): PathElement {
    if (shape.listType === 'atomic') return indexElement(index);
    if (shape.listType === 'set' || shape.keys.length === 0) return setElement(item, path);
    if (item === null) {
      throw new TypedValueError(
        path,
        `element ${index}: associative list with keys may not have a null element`,
      );
    }
    if (!isJsonMap(item)) {
      throw new TypedValueError(
        path,
        `element ${index}: associative list with keys may not have non-map elements`,
      );
    }
    const itemSchema = this.items(listSchema);
    const fields: KeyField[] = shape.keys.map((k) => {
      if (item[k] !== undefined) return [k, item[k]];
      const def = this.nav.property(itemSchema, k)?.default;
      if (def !== undefined) return [k, def];
      throw new TypedValueError(
        path,
        `element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`,
      );
    });
    return keyElement(fields);
  }
}

function setElement(item: unknown, path: FieldPath | (() => FieldPath)): PathElement {
  if (isJsonMap(item)) {
    throw new TypedValueError(
      path,
      "associative list without keys has an element that's a map type",
    );
  }
  if (Array.isArray(item)) {
    throw new TypedValueError(path, 'not supported: associative list with lists as elements');
  }
  return valueElement(item);
}

/** Both containers empty or absent: upstream treats them as one leaf (keeps `{}` vs null). */
export function isEmptyContainer(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (!isJsonMap(v)) return false;
  // Same as `Object.keys(v).length === 0` without building the array (called on every map).
  for (const k in v) if (Object.hasOwn(v, k)) return false;
  return true;
}
