/**
 * How a structural schema node looks to CEL, after upstream `SchemaDeclType`: which nodes rules
 * can see, the CEL type a node is declared with, and the fields of objects. Objects become
 * `map<string, dyn>` for the type checker (the field-level checks live in `field-check.ts`);
 * `int-or-string` is `dyn`; `format: byte` is `bytes`, `date`/`date-time` are timestamps and
 * `duration` is a duration. Resource roots (the custom resource, embedded resources) always
 * expose `apiVersion`, `kind`, `metadata.name` and `metadata.generateName`, and nothing else of
 * `metadata`.
 *
 * @module
 */
import type { Schema } from '../schema/types.js';
import { escapeProperty } from './escaping.js';

export const TIMESTAMP_TYPE = 'google.protobuf.Timestamp';
export const DURATION_TYPE = 'google.protobuf.Duration';

const STRING_SCHEMA: Schema = { type: 'string' };
const OBJECT_META_SCHEMA: Schema = {
  type: 'object',
  properties: { name: STRING_SCHEMA, generateName: STRING_SCHEMA },
};

/** The schema a resource root is seen through: upstream `WithTypeAndObjectMeta`. */
export function withTypeAndObjectMeta(schema: Schema): Schema {
  const p = schema.properties;
  const meta = p?.metadata;
  const complete =
    p?.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.name?.type === 'string' &&
    meta.properties.generateName?.type === 'string';
  if (complete) return schema;
  return {
    ...schema,
    properties: {
      ...p,
      kind: STRING_SCHEMA,
      apiVersion: STRING_SCHEMA,
      metadata: OBJECT_META_SCHEMA,
    },
  };
}

/** The schema a node is seen through (resource roots gain type and object meta). */
export function viewOf(schema: Schema, isResourceRoot: boolean): Schema {
  return isResourceRoot && !schema['x-kubernetes-int-or-string'] && schema.type === 'object'
    ? withTypeAndObjectMeta(schema)
    : schema;
}

/** The value schema of a map (`additionalProperties` with a schema), if the node is one. */
export function mapValueSchema(schema: Schema): Schema | undefined {
  const ap = schema.additionalProperties;
  return ap && typeof ap === 'object' ? ap : undefined;
}

function isEmbedded(schema: Schema): boolean {
  return schema['x-kubernetes-embedded-resource'] === true;
}

/**
 * The CEL type name a node is declared with, or `undefined` when rules cannot see the node
 * (no type, or a list or map of invisible things).
 */
export function celTypeOf(schema: Schema): string | undefined {
  if (schema['x-kubernetes-int-or-string']) return 'dyn';
  switch (schema.type) {
    case 'array': {
      const items = schema.items;
      const t = items ? celTypeOf(items) : undefined;
      return t === undefined ? undefined : `list<${t}>`;
    }
    case 'object': {
      const values = mapValueSchema(schema);
      if (values) {
        const t = celTypeOf(values);
        return t === undefined ? undefined : `map<string, ${t}>`;
      }
      return 'map<string, dyn>';
    }
    case 'string':
      return stringTypeOf(schema.format);
    case 'boolean':
      return 'bool';
    case 'number':
      return 'double';
    case 'integer':
      return 'int';
    default:
      return undefined;
  }
}

function stringTypeOf(format: string | undefined): string {
  switch (format) {
    case 'byte':
      return 'bytes';
    case 'duration':
      return DURATION_TYPE;
    case 'date':
    case 'date-time':
      return TIMESTAMP_TYPE;
    default:
      return 'string';
  }
}

/** One property as CEL sees it. */
export interface CelField {
  readonly name: string;
  readonly schema: Schema;
}

/**
 * The visible fields of an object node (not a map), by escaped CEL name. Properties whose
 * names cannot be escaped or whose schemas are invisible are left out, as upstream does.
 */
export function objectFields(view: Schema): ReadonlyMap<string, CelField> {
  const out = new Map<string, CelField>();
  if (mapValueSchema(view)) return out;
  for (const [name, prop] of Object.entries(view.properties ?? {})) {
    const escaped = escapeProperty(name);
    if (escaped === undefined || celTypeOf(prop) === undefined) continue;
    out.set(escaped, { name, schema: prop });
  }
  return out;
}

/** Whether a node is a resource root: the top of a custom resource or an embedded resource. */
export function isResourceRootSchema(schema: Schema, atTop: boolean): boolean {
  return atTop || isEmbedded(schema);
}
