/**
 * Test helper: a tiny protobuf reader (varint and length-delimited fields only), written
 * independently of the writer so round-trip tests check the bytes, not the writer against
 * itself.
 *
 * @module
 */

export interface Field {
  readonly no: number;
  readonly wireType: 0 | 2;
  readonly varint: number;
  readonly bytes: Buffer;
}

function readVarint(buf: Buffer, pos: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = pos; i < buf.length && i < pos + 8; i++) {
    const b = buf[i]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, i + 1];
    scale *= 128;
  }
  throw new Error(`bad varint at ${pos}`);
}

/** Every field of one message, in wire order; throws on anything but wire types 0 and 2. */
export function decodeFields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [tag, afterTag] = readVarint(buf, pos);
    const no = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (wireType === 0) {
      const [v, next] = readVarint(buf, afterTag);
      out.push({ no, wireType, varint: v, bytes: Buffer.alloc(0) });
      pos = next;
    } else if (wireType === 2) {
      const [len, start] = readVarint(buf, afterTag);
      if (start + len > buf.length) throw new Error(`field ${no} runs past the end`);
      out.push({ no, wireType, varint: 0, bytes: buf.subarray(start, start + len) });
      pos = start + len;
    } else {
      throw new Error(`unexpected wire type ${wireType} (field ${no})`);
    }
  }
  return out;
}

/** The payloads of field `no` (messages or strings), in order. */
export function all(buf: Buffer, no: number): Buffer[] {
  return decodeFields(buf)
    .filter((f) => f.no === no && f.wireType === 2)
    .map((f) => f.bytes);
}

/** The last occurrence of length-delimited field `no` (proto3 semantics), or undefined. */
export function one(buf: Buffer | undefined, no: number): Buffer | undefined {
  return buf === undefined ? undefined : all(buf, no).at(-1);
}

/** Field `no` as a string ('' when absent, as proto3). */
export function text(buf: Buffer | undefined, no: number): string {
  return one(buf, no)?.toString('utf8') ?? '';
}

/** Field `no` as a bool (false when absent). */
export function flag(buf: Buffer | undefined, no: number): boolean {
  if (buf === undefined) return false;
  return decodeFields(buf).some((f) => f.no === no && f.wireType === 0 && f.varint !== 0);
}
