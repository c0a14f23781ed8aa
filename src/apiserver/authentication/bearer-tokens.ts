/**
 * Bearer token authentication (upstream `request/bearertoken`, `token/union`,
 * `request/websocket` and the static token file authenticator): the interface every token
 * authenticator implements (the static admin and loopback tokens here, ServiceAccount JWTs in
 * `serviceaccount/`), the union that asks them in order, and where a request carries its token
 * (`Authorization: Bearer …`, or for a WebSocket the `base64url.bearer.authorization.k8s.io.`
 * subprotocol kubectl sends when a header cannot be set).
 *
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import { bearerTokenFrom, tokenMatcher } from '../../security/token.js';
import type { UserInfo } from './user.js';

/** A token an authenticator accepted, with the audiences it is valid for (JWTs name theirs). */
export interface AuthenticatedToken {
  readonly user: UserInfo;
  /** The requested audiences the token is valid for; absent: audience-agnostic. */
  readonly audiences?: readonly string[];
}

/**
 * What a token authenticator answers: the user (or a user with audiences) when the token is
 * its own and valid, `undefined` when the token is not one of its kind (another authenticator
 * may know it), an `Error` when it is its kind but invalid (expired, bound object gone): the
 * message ends up in logs and in TokenReview `status.error`, never in the 401 body.
 */
export type TokenResult = UserInfo | AuthenticatedToken | TokenRefused | undefined | Error;

/** A refusal in the ServiceAccount authenticator's shape (`serviceaccount/authenticator.ts`). */
export interface TokenRefused {
  readonly ok: false;
  readonly error: string;
}

export interface TokenAuthenticator {
  /**
   * `audiences`: what the token must be meant for; absent for a request to this API server
   * (its own audiences apply), set by TokenReview's `spec.audiences`.
   */
  authenticate(token: string, audiences?: readonly string[]): TokenResult | Promise<TokenResult>;
}

/** Upstream's message when no token authenticator knew the token and none failed. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

/** One static token and whose it is (the admin token of the kubeconfig, the loopback token). */
export interface StaticToken {
  readonly token: string;
  readonly user: UserInfo;
}

/**
 * Static tokens (upstream `--token-auth-file`), compared in constant time (`tokenMatcher`:
 * every entry is compared, so the time taken does not say which entry matched). Like upstream's
 * (wrapped in `WrapAudienceAgnosticToken`), they hold only for the API server's own audiences:
 * a TokenReview asking for other audiences does not accept them.
 */
export function staticTokenAuthenticator(
  entries: readonly StaticToken[],
  apiAudiences: readonly string[] = [],
): TokenAuthenticator {
  const matchers = entries.map((e) => ({ matches: tokenMatcher(e.token), user: e.user }));
  return {
    authenticate(token, audiences) {
      let found: UserInfo | undefined;
      for (const m of matchers) {
        if (m.matches(token) && found === undefined) found = m.user;
      }
      if (found === undefined) return undefined;
      if (audiences === undefined || apiAudiences.length === 0) return { user: found };
      const common = intersect(audiences, apiAudiences);
      return common.length === 0 ? undefined : { user: found, audiences: common };
    },
  };
}

/** The token authenticators' union: the first that accepts wins; errors are all kept. */
export type TokenUnionResult =
  | { readonly user: UserInfo; readonly audiences?: readonly string[] }
  | { readonly errors: readonly string[] };

/**
 * Asks each authenticator in order (upstream `tokenunion.New`, not failing on error): the first
 * acceptance wins even after another's error; when none accepts, every error is returned, and
 * with no error at all upstream's bearer authenticator says {@link INVALID_BEARER_TOKEN}.
 */
export async function authenticateToken(
  token: string,
  authenticators: readonly TokenAuthenticator[],
  audiences?: readonly string[],
): Promise<TokenUnionResult> {
  const errors: string[] = [];
  for (const a of authenticators) {
    const r = await a.authenticate(token, audiences);
    if (r === undefined) continue;
    if (r instanceof Error) {
      errors.push(r.message);
      continue;
    }
    if ('ok' in r && r.ok === false) {
      errors.push(r.error);
      continue;
    }
    if ('user' in r) return { user: r.user, ...(r.audiences ? { audiences: r.audiences } : {}) };
    if ('username' in r) return { user: r };
  }
  return { errors: errors.length === 0 ? [INVALID_BEARER_TOKEN] : errors };
}

/**
 * Go's `utilerrors.NewAggregate(errs).Error()`: one message as is, several as `[a, b]` with
 * duplicates dropped (what TokenReview `status.error` shows).
 */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] ?? '';
  return unique.length === 0 ? '' : `[${unique.join(', ')}]`;
}

/** The subprotocol prefix that carries a token on a WebSocket upgrade (upstream's). */
export const WEBSOCKET_BEARER_PREFIX = 'base64url.bearer.authorization.k8s.io.';

/** Where a request's token was found, for the union and for removing it afterwards. */
export type PresentedToken =
  | { readonly token: string; readonly via: 'authorization' }
  | { readonly token: string; readonly via: 'websocket'; readonly otherProtocols: string[] };

/**
 * The bearer token of a request, `undefined` when it carries none, or an `Error` for a malformed
 * WebSocket token protocol (upstream answers those 401, not anonymous). The `Authorization` header
 * is parsed as upstream does (`bearerTokenFrom`: `Bearer` in any case, an empty token is none).
 */
export function presentedToken(headers: IncomingHttpHeaders): PresentedToken | Error | undefined {
  const token = bearerTokenFrom(headers.authorization);
  if (token !== undefined) return { token, via: 'authorization' };
  return websocketToken(headers);
}

/** Upstream `websocket.ProtocolAuthenticator`'s parsing; only on a WebSocket upgrade. */
function websocketToken(headers: IncomingHttpHeaders): PresentedToken | Error | undefined {
  if (!isWebSocketUpgrade(headers)) return undefined;
  const header = headers['sec-websocket-protocol'];
  if (header === undefined) return undefined;
  let token: string | undefined;
  const others: string[] = [];
  for (const raw of header.split(',')) {
    const protocol = raw.trim();
    if (!protocol.startsWith(WEBSOCKET_BEARER_PREFIX)) {
      others.push(protocol);
      continue;
    }
    if (token !== undefined) {
      return new Error('multiple base64.bearer.authorization tokens specified');
    }
    const encoded = protocol.slice(WEBSOCKET_BEARER_PREFIX.length);
    // Go's RawURLEncoding: the URL alphabet without padding; anything else is refused.
    if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) {
      return new Error('invalid base64.bearer.authorization token encoding');
    }
    const bytes = Buffer.from(encoded, 'base64url');
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (!Buffer.from(text, 'utf8').equals(bytes)) {
      return new Error('invalid base64.bearer.authorization token');
    }
    token = text;
  }
  if (token === undefined || token === '') return undefined;
  // Another subprotocol must remain to be echoed back once the token's is removed.
  if (others.length === 0) return new Error('missing additional subprotocol');
  return { token, via: 'websocket', otherProtocols: others };
}

function isWebSocketUpgrade(headers: IncomingHttpHeaders): boolean {
  const connection = (headers.connection ?? '').toLowerCase();
  const upgrade = (headers.upgrade ?? '').toLowerCase();
  return connection.split(',').some((t) => t.trim() === 'upgrade') && upgrade === 'websocket';
}

/**
 * Removes an accepted token from the headers, as upstream does after a successful bearer or
 * WebSocket authentication, so nothing behind the filter (a proxy subresource) forwards it.
 */
export function removePresentedToken(
  headers: IncomingHttpHeaders,
  presented: PresentedToken,
): void {
  if (presented.via === 'authorization') delete headers.authorization;
  else headers['sec-websocket-protocol'] = presented.otherProtocols.join(',');
}

function intersect(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(b);
  return a.filter((x) => set.has(x));
}
