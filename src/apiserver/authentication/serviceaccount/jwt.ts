/**
 * Compact JWS (RFC 7515) signing and strict verification for ServiceAccount tokens, what
 * upstream does with go-jose (`pkg/serviceaccount/jwt.go`).
 *
 * Output is byte-compatible with kube-apiserver's tokens: the header is `{"alg","kid"}` with no
 * `typ`, and the payload's keys are sorted at every level, because go-jose merges the claims
 * into a Go map before marshalling it.
 *
 * Parsing is strict, as a token is attacker input: at most 16 KiB (our tokens are under 2 KiB;
 * upstream bounds whole request headers, not tokens), exactly three parts of canonical base64url
 * (no padding, no stray bits), a header and payload that are JSON objects, no `crit` header
 * (we understand no extension), an algorithm from the verifier's keys only (never `none`, never
 * an HMAC algorithm a public key could be misused as the secret of), and a signature of the
 * exact length the key gives. No error message quotes the token or any part of it.
 *
 * @module
 */
import { sign, verify } from 'node:crypto';
import type { ServiceAccountKey, ServiceAccountPublicKey, SigningAlgorithm } from './keys.js';

/** Tokens longer than this are not parsed at all. */
export const MAX_TOKEN_BYTES = 16 * 1024;

/** A parse or verification failure; its message never contains token material. */
export class JwsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwsError';
  }
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
export type JsonRecord = { [k: string]: JsonValue };

/** A token split and decoded, not yet verified. */
export interface ParsedJws {
  readonly header: JsonRecord;
  /** The payload: untrusted until {@link verifyJws} returned. */
  readonly payload: JsonRecord;
  readonly signingInput: string;
  readonly signature: Buffer;
}

/** Signs `payload` (keys sorted, as go-jose) with `key`: `header.payload.signature`. */
export function signJws(key: ServiceAccountKey, payload: JsonRecord): string {
  const header = encodeJson({ alg: key.alg, kid: key.kid });
  const body = encodeJson(payload);
  const signingInput = `${header}.${body}`;
  const signature = sign('sha256', Buffer.from(signingInput), {
    key: key.privateKey,
    ...(key.alg === 'ES256' ? { dsaEncoding: 'ieee-p1363' as const } : {}),
  });
  return `${signingInput}.${signature.toString('base64url')}`;
}

function encodeJson(value: JsonValue): string {
  return Buffer.from(JSON.stringify(sortKeys(value))).toString('base64url');
}

/** Go's `json.Marshal` of a `map[string]interface{}` sorts keys, at every level. */
function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonRecord = {};
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k, v] of entries) out[k] = sortKeys(v);
  return out;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Strict base64url: the alphabet only, no padding, and the canonical encoding of its bytes. */
function decodeBase64Url(part: string, what: string): Buffer {
  if (!BASE64URL.test(part) || part.length % 4 === 1) {
    throw new JwsError(`malformed token: ${what} is not base64url`);
  }
  const bytes = Buffer.from(part, 'base64url');
  if (bytes.toString('base64url') !== part) {
    throw new JwsError(`malformed token: ${what} is not canonical base64url`);
  }
  return bytes;
}

/** A JSON object (what `JSON.parse` gave, so its values are JSON values). */
function isJsonRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function decodeJsonObject(part: string, what: string): JsonRecord {
  const text = decodeBase64Url(part, what).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JwsError(`malformed token: ${what} is not JSON`);
  }
  if (!isJsonRecord(value)) throw new JwsError(`malformed token: ${what} is not a JSON object`);
  return value;
}

/** Splits and decodes a compact JWS; throws {@link JwsError} for anything malformed. */
export function parseJws(token: string): ParsedJws {
  if (token.length > MAX_TOKEN_BYTES) throw new JwsError('malformed token: too long');
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwsError('malformed token: not a compact JWS');
  const [h = '', p = '', s = ''] = parts;
  const header = decodeJsonObject(h, 'header');
  const payload = decodeJsonObject(p, 'payload');
  const signature = decodeBase64Url(s, 'signature');
  if (typeof header.alg !== 'string') throw new JwsError('malformed token: no algorithm');
  if (header.kid !== undefined && typeof header.kid !== 'string') {
    throw new JwsError('malformed token: kid is not a string');
  }
  if (header.crit !== undefined) throw new JwsError('unsupported token: critical header');
  return { header, payload, signingInput: `${h}.${p}`, signature };
}

/** The `kid` of a parsed token's header, or '' when it has none. */
export function keyIdOfJws(jws: ParsedJws): string {
  return typeof jws.header.kid === 'string' ? jws.header.kid : '';
}

/**
 * Verifies the signature with the key the `kid` names (every key when the token has no `kid`,
 * as upstream's `GetPublicKeys('')`). Throws {@link JwsError} unless one verifies it.
 */
export function verifyJws(jws: ParsedJws, keys: readonly ServiceAccountPublicKey[]): void {
  const kid = keyIdOfJws(jws);
  const candidates = kid === '' ? keys : keys.filter((k) => k.kid === kid);
  if (candidates.length === 0) throw new JwsError('invalid signature, no keys found');
  const alg = jws.header.alg;
  for (const key of candidates) {
    if (key.alg === alg && verifies(key.publicKey, key.alg, jws)) return;
  }
  throw new JwsError('invalid signature');
}

function verifies(
  publicKey: ServiceAccountPublicKey['publicKey'],
  alg: SigningAlgorithm,
  jws: ParsedJws,
): boolean {
  // Exact lengths: 64 bytes (r‖s) for P-256; the modulus length for RSA.
  const expected =
    alg === 'ES256' ? 64 : Math.ceil((publicKey.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
  if (jws.signature.length !== expected) return false;
  try {
    return verify(
      'sha256',
      Buffer.from(jws.signingInput),
      { key: publicKey, ...(alg === 'ES256' ? { dsaEncoding: 'ieee-p1363' as const } : {}) },
      jws.signature,
    );
  } catch {
    return false;
  }
}
