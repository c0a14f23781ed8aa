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
  type KeyField,
  keyElement,
  type PathElement,
  pathToString,
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
  constructor(path: FieldPath, message: string) {
    super(path.length > 0 ? `${pathToString(path)}: ${message}` : message);
    this.name = 'TypedValueError';
  }
}

export function isJsonMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class TypeResolver {
  readonly nav: SchemaNavigator;
  readonly root: Schema | undefined;

  constructor(root: Schema | undefined, nav: SchemaNavigator) {
    this.root = root;
    this.nav = nav;
  }

  shape(schema: Schema | undefined, value: unknown): Shape {
    if (Array.isArray(value)) {
      if (!schema) return { kind: 'list', listType: 'atomic', keys: [] };
      const sem = this.nav.listSemantics(schema);
      return { kind: 'list', listType: sem.listType, keys: sem.mapKeys };
    }
    if (isJsonMap(value)) return { kind: 'map', atomic: this.isAtomicMap(schema) };
    return { kind: 'scalar' };
  }

  isAtomicMap(schema: Schema | undefined): boolean {
    if (!schema) return false;
    return (
      (schema['x-kubernetes-map-type'] ?? this.nav.resolve(schema)?.['x-kubernetes-map-type']) ===
      'atomic'
    );
  }

  /** Whether `name` is a declared struct field (upstream `FindField`), not a map key. */
  isDeclared(schema: Schema | undefined, name: string, atRoot: boolean): boolean {
    if (atRoot && name === 'metadata') return true;
    return this.nav.resolve(schema)?.properties?.[name] !== undefined;
  }

  field(schema: Schema | undefined, name: string, atRoot: boolean): Schema | undefined {
    if (!schema) return undefined;
    const s = this.nav.property(schema, name);
    if (atRoot && name === 'metadata' && !this.nav.resolve(s)?.properties)
      return OBJECT_META_SCHEMA;
    return s;
  }

  items(schema: Schema | undefined): Schema | undefined {
    return schema ? this.nav.items(schema) : undefined;
  }

  /** The element naming list item `index` (upstream `listItemToPathElement`). */
  itemElement(
    shape: Extract<Shape, { kind: 'list' }>,
    listSchema: Schema | undefined,
    item: unknown,
    index: number,
    path: FieldPath,
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

function setElement(item: unknown, path: FieldPath): PathElement {
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
  return isJsonMap(v) && Object.keys(v).length === 0;
}
