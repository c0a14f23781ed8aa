/**
 * The embedded components' credentials: one random bearer token per component user
 * (`system:serviceaccount:kube-system:job-controller`, `system:kube-scheduler`,
 * `system:node:fleetyard-node-1`…), made at each start, held in memory only and handed to the
 * controller thread; never written, never logged. Upstream's components carry ServiceAccount
 * tokens or client certificates instead; what authorization sees, the user and its groups,
 * is the same.
 *
 * Looked up by the token's SHA-256 rather than compared one by one: with a token per node a
 * linear constant-time scan would cost every request hundreds of comparisons, and a lookup by
 * digest reveals nothing about any token's bytes.
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { TokenAuthenticator } from './bearer-tokens.js';
import type { UserInfo } from './user.js';

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

export class ComponentTokens implements TokenAuthenticator {
  readonly #users = new Map<string, UserInfo>();
  readonly #tokens = new Map<string, string>();
  readonly #issued = new WeakSet<UserInfo>();

  /** The token of `user` (made on first use; the same for the life of this process). */
  tokenFor(user: UserInfo): string {
    const known = this.#tokens.get(user.username);
    if (known !== undefined) return known;
    // 32 bytes, base64url: as strong as the admin token (src/security/token.ts).
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(user.username, token);
    this.#users.set(digest(token), user);
    this.#issued.add(user);
    return token;
  }

  /**
   * Whether `user` is one of this table's users, as {@link authenticate} returned it (the same
   * object: the request authenticator keeps a user that already has its groups).
   */
  issued(user: UserInfo): boolean {
    return this.#issued.has(user);
  }

  authenticate(token: string): UserInfo | undefined {
    return this.#users.get(digest(token));
  }
}
