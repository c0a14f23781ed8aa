/**
 * A small protobuf wire-format reader: the four wire types Kubernetes objects use (varint,
 * 64-bit, length-delimited, 32-bit), 64-bit varints as `bigint`, and nothing else (no groups,
 * no zigzag: Kubernetes messages use int32/int64, never sint).
 *
 * @module
 */
import { ProtobufDecodeError } from './errors.js';

/** Wire type of varints: int32, int64, bool (and enums, which Kubernetes does not use). */
export const WIRE_VARINT = 0;
/** Wire type of fixed64/double. */
export const WIRE_FIXED64 = 1;
/** Wire type of strings, bytes, messages, map entries and packed repeated scalars. */
export const WIRE_BYTES = 2;
/** Wire type of fixed32/float. */
export const WIRE_FIXED32 = 5;

/** The wire types this reader accepts. */
export type WireType =
  | typeof WIRE_VARINT
  | typeof WIRE_FIXED64
  | typeof WIRE_BYTES
  | typeof WIRE_FIXED32;

/** One field occurrence as found on the wire. */
export interface WireField {
  readonly no: number;
  readonly wireType: WireType;
  /** The value of a varint field (`0n` for the other wire types). */
  readonly varint: bigint;
  /** The payload of a length-delimited field, or the raw bytes of a fixed32/fixed64 one. */
  readonly bytes: Buffer;
}

const EMPTY = Buffer.alloc(0);
const MAX_FIELD_NUMBER = 2 ** 29 - 1;

/** Reads fields, one at a time, from one message's bytes. */
export class WireReader {
  readonly #buf: Buffer;
  readonly #length: number;
  #pos = 0;

  constructor(buf: Buffer) {
    this.#buf = buf;
    this.#length = buf.length;
  }

  /** Whether every byte has been read. */
  get done(): boolean {
    return this.#pos >= this.#length;
  }

  /**
   * Reads a varint of up to 10 bytes. Like Go's generated decoders, bits past 64 are dropped
   * rather than rejected; an 11th byte is an error.
   */
  readVarint(): bigint {
    // Fast path: up to 4 bytes (28 bits) fit a small integer exactly.
    let low = 0;
    for (let i = 0; i < 4; i++) {
      const b = this.#byte();
      low |= (b & 0x7f) << (7 * i);
      if (b < 0x80) return BigInt(low);
    }
    let value = BigInt(low);
    for (let i = 4; i < 10; i++) {
      const b = this.#byte();
      value |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) return BigInt.asUintN(64, value);
    }
    throw new ProtobufDecodeError('varint is longer than 10 bytes');
  }

  /** Reads the next field: its tag, then its value or payload. */
  readField(): WireField {
    const tag = this.#readSmall('field tag', 2 ** 32 - 1);
    const no = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (no === 0 || no > MAX_FIELD_NUMBER) {
      throw new ProtobufDecodeError(`illegal field number ${no}`);
    }
    switch (wireType) {
      case WIRE_VARINT:
        return { no, wireType, varint: this.readVarint(), bytes: EMPTY };
      case WIRE_FIXED64:
        return { no, wireType, varint: 0n, bytes: this.#take(8, no) };
      case WIRE_BYTES:
        return { no, wireType, varint: 0n, bytes: this.#take(this.#readSmall('length'), no) };
      case WIRE_FIXED32:
        return { no, wireType, varint: 0n, bytes: this.#take(4, no) };
      default:
        throw new ProtobufDecodeError(`unsupported wire type ${wireType} for field ${no}`);
    }
  }

  #byte(): number {
    const b = this.#buf[this.#pos];
    if (b === undefined) throw new ProtobufDecodeError('unexpected end of data in a varint');
    this.#pos++;
    return b;
  }

  /**
   * A varint that must fit a safe integer (tags and lengths), read in plain arithmetic: this
   * is the hot path, and `bigint` is slow.
   */
  #readSmall(what: string, max = Number.MAX_SAFE_INTEGER): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.#byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) {
        if (value > max) throw new ProtobufDecodeError(`${what} ${value} is out of range`);
        return value;
      }
      scale *= 128;
    }
    throw new ProtobufDecodeError('varint is longer than 10 bytes');
  }

  #take(length: number, no: number): Buffer {
    const end = this.#pos + length;
    if (end > this.#buf.length) {
      throw new ProtobufDecodeError(
        `field ${no} needs ${length} bytes but only ${this.#buf.length - this.#pos} remain`,
      );
    }
    const out = this.#buf.subarray(this.#pos, end);
    this.#pos = end;
    return out;
  }
}

/** Every field of one message, in wire order. */
export function readFields(buf: Buffer): WireField[] {
  const reader = new WireReader(buf);
  const fields: WireField[] = [];
  while (!reader.done) fields.push(reader.readField());
  return fields;
}

/** The varints of a packed repeated scalar field's payload. */
export function readPackedVarints(buf: Buffer): bigint[] {
  const reader = new WireReader(buf);
  const values: bigint[] = [];
  while (!reader.done) values.push(reader.readVarint());
  return values;
}

/** A varint read as Go reads an `int32`: the low 32 bits, two's complement. */
export function toInt32(v: bigint): number {
  return Number(BigInt.asIntN(32, v));
}

/** A varint read as Go reads an `int64`, exactly. */
export function toInt64(v: bigint): number | bigint {
  const n = BigInt.asIntN(64, v);
  // Beyond 2^53 a double rounds (…305832 would read …306000); such values stay bigints,
  // which the int64-exact JSON codec writes as digits (docs/adr/0012-int64-numbers.md).
  return n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

const MAX_ZERO_DEPTH = 16;

/**
 * Whether a field carries nothing but zero values: a 0 varint, zero fixed bytes, an empty
 * payload, or a payload that parses as a message whose fields are all zero in turn. Go's
 * generated marshalers write every non-pointer field, so a newer client sends fields this
 * server does not know with zero values; those carry no data and are safe to skip.
 */
export function isZeroField(field: WireField, depth = 0): boolean {
  if (field.wireType === WIRE_VARINT) return field.varint === 0n;
  if (field.wireType !== WIRE_BYTES) return field.bytes.every((b) => b === 0);
  if (field.bytes.length === 0) return true;
  if (depth >= MAX_ZERO_DEPTH) return false;
  try {
    return readFields(field.bytes).every((f) => isZeroField(f, depth + 1));
  } catch (e) {
    if (e instanceof ProtobufDecodeError) return false;
    throw e;
  }
}
