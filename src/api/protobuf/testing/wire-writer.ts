/**
 * Test helper: a minimal protobuf writer, the inverse of `../wire.ts`, for building bodies
 * in tests (including the ones Go's marshalers would never write, such as packed ints).
 *
 * @module
 */
import { PROTOBUF_MAGIC } from '../special.js';

/** Encodes an unsigned varint; negative numbers become their 64-bit two's complement. */
export function varint(value: bigint | number): Buffer {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

/** A field tag. */
export function tag(no: number, wireType: number): Buffer {
  return varint(BigInt(no) * 8n + BigInt(wireType));
}

/** A varint field. */
export function fVarint(no: number, value: bigint | number | boolean): Buffer {
  return Buffer.concat([tag(no, 0), varint(typeof value === 'boolean' ? Number(value) : value)]);
}

/** A fixed64 field holding a double (little-endian IEEE 754). */
export function fDouble(no: number, value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return Buffer.concat([tag(no, 1), bytes]);
}

/** A length-delimited field from bytes, a string, or parts to concatenate. */
export function fBytes(no: number, payload: Buffer | string | readonly Buffer[]): Buffer {
  const body =
    typeof payload === 'string'
      ? Buffer.from(payload, 'utf8')
      : Buffer.isBuffer(payload)
        ? payload
        : Buffer.concat(payload);
  return Buffer.concat([tag(no, 2), varint(body.length), body]);
}

/** A map entry field: key = 1, value = 2 (a string or an encoded message). */
export function fEntry(no: number, key: string, value: Buffer | string): Buffer {
  return fBytes(no, [fBytes(1, key), fBytes(2, value)]);
}

/** A packed repeated varint field. */
export function fPacked(no: number, values: readonly (bigint | number)[]): Buffer {
  return fBytes(
    no,
    values.map((v) => varint(v)),
  );
}

/** A whole body: `k8s\0` and a `runtime.Unknown` around the object's message. */
export function envelope(
  apiVersion: string,
  kind: string,
  raw: Buffer | readonly Buffer[],
): Buffer {
  return Buffer.concat([
    PROTOBUF_MAGIC,
    fBytes(1, [fBytes(1, apiVersion), fBytes(2, kind)]),
    fBytes(2, raw),
    fBytes(3, ''),
    fBytes(4, ''),
  ]);
}
