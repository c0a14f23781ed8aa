/**
 * Upstream's token authentication cache (`authenticator/token/cache`, wrapped around the token
 * authenticators with kube-apiserver's `TokenSuccessCacheTTL` of 10 s and no failure cache):
 * a token that authenticated is not verified again for 10 s. A ServiceAccount token otherwise
 * costs every request an RS256 signature check and a ServiceAccount lookup (about 150–210 µs,
 * 80 % of the extra cost of a token user over the admin in the authz benchmark). As upstream, a
 * deleted ServiceAccount's token keeps working until its entry expires.
 *
 * Keyed by the token's SHA-256 and the audiences asked for; at most 4,096 entries, the oldest
 * dropped first. An entry lasts 10 s on every clock given, whichever ends first: wall time, so
 * a paused virtual clock does not keep a revoked token valid, and the cluster's time, so a
 * virtual jump past a token's expiry is not hidden by an earlier success.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../util/clock.js';
import type { TokenAuthenticator, TokenResult } from './bearer-tokens.js';

export const TOKEN_SUCCESS_CACHE_TTL_MS = 10_000;
const MAX_ENTRIES = 4096;

interface Entry {
  readonly result: TokenResult;
  /** Per clock, when the entry ends. */
  readonly expiresAt: readonly number[];
}

function succeeded(r: TokenResult): boolean {
  if (r === undefined || r instanceof Error) return false;
  return !('ok' in r && r.ok === false);
}

/** `inner` with its successful answers cached for {@link TOKEN_SUCCESS_CACHE_TTL_MS}. */
export function cachedTokenAuthenticator(
  inner: TokenAuthenticator,
  clocks: readonly Pick<Clock, 'now'>[],
  ttlMs = TOKEN_SUCCESS_CACHE_TTL_MS,
): TokenAuthenticator {
  const entries = new Map<string, Entry>();
  return {
    async authenticate(token, audiences) {
      const key = `${createHash('sha256').update(token).digest('hex')} ${(audiences ?? []).join(',')}`;
      const now = clocks.map((c) => c.now());
      const hit = entries.get(key);
      if (hit !== undefined && now.every((t, i) => t < (hit.expiresAt[i] ?? 0))) return hit.result;
      const result = await inner.authenticate(token, audiences);
      if (succeeded(result)) {
        if (entries.size >= MAX_ENTRIES) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
        entries.set(key, { result, expiresAt: now.map((t) => t + ttlMs) });
      } else {
        entries.delete(key);
      }
      return result;
    },
  };
}
