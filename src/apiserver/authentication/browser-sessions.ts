/**
 * The dashboard's sessions: a browser authenticates with a cookie it got by redeeming a
 * one-time login link (`dashboard/login-links.ts`), never with the admin token, which would
 * end up in its history, its address bar and every screenshot of it.
 *
 * The cookie is `__Host-fleetyard-session=<id>; HttpOnly; Secure; SameSite=Strict; Path=/`:
 * the `__Host-` prefix makes the browser refuse it unless it is Secure, host-only and for `/`;
 * HttpOnly keeps it from scripts. SameSite=Strict keeps the browser from sending it on
 * requests another site starts, and the server checks that too, for browsers that do not
 * honour SameSite and for WebSocket upgrades: a cookie request is refused when
 * `Sec-Fetch-Site` says another site started it, when its `Origin` is not the server's own,
 * and when an unsafe method comes with no `Origin` at all (every current browser sends one).
 *
 * Sessions live in memory: a restart of `up` signs everyone out (`fleetyard dashboard` prints
 * a new link). Their lifetime is on the wall clock, as the browser's Max-Age is: a paused or
 * fast-forwarded virtual clock must not keep a session alive or end it.
 *
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CredentialResult } from './request-authenticator.js';
import type { UserInfo } from './user.js';

export const SESSION_COOKIE = '__Host-fleetyard-session';

/** Eight hours: a working day at the dashboard, then a new link. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** Methods a browser may send without an `Origin` header (RFC 9110's safe methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The part of a request a session check reads. */
export interface SessionRequest {
  readonly method?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

interface Session {
  readonly user: UserInfo;
  readonly expiresAt: number;
}

export class BrowserSessions {
  /** By the SHA-256 of the cookie value: a heap dump does not hand out live sessions. */
  readonly #sessions = new Map<string, Session>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A new session for `user`: the `Set-Cookie` header value that carries it. */
  open(user: UserInfo): string {
    this.#expire();
    const id = randomBytes(32).toString('base64url');
    const expiresAt = this.#now() + SESSION_MAX_AGE_SECONDS * 1000;
    this.#sessions.set(digest(id), { user, expiresAt });
    return `${SESSION_COOKIE}=${id}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=${SESSION_MAX_AGE_SECONDS}`;
  }

  /** Ends the request's session, if any: the `Set-Cookie` value that clears the cookie. */
  close(headers: IncomingHttpHeaders): string {
    const id = sessionCookie(headers.cookie);
    if (id !== undefined) this.#sessions.delete(digest(id));
    return `${SESSION_COOKIE}=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0`;
  }

  /**
   * The request authenticator: the session's user, an error for a cookie that is unknown,
   * expired or sent by another site, or nothing when no session cookie came.
   */
  authenticate(req: SessionRequest): CredentialResult {
    const id = sessionCookie(req.headers.cookie);
    if (id === undefined) return undefined;
    const refused = crossSiteReason(req);
    if (refused !== undefined) return new Error(refused);
    const session = this.#sessions.get(digest(id));
    if (session === undefined) return new Error('unknown dashboard session');
    if (session.expiresAt <= this.#now()) {
      this.#sessions.delete(digest(id));
      return new Error('expired dashboard session');
    }
    return { user: session.user };
  }

  /** Open sessions (tests, diagnostics). */
  get size(): number {
    this.#expire();
    return this.#sessions.size;
  }

  #expire(): void {
    const now = this.#now();
    for (const [key, s] of this.#sessions) if (s.expiresAt <= now) this.#sessions.delete(key);
  }
}

/** The session cookie's value in a `Cookie` header, if present. */
export function sessionCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

/** Why a cookie-carrying request is not the dashboard's own, or undefined when it is. */
export function crossSiteReason(req: SessionRequest): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `cross-site request (Sec-Fetch-Site: ${site})`;
  }
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (origin !== undefined) {
    if (host === undefined || origin !== `https://${host}`) {
      return `request from another origin (${origin})`;
    }
    return undefined;
  }
  if (!SAFE_METHODS.has((req.method ?? 'GET').toUpperCase())) {
    return 'a state-changing request without an Origin header';
  }
  return undefined;
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}
