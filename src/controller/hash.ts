/**
 * Hash helpers the workload controllers name things with (docs/design/controller-machinery.md §5):
 * FNV-32 / FNV-32a, upstream's `rand.SafeEncodeString`, the Deployment `pod-template-hash`
 * (`controller.ComputeHash`) and the ControllerRevision hash (`history.HashControllerRevision`).
 *
 * Exactness: {@link safeEncodeString}, {@link fnv32}, {@link fnv32a} and
 * {@link hashControllerRevision} (given the same raw bytes) equal upstream bit for bit.
 * {@link computeTemplateHash} does not: upstream hashes Go's reflective deep printing of the typed
 * `PodTemplateSpec` (type names, field order of the Go struct, nil-vs-empty distinctions), which
 * cannot be reproduced without Go's type information. We hash a canonical JSON form instead
 * (keys sorted, `null`/`undefined` members dropped), keeping the properties controllers rely on:
 * deterministic, changes when the template or collision count changes, same output alphabet and
 * length (1–10 characters).
 *
 * @module
 */

import { isJsonObject } from '../api/object.js';

/** Upstream `util/rand` alphabet: no vowels (no words) and no `0 1 3` (look like `o l e`). */
export const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const utf8 = new TextEncoder();

/** Bytes of a string as UTF-8, or the bytes themselves. */
function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? utf8.encode(data) : data;
}

/** Incremental 32-bit FNV state; `xorFirst` selects FNV-1a (xor, then multiply). */
class Fnv32 {
  #h = FNV32_OFFSET;
  readonly #xorFirst: boolean;

  constructor(xorFirst: boolean) {
    this.#xorFirst = xorFirst;
  }

  write(data: Uint8Array | string): this {
    for (const b of bytesOf(data)) {
      this.#h = this.#xorFirst
        ? Math.imul(this.#h ^ b, FNV32_PRIME) >>> 0
        : (Math.imul(this.#h, FNV32_PRIME) ^ b) >>> 0;
    }
    return this;
  }

  sum32(): number {
    return this.#h >>> 0;
  }
}

/** FNV-1 32-bit (Go `hash/fnv.New32`) of the bytes (strings are hashed as UTF-8). */
export function fnv32(...parts: (Uint8Array | string)[]): number {
  const h = new Fnv32(false);
  for (const p of parts) h.write(p);
  return h.sum32();
}

/** FNV-1a 32-bit (Go `hash/fnv.New32a`) of the bytes (strings are hashed as UTF-8). */
export function fnv32a(...parts: (Uint8Array | string)[]): number {
  const h = new Fnv32(true);
  for (const p of parts) h.write(p);
  return h.sum32();
}

/**
 * Upstream `rand.SafeEncodeString`: each character (by code point) becomes
 * `SAFE_ALPHANUMS[code % 27]`, so the output has as many characters as the input.
 */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += SAFE_ALPHANUMS[(ch.codePointAt(0) ?? 0) % SAFE_ALPHANUMS.length];
  return out;
}

/**
 * JSON with object keys sorted and `null`/`undefined` members dropped, so that semantically equal
 * objects (as Go would decode them: absent and null are both the zero value) print identically.
 * Array order is kept (it is meaningful). Empty objects/arrays are kept: `{}` is not absent.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const obj = value;
    const members = Object.keys(obj)
      .filter((k) => obj[k] !== null && obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Upstream writes the collision count as 8 bytes: uint32 little-endian, then 4 zero bytes. */
function collisionCountBytes(collisionCount: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
  return bytes;
}

/**
 * Deployment `pod-template-hash` (upstream `controller.ComputeHash`): FNV-1a-32 of the template
 * (canonical JSON here, Go deep printing upstream — see the module note), then, when
 * `collisionCount` is given (including 0), its 8-byte little-endian form; rendered as the safe
 * encoding of the decimal hash. Negative counts wrap like Go's `uint32(int32)`.
 */
export function computeTemplateHash(template: unknown, collisionCount?: number | null): string {
  const parts: (Uint8Array | string)[] = [canonicalJson(template)];
  if (collisionCount !== undefined && collisionCount !== null) {
    parts.push(collisionCountBytes(collisionCount));
  }
  return safeEncodeString(String(fnv32a(...parts)));
}

/**
 * ControllerRevision hash (upstream `history.HashControllerRevision`): FNV-1-32 (not 1a) of the
 * revision's raw `data` bytes, then the decimal collision count when given, safe-encoded.
 * Exact with upstream when `raw` holds the same bytes upstream stored.
 */
export function hashControllerRevision(
  raw: Uint8Array | string,
  collisionCount?: number | null,
): string {
  const parts: (Uint8Array | string)[] = [raw];
  if (collisionCount !== undefined && collisionCount !== null) {
    // Go: strconv.FormatInt(int64(*probe), 10) — signed decimal.
    parts.push(String(Math.trunc(collisionCount) | 0));
  }
  return safeEncodeString(String(fnv32(...parts)));
}
