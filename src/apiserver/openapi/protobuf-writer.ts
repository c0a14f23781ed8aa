/**
 * A minimal protobuf encoder: varints and length-delimited fields (strings, bools and nested
 * messages), which is all the OpenAPI v2 document needs. Fields are written in the order
 * they are added; a nested message is encoded first and then framed with its length.
 *
 * @module
 */

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

export class ProtoWriter {
  readonly #chunks: Uint8Array[] = [];
  #length = 0;

  /** A `string` field; proto3 leaves empty strings out, and so do we. */
  string(field: number, value: string): this {
    if (value === '') return this;
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  /** A `bool` field (omitted when false, as proto3 does). */
  bool(field: number, value: boolean): this {
    if (!value) return this;
    this.#push(encodeVarint(field * 8 + WIRE_VARINT));
    this.#push(encodeVarint(1));
    return this;
  }

  /** A nested message field, written by `build` into a fresh writer. */
  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  /** A length-delimited field from raw bytes. */
  bytes(field: number, payload: Uint8Array): this {
    this.#push(encodeVarint(field * 8 + WIRE_BYTES));
    this.#push(encodeVarint(payload.length));
    this.#push(payload);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.#chunks, this.#length);
  }

  #push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }
}

/** An unsigned varint (7 bits a byte, low bits first); `n` must be a safe non-negative integer. */
export function encodeVarint(n: number): Uint8Array {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a varint: ${n}`);
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}
