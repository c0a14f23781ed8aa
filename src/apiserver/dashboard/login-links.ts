/**
 * One-time login links for the dashboard: `up` prints `https://<host>/ui/login?code=<code>`,
 * and the first request that presents the code gets a session cookie for the user the link
 * was made for (`authentication/browser-sessions.ts`). The code is single-use and expires, so
 * a link copied out of a terminal's scrollback later, or out of the browser's history, opens
 * nothing.
 *
 * A code is 32 random bytes (256 bits), kept only as its SHA-256. It expires after an hour on
 * the wall clock (the browser's time, as the session's): long enough to open the link printed
 * at start after a coffee, short enough that an old terminal log is worthless.
 * `fleetyard dashboard` makes a new one whenever needed.
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { UserInfo } from '../authentication/user.js';

/** An hour, on the wall clock. */
export const LOGIN_CODE_TTL_MS = 60 * 60 * 1000;

/** Outstanding codes beyond which the oldest go: a loop minting links cannot grow the heap. */
const MAX_OUTSTANDING = 1000;

interface Pending {
  readonly user: UserInfo;
  readonly expiresAt: number;
}

export class LoginLinks {
  readonly #pending = new Map<string, Pending>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A new one-time code that signs in as `user`. */
  issue(user: UserInfo): string {
    this.#expire();
    while (this.#pending.size >= MAX_OUTSTANDING) {
      const oldest = this.#pending.keys().next().value;
      if (oldest === undefined) break;
      this.#pending.delete(oldest);
    }
    const code = randomBytes(32).toString('base64url');
    this.#pending.set(digest(code), { user, expiresAt: this.#now() + LOGIN_CODE_TTL_MS });
    return code;
  }

  /** The user of a valid code, which is used up by this call; undefined for any other. */
  redeem(code: string): UserInfo | undefined {
    const key = digest(code);
    const pending = this.#pending.get(key);
    if (pending === undefined) return undefined;
    this.#pending.delete(key);
    return pending.expiresAt > this.#now() ? pending.user : undefined;
  }

  #expire(): void {
    const now = this.#now();
    for (const [key, p] of this.#pending) if (p.expiresAt <= now) this.#pending.delete(key);
  }
}

function digest(code: string): string {
  return createHash('sha256').update(code).digest('base64url');
}
