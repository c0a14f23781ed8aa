/**
 * Who sent a request: upstream kube-apiserver's authenticator chain
 * (`pkg/kubeapiserver/authenticator/config.go`): a union of the X.509 client certificate
 * authenticator and the bearer token authenticators (`request/union`, not failing on the
 * first error), the `system:authenticated` group added to whoever it finds (`group.
 * AuthenticatedGroupAdder`), and then anonymous (`--anonymous-auth=true` by default) through a
 * union that *does* fail on error: a presented credential that no authenticator accepts and at
 * least one refuses is a 401, never an anonymous request. The caller decides what anonymous may
 * do (RBAC's `system:public-info-viewer` and `system:discovery` bindings).
 *
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import {
  authenticateToken,
  type PresentedToken,
  presentedToken,
  type TokenAuthenticator,
} from './bearer-tokens.js';
import {
  ANONYMOUS,
  ANONYMOUS_USER,
  SYSTEM_AUTHENTICATED,
  SYSTEM_UNAUTHENTICATED,
  type UserInfo,
} from './user.js';

/** What one request authenticator answers: a user, an error (presented but invalid), or none. */
export type CredentialResult = { readonly user: UserInfo } | Error | undefined;

/** The part of a request authentication reads (an `IncomingMessage` is one). */
export interface AuthenticationRequest {
  readonly method?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly socket: Socket;
}

export interface RequestAuthenticators {
  /** The X.509 authenticator (`client-cert.ts` `clientCertificateAuthenticator`); asked first. */
  readonly clientCertificate?: (req: AuthenticationRequest) => CredentialResult;
  /** Token authenticators in upstream's order: static tokens, ServiceAccount tokens, others. */
  readonly tokens: readonly TokenAuthenticator[];
  /**
   * The dashboard's session cookie (`browser-sessions.ts`), asked only when no client
   * certificate and no bearer token was presented: a credential a client chose wins.
   */
  readonly session?: (req: AuthenticationRequest) => CredentialResult;
  /** `--anonymous-auth`; true (upstream's default) unless false. */
  readonly anonymous?: boolean;
}

export type AuthenticationResult =
  | {
      readonly user: UserInfo;
      readonly via: 'x509' | 'token' | 'session';
      /** The token that authenticated, to remove from the headers (`removePresentedToken`). */
      readonly token?: PresentedToken;
    }
  /** 401: `reasons` are for logs only; the body is upstream's plain `Unauthorized`. */
  | { readonly error: 'unauthorized'; readonly reasons: readonly string[] }
  | { readonly anonymous: true; readonly user: UserInfo };

/**
 * Authenticates a request as upstream's chain does. Order: the client certificate, then the
 * bearer token (header, or WebSocket subprotocol) through each token authenticator in order; the
 * first that accepts decides, even when another refused (a valid token with an expired client
 * certificate authenticates). With nothing presented: anonymous, or 401 when that is off.
 */
export async function authenticateRequest(
  req: AuthenticationRequest,
  authenticators: RequestAuthenticators,
): Promise<AuthenticationResult> {
  const reasons: string[] = [];
  const cert = authenticators.clientCertificate?.(req);
  if (cert instanceof Error) reasons.push(cert.message);
  else if (cert !== undefined) return { user: withAuthenticatedGroup(cert.user), via: 'x509' };

  const presented = presentedToken(req.headers);
  if (presented instanceof Error) reasons.push(presented.message);
  else if (presented !== undefined) {
    const r = await authenticateToken(presented.token, authenticators.tokens);
    if ('user' in r) {
      return { user: withAuthenticatedGroup(r.user), via: 'token', token: presented };
    }
    reasons.push(...r.errors);
  }

  if (reasons.length > 0) return { error: 'unauthorized', reasons };
  if (presented === undefined) {
    const session = authenticators.session?.(req);
    if (session instanceof Error) return { error: 'unauthorized', reasons: [session.message] };
    if (session !== undefined)
      return { user: withAuthenticatedGroup(session.user), via: 'session' };
  }
  if (authenticators.anonymous === false) {
    return { error: 'unauthorized', reasons: ['no credentials presented'] };
  }
  return { anonymous: true, user: ANONYMOUS };
}

/**
 * Upstream's `AuthenticatedGroupAdder`: appends `system:authenticated` to an authenticated
 * user's groups, except for `system:anonymous` and for a user already in
 * `system:authenticated` or `system:unauthenticated`. (`system:masters` gets it too: upstream
 * does not exempt it.)
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER) return user;
  if (user.groups.some((g) => g === SYSTEM_AUTHENTICATED || g === SYSTEM_UNAUTHENTICATED)) {
    return user;
  }
  return { ...user, groups: [...user.groups, SYSTEM_AUTHENTICATED] };
}
