/**
 * Read access to schema JSON exactly as a client sent it in a CRD: keys our {@link Schema} type
 * does not model (`id`, `patternProperties`, `definitions`…) must still be seen to be
 * rejected, and malformed values (a string where an object belongs) must not throw.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../../api/object.js';
import type { Schema } from '../../api/schema/types.js';

export type RawSchema = JsonObject;

export function asRaw(v: unknown): RawSchema | undefined {
  return isJsonObject(v) ? v : undefined;
}

export function str(s: RawSchema, key: string): string {
  const v = s[key];
  return typeof v === 'string' ? v : '';
}

export function bool(s: RawSchema, key: string): boolean {
  return s[key] === true;
}

/** `properties` (or another map of schemas) as entries with object values, sorted by key. */
export function schemaMap(s: RawSchema, key: string): [string, RawSchema][] {
  const m = s[key];
  if (!isJsonObject(m)) return [];
  return Object.keys(m)
    .sort()
    .flatMap((k): [string, RawSchema][] => {
      const v = asRaw(m[k]);
      return v ? [[k, v]] : [];
    });
}

export function schemaList(s: RawSchema, key: string): RawSchema[] {
  const l = s[key];
  return Array.isArray(l) ? l.flatMap((x) => (isJsonObject(x) ? [x] : [])) : [];
}

export function stringList(s: RawSchema, key: string): string[] {
  const l = s[key];
  return Array.isArray(l) ? l.filter((x): x is string => typeof x === 'string') : [];
}

/** The single `items` schema (undefined when absent or an array of schemas). */
export function itemsOf(s: RawSchema): RawSchema | undefined {
  return asRaw(s.items);
}

export function property(s: RawSchema | undefined, name: string): RawSchema | undefined {
  if (!s) return undefined;
  const props = s.properties;
  return isJsonObject(props) ? asRaw(props[name]) : undefined;
}

/** Go's `Default != nil` for a default decoded from JSON: `null` is no default. */
export function hasDefault(s: RawSchema): boolean {
  return s.default !== undefined && s.default !== null;
}

/** A raw schema as the typed {@link Schema} the validators read (they tolerate extra keys). */
export function typed(s: RawSchema): Schema {
  return s as Schema;
}

/** Keys NewStructural cannot represent (upstream `validateUnsupportedFields`), in its order. */
const UNSUPPORTED: readonly [string, (v: unknown) => boolean][] = [
  ['id', (v) => typeof v === 'string' && v !== ''],
  ['$schema', (v) => typeof v === 'string' && v !== ''],
  ['$ref', (v) => typeof v === 'string' && v !== ''],
  ['patternProperties', (v) => isJsonObject(v) && Object.keys(v).length > 0],
  ['dependencies', (v) => isJsonObject(v) && Object.keys(v).length > 0],
  ['additionalItems', (v) => v !== undefined && v !== null],
  ['definitions', (v) => isJsonObject(v) && Object.keys(v).length > 0],
];

/** Upstream `NewStructural`'s error for the first unsupported construct anywhere in `s`. */
export function structuralConversionError(s: RawSchema): string | undefined {
  for (const [key, present] of UNSUPPORTED) {
    if (present(s[key])) {
      const name = key === '$schema' ? 'schema' : key;
      return `OpenAPIV3Schema '${name}' is not supported`;
    }
  }
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  const children = [
    ...schemaMap(s, 'properties').map(([, v]) => v),
    ...schemaList(s, 'allOf'),
    ...schemaList(s, 'anyOf'),
    ...schemaList(s, 'oneOf'),
    ...[asRaw(s.not), asRaw(s.items), asRaw(s.additionalProperties)].filter(
      (x): x is RawSchema => x !== undefined,
    ),
  ];
  for (const c of children) {
    const e = structuralConversionError(c);
    if (e) return e;
  }
  return undefined;
}
