/**
 * Decodes one message by its schema table into the JSON object Go's `encoding/json` would
 * produce for the same Go value: what a JSON client (kubectl 1.31, say) sends for the object.
 *
 * Go semantics kept here (the flags are described in `schema.ts`):
 * - non-pointer scalars are on the wire even when zero; `omitempty` drops zero values;
 * - pointer scalars and structs are on the wire only when set; a set zero is kept;
 * - non-pointer structs always appear (`omitempty` never drops a struct), as `{}` when empty;
 * - nil slices and maps are dropped with `omitempty`, else `null`; map keys are sorted;
 * - a singular message field that occurs more than once is merged, as protobuf merges it.
 *
 * @module
 */
import { MAX_OBJECT_DEPTH, objectDepthError } from '../json-depth.js';
import { ProtobufDecodeError } from './errors.js';
import { jsonForm } from './json-forms.js';
import { messageSpec } from './registry.js';
import type {
  FieldSpec,
  MessageName,
  MessageSpec,
  ScalarFieldSpec,
  ScalarType,
  StructFieldSpec,
} from './schema.js';
import { decodeSpecial, type NestedDecoder } from './special.js';
import {
  isZeroField,
  readFields,
  readPackedVarints,
  toInt32,
  toInt64,
  WIRE_BYTES,
  WIRE_FIXED64,
  WIRE_VARINT,
  type WireField,
} from './wire.js';

type JsonObject = Record<string, unknown>;

const EMPTY = Buffer.alloc(0);
const NONE: readonly WireField[] = Object.freeze([]);

/**
 * State shared through one decode: the nested-object decoder for `RawExtension`s, and how
 * many messages deep the decode is. apiextensions' JSONSchemaProps nests itself (`not`,
 * `items`, `properties`…), a few bytes a level, so a body could otherwise recurse past V8's
 * stack; the JSON it decodes to is at least as deep, and the server refuses JSON past
 * {@link MAX_OBJECT_DEPTH} levels anyway (`src/api/json-depth.ts`).
 */
export interface DecodeContext {
  readonly nested: NestedDecoder;
  depth: number;
}

function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function where(path: string): string {
  return path === '' ? 'the top level' : path;
}

/** Wire types a field accepts: varint scalars may also come packed when repeated. */
function checkWireType(message: MessageName, field: FieldSpec, f: WireField, path: string): void {
  const varint =
    field.kind === 'scalar' &&
    field.type !== 'string' &&
    field.type !== 'bytes' &&
    field.type !== 'double';
  const ok =
    field.type === 'double'
      ? f.wireType === WIRE_FIXED64
      : varint && !field.map
        ? f.wireType === WIRE_VARINT || (field.repeated && f.wireType === WIRE_BYTES)
        : f.wireType === WIRE_BYTES;
  if (!ok) {
    throw new ProtobufDecodeError(
      `wrong wire type ${f.wireType} for ${message} field ${field.no} (${child(path, field.json)})`,
    );
  }
}

/** Groups a message's wire fields by schema field index; unknown fields must be zero. */
function collect(spec: MessageSpec, payload: Buffer, path: string): (WireField[] | undefined)[] {
  const seen: (WireField[] | undefined)[] = new Array(spec.fields.length);
  for (const f of readFields(payload)) {
    const field = spec.byNumber.get(f.no);
    if (field === undefined) {
      if (isZeroField(f)) continue;
      throw new ProtobufDecodeError(
        `field ${f.no} of ${spec.name} at ${where(path)} is not known to this server`,
      );
    }
    checkWireType(spec.name, field, f, path);
    const list = seen[field.index];
    if (list === undefined) seen[field.index] = [f];
    else list.push(f);
  }
  return seen;
}

function scalarValue(type: ScalarType, f: WireField | bigint, path: string): unknown {
  if (typeof f !== 'bigint' && (type === 'string' || type === 'bytes')) {
    return type === 'string' ? f.bytes.toString('utf8') : f.bytes.toString('base64');
  }
  if (typeof f !== 'bigint' && type === 'double') return doubleValue(f.bytes, path);
  const v = typeof f === 'bigint' ? f : f.varint;
  if (type === 'bool') return v !== 0n;
  return type === 'int32' ? toInt32(v) : toInt64(v);
}

/**
 * A little-endian IEEE 754 double. NaN and the infinities have no JSON form (Go's
 * `json.Marshal` refuses them too), so a body carrying one is rejected.
 */
function doubleValue(bytes: Buffer, path: string): number {
  const v = bytes.readDoubleLE(0);
  if (!Number.isFinite(v))
    throw new ProtobufDecodeError(`${v} at ${where(path)} is not a JSON number`);
  return v;
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function zeroOf(type: ScalarType): unknown {
  if (type === 'string') return '';
  return type === 'bool' ? false : 0;
}

/** The JSON value of one struct-like payload: a special type or a message. */
function structValue(
  field: StructFieldSpec,
  payload: Buffer,
  path: string,
  ctx: DecodeContext,
): unknown {
  if (field.kind === 'special') return decodeSpecial(field.type, payload, path, ctx.nested);
  return jsonForm(field.type, decodeFields(field.type, payload, path, ctx));
}

function emitScalar(
  out: JsonObject,
  field: ScalarFieldSpec,
  occ: readonly WireField[],
  path: string,
): void {
  const type = field.type;
  const last = occ[occ.length - 1];
  if (last === undefined) {
    // Absent: a nil pointer or nil []byte is null; a plain scalar is its zero value.
    if (field.omitempty) return;
    out[field.json] = field.pointer || type === 'bytes' ? null : zeroOf(type);
    return;
  }
  const value = scalarValue(type, last, child(path, field.json));
  if (field.omitempty && !field.pointer && isZero(value)) return;
  out[field.json] = value;
}

function emitList(
  out: JsonObject,
  field: FieldSpec,
  occ: readonly WireField[],
  path: string,
  ctx: DecodeContext,
): void {
  const at = child(path, field.json);
  const items: unknown[] = [];
  for (const f of occ) {
    if (field.kind === 'scalar') {
      const type = field.type;
      if (f.wireType === WIRE_BYTES && type !== 'string' && type !== 'bytes') {
        for (const v of readPackedVarints(f.bytes)) items.push(scalarValue(type, v, at));
      } else {
        items.push(scalarValue(type, f, at));
      }
    } else {
      items.push(structValue(field, f.bytes, `${at}[${items.length}]`, ctx));
    }
  }
  if (items.length > 0) out[field.json] = items;
  else if (!field.omitempty) out[field.json] = null;
}

/** A map entry message: key = 1 (string), value = 2. */
function mapEntry(
  field: FieldSpec,
  f: WireField,
  at: string,
  ctx: DecodeContext,
): [string, unknown] {
  let key: WireField | undefined;
  let value: WireField | undefined;
  for (const e of readFields(f.bytes)) {
    if (e.no === 1 && e.wireType === WIRE_BYTES) key = e;
    else if (e.no === 2 && e.wireType === WIRE_BYTES) value = e;
    else if (!isZeroField(e)) {
      throw new ProtobufDecodeError(`bad map entry field ${e.no} in ${at}`);
    }
  }
  const k = key === undefined ? '' : key.bytes.toString('utf8');
  if (field.kind !== 'scalar')
    return [k, structValue(field, value?.bytes ?? EMPTY, `${at}[${k}]`, ctx)];
  // An entry without a value holds the zero value (gogo starts map values at zero).
  return [k, value === undefined ? zeroOf(field.type) : scalarValue(field.type, value, at)];
}

function emitMap(
  out: JsonObject,
  field: FieldSpec,
  occ: readonly WireField[],
  path: string,
  ctx: DecodeContext,
): void {
  if (occ.length === 0) {
    if (!field.omitempty) out[field.json] = null;
    return;
  }
  const at = child(path, field.json);
  const entries = new Map<string, unknown>();
  for (const f of occ) {
    const [k, v] = mapEntry(field, f, at, ctx);
    entries.set(k, v);
  }
  // Go's encoding/json writes map keys sorted by their UTF-8 bytes.
  const keys = [...entries.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  // fromEntries defines own properties, so even a `__proto__` key stays a plain key.
  out[field.json] = Object.fromEntries(keys.map((k) => [k, entries.get(k)]));
}

function emitStruct(
  out: JsonObject,
  field: StructFieldSpec,
  occ: readonly WireField[],
  path: string,
  ctx: DecodeContext,
): void {
  if (occ.length === 0 && field.pointer) {
    if (!field.omitempty) out[field.json] = null;
    return;
  }
  // Occurrences of one message field merge; concatenating their payloads is that merge.
  const only = occ.length === 1 ? occ[0] : undefined;
  const payload = only !== undefined ? only.bytes : Buffer.concat(occ.map((f) => f.bytes));
  // Only a message is ever inline (`compileTables` checks).
  if (field.inline && field.kind === 'message') {
    // Go promotes an inline struct's fields; no table has a name clash to arbitrate.
    Object.assign(out, decodeFields(field.type, payload, path, ctx));
    return;
  }
  out[field.json] = structValue(field, payload, child(path, field.json), ctx);
}

/** Decodes one message's payload to its JSON object (without `kind`/`apiVersion`). */
export function decodeFields(
  name: MessageName,
  payload: Buffer,
  path: string,
  ctx: DecodeContext,
): JsonObject {
  if (ctx.depth >= MAX_OBJECT_DEPTH) {
    throw new ProtobufDecodeError(`${objectDepthError()} (at ${where(path)})`);
  }
  ctx.depth++;
  try {
    return decodeMessage(messageSpec(name), payload, path, ctx);
  } finally {
    ctx.depth--;
  }
}

function decodeMessage(
  spec: MessageSpec,
  payload: Buffer,
  path: string,
  ctx: DecodeContext,
): JsonObject {
  const seen = collect(spec, payload, path);
  const out: JsonObject = {};
  for (const field of spec.fields) {
    const occ = seen[field.index] ?? NONE;
    if (field.map) emitMap(out, field, occ, path, ctx);
    else if (field.repeated) emitList(out, field, occ, path, ctx);
    else if (field.kind === 'scalar') emitScalar(out, field, occ, path);
    else emitStruct(out, field, occ, path, ctx);
  }
  return out;
}
