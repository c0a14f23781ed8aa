/**
 * NaCl's `crypto_secretbox` (XSalsa20 stream cipher + Poly1305 authenticator), the cipher of
 * upstream's `secretbox` provider (golang.org/x/crypto/nacl/secretbox). `node:crypto` has
 * neither Salsa20 nor a standalone Poly1305, and issue 18 adds no dependency for one provider,
 * so both are written here from their specifications (Bernstein, "The Salsa20 family of stream
 * ciphers", "Extending the Salsa20 nonce", "The Poly1305-AES message-authentication code") and
 * checked against the known-answer vector of Go's and NaCl's own tests
 * (`secretbox.test.ts`). Box layout as NaCl: a 16-byte tag, then the ciphertext.
 *
 * Not constant-time in every step (Poly1305 runs on BigInt): acceptable for data at rest in a
 * local control plane, where no attacker times the server's decryptions of its own database.
 * The tag comparison is constant-time (`timingSafeEqual`).
 *
 * @module
 */
import { timingSafeEqual } from 'node:crypto';

/** Tag bytes before the ciphertext. */
export const SECRETBOX_OVERHEAD = 16;

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]; // "expand 32-byte k"

const rotl = (v: number, n: number): number => (v << n) | (v >>> (32 - n));

/** Ten double rounds (20 rounds) of Salsa20 over `x`, in place. */
function rounds(x: Uint32Array): void {
  const qr = (a: number, b: number, c: number, d: number): void => {
    x[b]! ^= rotl((x[a]! + x[d]!) | 0, 7);
    x[c]! ^= rotl((x[b]! + x[a]!) | 0, 9);
    x[d]! ^= rotl((x[c]! + x[b]!) | 0, 13);
    x[a]! ^= rotl((x[d]! + x[c]!) | 0, 18);
  };
  for (let i = 0; i < 10; i++) {
    // Column round, then row round.
    qr(0, 4, 8, 12);
    qr(5, 9, 13, 1);
    qr(10, 14, 2, 6);
    qr(15, 3, 7, 11);
    qr(0, 1, 2, 3);
    qr(5, 6, 7, 4);
    qr(10, 11, 8, 9);
    qr(15, 12, 13, 14);
  }
}

/** The Salsa20 input block: constants, key, and 16 bytes of nonce-and-counter. */
function initialState(key: Uint8Array, input16: Uint8Array): Uint32Array {
  const k = (i: number) => readU32(key, 4 * i);
  const n = (i: number) => readU32(input16, 4 * i);
  return Uint32Array.of(
    SIGMA[0]!,
    k(0),
    k(1),
    k(2),
    k(3),
    SIGMA[1]!,
    n(0),
    n(1),
    n(2),
    n(3),
    SIGMA[2]!,
    k(4),
    k(5),
    k(6),
    k(7),
    SIGMA[3]!,
  );
}

function readU32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** HSalsa20: the 32-byte subkey XSalsa20 derives from the key and the nonce's first 16 bytes. */
function hsalsa20(key: Uint8Array, nonce16: Uint8Array): Uint8Array {
  const x = initialState(key, nonce16);
  rounds(x);
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  const words = [0, 5, 10, 15, 6, 7, 8, 9];
  for (let i = 0; i < words.length; i++) view.setUint32(4 * i, x[words[i]!]!, true);
  return out;
}

/** XORs `data` with the XSalsa20 keystream, skipping the first `skip` keystream bytes. */
function xsalsa20Xor(data: Uint8Array, nonce: Uint8Array, key: Uint8Array, skip: number) {
  const subkey = hsalsa20(key, nonce.subarray(0, 16));
  const input = new Uint8Array(16);
  input.set(nonce.subarray(16, 24));
  const out = new Uint8Array(data.length);
  const block = new Uint8Array(64);
  const blockView = new DataView(block.buffer);
  let counter = 0n;
  for (let pos = -skip; pos < data.length; pos += 64, counter++) {
    new DataView(input.buffer).setBigUint64(8, counter, true);
    const start = initialState(subkey, input);
    const x = start.slice();
    rounds(x);
    for (let i = 0; i < 16; i++) blockView.setUint32(4 * i, (x[i]! + start[i]!) >>> 0, true);
    for (let i = Math.max(0, -pos); i < 64 && pos + i < data.length; i++) {
      out[pos + i] = data[pos + i]! ^ block[i]!;
    }
  }
  return out;
}

/** The first 32 keystream bytes: the one-time Poly1305 key. */
function polyKey(nonce: Uint8Array, key: Uint8Array): Uint8Array {
  return xsalsa20Xor(new Uint8Array(32), nonce, key, 0);
}

const P1305 = (1n << 130n) - 5n;
const CLAMP = 0x0ffffffc0ffffffc0ffffffc0fffffffn;

function leBigInt(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

/** Poly1305 of `message` under the 32-byte one-time key `k`. */
export function poly1305(message: Uint8Array, k: Uint8Array): Uint8Array {
  const r = leBigInt(k.subarray(0, 16)) & CLAMP;
  const s = leBigInt(k.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < message.length; i += 16) {
    const chunk = message.subarray(i, Math.min(i + 16, message.length));
    const n = leBigInt(chunk) + (1n << BigInt(8 * chunk.length));
    acc = ((acc + n) * r) % P1305;
  }
  let tag = (acc + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++, tag >>= 8n) out[i] = Number(tag & 0xffn);
  return out;
}

/** `secretbox.Seal`: tag ‖ ciphertext. `nonce` is 24 bytes, `key` 32. */
export function secretboxSeal(plain: Uint8Array, nonce: Uint8Array, key: Uint8Array): Buffer {
  const cipher = xsalsa20Xor(plain, nonce, key, 32);
  return Buffer.concat([poly1305(cipher, polyKey(nonce, key)), cipher]);
}

/** `secretbox.Open`: the plaintext, or `undefined` when the box does not authenticate. */
export function secretboxOpen(
  box: Uint8Array,
  nonce: Uint8Array,
  key: Uint8Array,
): Buffer | undefined {
  if (box.length < SECRETBOX_OVERHEAD) return undefined;
  const cipher = box.subarray(SECRETBOX_OVERHEAD);
  const tag = poly1305(cipher, polyKey(nonce, key));
  if (!timingSafeEqual(tag, box.subarray(0, SECRETBOX_OVERHEAD))) return undefined;
  return Buffer.from(xsalsa20Xor(cipher, nonce, key, 32));
}
