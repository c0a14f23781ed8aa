/**
 * JSON values as CEL values, guided by the schema, after upstream `UnstructuredToVal`: integers
 * become `bigint`, `number`s stay doubles, objects become null-prototype records keyed by
 * escaped field names (null fields are absent, so `has()` is false for them), maps keep their
 * keys, `byte` strings become bytes, `date-time` strings timestamps and `duration` strings
 * durations. Values that do not fit their schema pass through unchanged; the evaluator then
 * reports a type error for the rule instead of the conversion throwing.
 *
 * @module
 */
import { Duration } from '@marcbachmann/cel-js/evaluator';
import type { Schema } from '../schema/types.js';
import { mapValueSchema, objectFields, viewOf } from './decl-schema.js';
import { parseGoDuration } from './library/go-duration.js';

export type CelRecord = Record<string, unknown>;

/** The CEL value of `value` at a node with `schema`. */
export function toCelValue(value: unknown, schema: Schema, isResourceRoot = false): unknown {
  if (value === null || value === undefined) return null;
  if (schema['x-kubernetes-int-or-string']) return untypedValue(value);
  switch (schema.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'string':
      return typeof value === 'string' ? stringValue(value, schema.format) : value;
    case 'array':
      return Array.isArray(value) ? arrayValue(value, schema.items) : value;
    case 'object':
      return isPlainObject(value) ? objectValue(value, viewOf(schema, isResourceRoot)) : value;
    case 'number':
    case 'boolean':
      return value;
    default:
      return untypedValue(value);
  }
}

function arrayValue(items: readonly unknown[], itemSchema: Schema | undefined): unknown[] {
  if (!itemSchema) return items.map(untypedValue);
  const embedded = itemSchema['x-kubernetes-embedded-resource'] === true;
  return items.map((v) => toCelValue(v, itemSchema, embedded));
}

function objectValue(obj: Readonly<CelRecord>, view: Schema): CelRecord {
  const out: CelRecord = Object.create(null);
  const values = mapValueSchema(view);
  if (values) {
    const embedded = values['x-kubernetes-embedded-resource'] === true;
    for (const [k, v] of Object.entries(obj)) {
      if (v !== null && v !== undefined) out[k] = toCelValue(v, values, embedded);
    }
    return out;
  }
  for (const [escaped, field] of objectFields(view)) {
    const v = obj[field.name];
    if (v === null || v === undefined) continue;
    out[escaped] = toCelValue(v, field.schema, field.schema['x-kubernetes-embedded-resource']);
  }
  return out;
}

function stringValue(s: string, format: string | undefined): unknown {
  switch (format) {
    case 'byte':
      return Buffer.from(s, 'base64');
    case 'date':
    case 'date-time': {
      const d = new Date(s);
      return Number.isNaN(d.getTime()) ? s : d;
    }
    case 'duration': {
      const d = parseGoDuration(s);
      return d === undefined ? s : new Duration(d.seconds, d.nanos);
    }
    default:
      return s;
  }
}

/** A value with no schema (int-or-string, preserved unknown fields): integers become ints. */
export function untypedValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(untypedValue);
  if (isPlainObject(value)) {
    const out: CelRecord = Object.create(null);
    for (const [k, v] of Object.entries(value))
      if (v !== null && v !== undefined) out[k] = untypedValue(v);
    return out;
  }
  return value;
}

export function isPlainObject(v: unknown): v is CelRecord {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
