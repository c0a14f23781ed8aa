/**
 * The bearer token that every request except the health endpoints must carry.
 *
 * @module
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertPrivateFile,
  ensurePrivateDir,
  isNotFound,
  PRIVATE_FILE_MODE,
  writeFileAtomic,
} from './files.js';

/** File name of the token inside the data dir. */
export const TOKEN_FILE = 'token';

/** 256 bits of entropy. */
const TOKEN_BYTES = 32;

/**
 * What a stored token must look like to be reused: base64url or hex text of at least 43 characters
 * (256 bits in base64url). A hand-edited weak token is refused rather than silently trusted.
 */
const STORED_TOKEN = /^[A-Za-z0-9_-]{43,512}$/;

/** Makes a fresh random 256-bit token (43 base64url characters, safe in an HTTP header). */
export function generateToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * Returns the token stored in `dir/token`, creating it (mode 0600, atomically) on first use, so
 * kubeconfigs handed out earlier keep working across restarts. Throws if the file is readable by
 * others or does not hold a plausible token; the error message never contains the token.
 */
export async function ensureToken(dir: string): Promise<string> {
  await ensurePrivateDir(dir);
  const path = join(dir, TOKEN_FILE);
  const stored = await readStoredToken(path);
  if (stored !== undefined) return stored;
  const token = generateToken();
  await writeFileAtomic(path, `${token}\n`, PRIVATE_FILE_MODE);
  return token;
}

/** Reads and validates the stored token; `undefined` when there is none yet (absent or empty). */
async function readStoredToken(path: string): Promise<string | undefined> {
  let text: string;
  try {
    await assertPrivateFile(path);
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const token = text.trim();
  if (token === '') return undefined;
  if (!STORED_TOKEN.test(token)) {
    throw new Error(
      `${path} does not hold a valid token (expected at least 43 base64url or hex characters); ` +
        'delete it to have a new one generated',
    );
  }
  return token;
}

/**
 * Compares two tokens in constant time. Both sides are hashed to fixed-length digests first, so
 * neither the content nor the length of the expected token leaks through timing. Returns false
 * when either side is empty or missing, so an unset token can never authenticate anyone.
 */
export function tokensEqual(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * {@link tokensEqual} against one fixed token, for the API server's check of every request.
 * The bytes are compared in constant time without hashing (a SHA-256 per request was 2 % of
 * the server's CPU with controllers writing ~1,000 requests/s); a presented token of another
 * length is compared against itself so the answer takes the same time, and only the length,
 * which the token format fixes anyway (43 characters), can be learnt from timing.
 */
export function tokenMatcher(expected: string): (presented: string | undefined) => boolean {
  if (!expected) return () => false;
  const want = Buffer.from(expected, 'utf8');
  return (presented) => {
    if (!presented) return false;
    const got = Buffer.from(presented, 'utf8');
    if (got.length !== want.length) {
      timingSafeEqual(got, got);
      return false;
    }
    return timingSafeEqual(got, want);
  };
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/**
 * Extracts the token from an `Authorization` header value the way Kubernetes' bearer-token
 * authenticator does: trim, split on single spaces, scheme `bearer` in any case, token = the
 * second field (anything after a third space is ignored), empty token → none. An array (repeated
 * header) uses its first value, like Go's `Header.Get`.
 */
export function bearerTokenFrom(
  header: string | readonly string[] | undefined,
): string | undefined {
  const value = typeof header === 'string' ? header : header?.[0];
  if (value === undefined) return undefined;
  const parts = value.trim().split(' ', 3);
  const [scheme, token] = parts;
  if (scheme === undefined || scheme.toLowerCase() !== 'bearer') return undefined;
  return token ? token : undefined;
}
