/**
 * The user a request was authenticated (and maybe impersonated) as, kept beside the request
 * (upstream carries it in the request's context): admission, the review handlers and audit
 * read it. A request the server never authenticated (a test server without credentials) reads
 * as {@link ADMIN}'s privileges through {@link requestUser}'s fallback.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from './user.js';

const users = new WeakMap<IncomingMessage, RequestIdentity>();

export interface RequestIdentity {
  /** Who the request acts as (the impersonated user when it impersonates). */
  readonly user: UserInfo;
  /** Who authenticated, when it impersonates someone else. */
  readonly impersonator?: UserInfo;
}

export function setRequestIdentity(req: IncomingMessage, identity: RequestIdentity): void {
  users.set(req, identity);
}

export function requestIdentity(req: IncomingMessage): RequestIdentity | undefined {
  return users.get(req);
}

/** The request's user, or `fallback` for a request that was never authenticated. */
export function requestUser(req: IncomingMessage, fallback: UserInfo): UserInfo {
  return users.get(req)?.user ?? fallback;
}
