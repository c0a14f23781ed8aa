/**
 * Test helper: encodes a JSON object to protobuf by the schema tables the way Go's gogo
 * marshalers do (fields in number order, every non-pointer field written even when zero,
 * pointer fields only when set). Decoding its output must give the object back.
 *
 * @module
 */
import { messageSpec } from '../registry.js';
import type { FieldSpec, MessageName, ScalarType, SpecialType } from '../schema.js';
import { goFields } from './json-forms-inverse.js';
import { fBytes, fDouble, fVarint } from './wire-writer.js';

type JsonObject = Record<string, unknown>;

function seconds(iso: string): { seconds: number; nanos: number } {
  const m = /^(.*?)(?:\.(\d+))?Z$/.exec(iso);
  if (m === null) throw new Error(`bad time ${iso}`);
  const ms = Date.parse(`${m[1]}Z`);
  return { seconds: Math.floor(ms / 1000), nanos: Number((m[2] ?? '').padEnd(9, '0')) };
}

function encodeSpecial(type: SpecialType, value: unknown): Buffer {
  switch (type) {
    case 'Time':
    case 'MicroTime': {
      if (value === null || value === undefined) return Buffer.alloc(0);
      const t = seconds(value as string);
      return Buffer.concat([fVarint(1, t.seconds), fVarint(2, type === 'Time' ? 0 : t.nanos)]);
    }
    case 'IntOrString': {
      const isString = typeof value === 'string';
      return Buffer.concat([
        fVarint(1, isString ? 1 : 0),
        fVarint(2, isString ? 0 : ((value as number | undefined) ?? 0)),
        fBytes(3, isString ? value : ''),
      ]);
    }
    case 'Quantity':
      return value === undefined ? Buffer.alloc(0) : fBytes(1, value as string);
    case 'FieldsV1':
    case 'RawExtension':
    case 'JSON':
      return value === null || value === undefined
        ? Buffer.alloc(0)
        : fBytes(1, JSON.stringify(value));
  }
}

function encodeScalar(no: number, type: ScalarType, value: unknown): Buffer {
  if (type === 'string') return fBytes(no, (value as string | undefined) ?? '');
  if (type === 'double') return fDouble(no, (value as number | undefined) ?? 0);
  if (type === 'bytes')
    return fBytes(no, Buffer.from((value as string | undefined) ?? '', 'base64'));
  return fVarint(no, (value as number | boolean | undefined) ?? 0);
}

function encodeValue(field: FieldSpec, value: unknown): Buffer {
  if (field.kind === 'special') return encodeSpecial(field.type as SpecialType, value);
  const name = field.type as MessageName;
  return encodeMessage(name, goFields(name, value));
}

function encodeField(field: FieldSpec, obj: JsonObject): Buffer[] {
  const value = obj[field.json];
  const present = value !== undefined && value !== null;
  if (field.inline) return [fBytes(field.no, encodeMessage(field.type as MessageName, obj))];
  if (field.map) {
    const entries = Object.entries((value ?? {}) as JsonObject);
    return entries.map(([k, v]) => {
      const encoded =
        field.kind === 'scalar'
          ? encodeScalar(2, field.type as ScalarType, v)
          : fBytes(2, encodeValue(field, v));
      return fBytes(field.no, [fBytes(1, k), encoded]);
    });
  }
  if (field.repeated) {
    return ((value ?? []) as unknown[]).map((v) =>
      field.kind === 'scalar'
        ? encodeScalar(field.no, field.type as ScalarType, v)
        : fBytes(field.no, encodeValue(field, v)),
    );
  }
  if (field.pointer && !present) return [];
  if (field.kind === 'scalar') {
    // A nil []byte is not written; an empty one is.
    if (field.type === 'bytes' && !present) return [];
    return [encodeScalar(field.no, field.type as ScalarType, value)];
  }
  return [fBytes(field.no, encodeValue(field, value))];
}

/** Encodes one message's fields from a JSON object. */
export function encodeMessage(name: MessageName, obj: JsonObject): Buffer {
  const fields = [...messageSpec(name).fields].sort((a, b) => a.no - b.no);
  return Buffer.concat(fields.flatMap((field) => encodeField(field, obj)));
}
