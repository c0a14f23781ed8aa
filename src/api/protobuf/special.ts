/**
 * The messages whose Go types marshal to JSON in a form of their own (`MarshalJSON`):
 * timestamps, int-or-string, quantities and embedded raw JSON.
 * (Messages whose JSON form is built from ordinary fields are in `json-forms.ts`.)
 *
 * @module
 */
import { ProtobufDecodeError } from './errors.js';
import type { SpecialType } from './schema.js';
import { readFields, toInt32, toInt64, WIRE_BYTES, WIRE_VARINT, type WireField } from './wire.js';

/** Decodes a nested Kubernetes protobuf object (a `RawExtension` holding one). */
export type NestedDecoder = (body: Buffer, at: string) => Record<string, unknown>;

/** The `k8s\0` prefix of a Kubernetes protobuf object. */
export const PROTOBUF_MAGIC: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** Seconds of Go's zero `time.Time` (0001-01-01T00:00:00Z), which marshals as `null`. */
const GO_ZERO_TIME_SECONDS = -62135596800n;
const NANOS_PER_SECOND = 1_000_000_000n;

/** The fields of a small fixed message, last occurrence winning, with wire types checked. */
function smallMessage(
  what: string,
  payload: Buffer,
  types: Readonly<Record<number, number>>,
  at: string,
): Map<number, WireField> {
  const out = new Map<number, WireField>();
  for (const f of readFields(payload)) {
    const expected = types[f.no];
    if (expected === undefined) {
      throw new ProtobufDecodeError(`unknown field ${f.no} in ${what} at ${at}`);
    }
    if (f.wireType !== expected) {
      throw new ProtobufDecodeError(
        `wrong wire type ${f.wireType} for ${what} field ${f.no} at ${at}`,
      );
    }
    out.set(f.no, f);
  }
  return out;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Formats a timestamp as Go's RFC 3339 layouts do, in UTC, with `digits` fraction digits. */
function formatTime(seconds: bigint, fraction: number, digits: 0 | 6, at: string): string {
  const ms = Number(seconds) * 1000;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  // Also catches dates past JavaScript's range, whose year is NaN.
  if (!(year >= 0 && year <= 9999)) {
    throw new ProtobufDecodeError(`timestamp ${seconds} at ${at} is outside years 0000-9999`);
  }
  const day = `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
  const time = `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  return `${day}T${time}${digits === 0 ? '' : `.${pad(fraction, 6)}`}Z`;
}

/**
 * `metav1.Time` and `MicroTime` (`{seconds int64 = 1, nanos int32 = 2}`). An empty message is
 * the zero time, JSON `null`. `Time` drops the nanoseconds on decode, as upstream does;
 * `MicroTime` keeps microseconds.
 */
function decodeTime(payload: Buffer, micro: boolean, at: string): string | null {
  if (payload.length === 0) return null;
  const f = smallMessage(
    micro ? 'MicroTime' : 'Time',
    payload,
    { 1: WIRE_VARINT, 2: WIRE_VARINT },
    at,
  );
  let seconds = BigInt.asIntN(64, f.get(1)?.varint ?? 0n);
  let nanos = micro ? BigInt(toInt32(f.get(2)?.varint ?? 0n)) : 0n;
  // Go's time.Unix normalizes nanoseconds outside [0, 1e9) into the seconds.
  const carry = nanos >= 0n ? nanos / NANOS_PER_SECOND : (nanos + 1n) / NANOS_PER_SECOND - 1n;
  seconds += carry;
  nanos -= carry * NANOS_PER_SECOND;
  if (seconds === GO_ZERO_TIME_SECONDS && nanos === 0n) return null;
  return formatTime(seconds, Number(nanos / 1000n), micro ? 6 : 0, at);
}

/** `IntOrString` (`{type int64 = 1, intVal int32 = 2, strVal string = 3}`). */
function decodeIntOrString(payload: Buffer, at: string): number | string {
  const f = smallMessage(
    'IntOrString',
    payload,
    { 1: WIRE_VARINT, 2: WIRE_VARINT, 3: WIRE_BYTES },
    at,
  );
  const type = toInt64(f.get(1)?.varint ?? 0n);
  if (type === 0) return toInt32(f.get(2)?.varint ?? 0n);
  if (type === 1) return (f.get(3)?.bytes ?? Buffer.alloc(0)).toString('utf8');
  throw new ProtobufDecodeError(`IntOrString at ${at} has unknown type ${type}`);
}

/**
 * `resource.Quantity` (`{string = 1}`), passed through as Go clients write it (canonical).
 * Without the string it is Go's zero quantity, `"0"`; an empty string does not parse upstream.
 */
function decodeQuantity(payload: Buffer, at: string): string {
  const s = smallMessage('Quantity', payload, { 1: WIRE_BYTES }, at).get(1);
  if (s === undefined) return '0';
  if (s.bytes.length === 0) throw new ProtobufDecodeError(`empty quantity at ${at}`);
  return s.bytes.toString('utf8');
}

/**
 * `FieldsV1`, `RawExtension` and apiextensions' `JSON` (`{raw bytes = 1}`): raw JSON,
 * embedded as is (`null` when absent). A `RawExtension` may also hold a protobuf object of
 * its own.
 */
function decodeRaw(what: SpecialType, payload: Buffer, at: string, nested: NestedDecoder): unknown {
  const raw = smallMessage(what, payload, { 1: WIRE_BYTES }, at).get(1)?.bytes;
  if (raw === undefined || raw.length === 0) return null;
  if (what === 'RawExtension' && raw.subarray(0, 4).equals(PROTOBUF_MAGIC)) return nested(raw, at);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ProtobufDecodeError(`${what} at ${at} does not hold JSON`);
  }
}

/** Decodes one special message's payload to its JSON value. */
export function decodeSpecial(
  type: SpecialType,
  payload: Buffer,
  at: string,
  nested: NestedDecoder,
): unknown {
  switch (type) {
    case 'Time':
      return decodeTime(payload, false, at);
    case 'MicroTime':
      return decodeTime(payload, true, at);
    case 'IntOrString':
      return decodeIntOrString(payload, at);
    case 'Quantity':
      return decodeQuantity(payload, at);
    case 'FieldsV1':
    case 'RawExtension':
    case 'JSON':
      return decodeRaw(type, payload, at, nested);
  }
}
