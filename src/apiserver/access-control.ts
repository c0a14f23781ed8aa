/**
 * Who a request is from and whether it may do what it asks, in upstream's filter order:
 * authentication (a client certificate signed by the cluster CA, then bearer tokens: the
 * admin token, the loopback token, the embedded components' tokens, ServiceAccount JWTs;
 * nothing presented is `system:anonymous`), impersonation (`Impersonate-*` headers, each target
 * authorized with the `impersonate` verb), then authorization: `system:masters` is allowed
 * everything, a kubelet's node authorizer answers for `system:node:*` users, and RBAC, over the
 * stored Roles and bindings, for everyone. No opinion from all of them is a 403 with upstream's
 * message.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { type StatusError, unauthorized } from '../api/errors.js';
import type { Backend } from '../storage/backend.js';
import { type Clock, realClock } from '../util/clock.js';
import {
  type StaticToken,
  staticTokenAuthenticator,
  type TokenAuthenticator,
} from './authentication/bearer-tokens.js';
import { BrowserSessions } from './authentication/browser-sessions.js';
import { ComponentTokens } from './authentication/component-tokens.js';
import {
  type AuthenticationRequest,
  authenticateRequest,
  type CredentialResult,
  type RequestAuthenticators,
} from './authentication/request-authenticator.js';
import { type RequestIdentity, setRequestIdentity } from './authentication/request-user.js';
import {
  DEFAULT_ISSUER,
  type ObjectLookup,
  type ServiceAccountKey,
  ServiceAccountTokenAuthenticator,
} from './authentication/serviceaccount/index.js';
import { cachedTokenAuthenticator } from './authentication/token-cache.js';
import { ADMIN, LOOPBACK } from './authentication/user.js';
import { authorizerChain, privilegedGroups, ruleResolverChain } from './authorization/chain.js';
import { forbiddenError } from './authorization/forbidden.js';
import { impersonate, stripImpersonationHeaders } from './authorization/impersonation.js';
import { RbacAuthorizer } from './authorization/rbac/authorizer.js';
import { PolicyIndex } from './authorization/rbac/policy-index.js';
import { requestAttributes } from './authorization/request-attributes.js';
import type {
  Attributes,
  AuthorizationResult,
  Authorizer,
  RuleResolver,
} from './authorization/types.js';
import type { ReviewServices } from './handlers/reviews.js';
import type { RequestInfo } from './request-info.js';

export interface AccessControlOptions {
  readonly backend: Backend;
  /** The kubeconfig's token (`kubernetes-admin`, in `system:masters`). */
  readonly adminToken: string;
  /** The API server's own token (`system:apiserver`, in `system:masters`). */
  readonly loopbackToken: string;
  /** Token authenticators after the static ones: ServiceAccount JWTs. */
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  /** Client certificates (`authentication/client-cert.ts`); absent: none are asked for. */
  readonly clientCertificate?: (req: AuthenticationRequest) => CredentialResult;
  readonly clock?: Clock;
  /** Authorizers between `system:masters` and RBAC (the node authorizer). */
  readonly authorizers?: readonly Authorizer[];
  /** `--authorization-mode`: RBAC (the default) or AlwaysAllow (every authenticated user). */
  readonly mode?: 'RBAC' | 'AlwaysAllow';
  /** ServiceAccount tokens: the signing key and `--service-account-issuer`. */
  readonly serviceAccounts?: { readonly key: ServiceAccountKey; readonly issuer?: string };
  /** Reads ServiceAccounts and what tokens are bound to (the server supplies it). */
  readonly lookup?: ObjectLookup;
}

/** What TokenRequest needs to issue a ServiceAccount token. */
export interface TokenIssuer {
  readonly key: ServiceAccountKey;
  readonly issuer: string;
  /** `--api-audiences`: the issuer, as kube-apiserver's default. */
  readonly apiAudiences: readonly string[];
  readonly lookup: ObjectLookup;
}

/** What {@link AccessControl.identify} answers. */
export type Identified =
  | { readonly identity: RequestIdentity }
  | { readonly refused: StatusError; readonly plainTextBody?: string };

const ALWAYS_ALLOW: Authorizer = {
  authorize: () => ({ decision: 'Allow', reason: '' }),
};

export class AccessControl implements ReviewServices {
  /** The components' credentials, made by `fleetyard up` for the controller thread. */
  readonly componentTokens = new ComponentTokens();
  /** The dashboard's browser sessions (cookies from one-time login links). */
  readonly sessions = new BrowserSessions();
  readonly authorizer: Authorizer;
  readonly rules: RuleResolver;
  readonly rbac: RbacAuthorizer;
  readonly #policy: PolicyIndex;
  readonly #authenticators: RequestAuthenticators;
  readonly tokenAuthenticators: readonly TokenAuthenticator[];
  readonly apiAudiences: readonly string[];
  /** Present when ServiceAccount tokens are configured. */
  readonly tokenIssuer: TokenIssuer | undefined;

  constructor(options: AccessControlOptions) {
    const statics: StaticToken[] = [
      { token: options.adminToken, user: ADMIN },
      { token: options.loopbackToken, user: LOOPBACK },
    ];
    const sa = options.serviceAccounts;
    const issuer = sa?.issuer ?? DEFAULT_ISSUER;
    this.apiAudiences = [issuer];
    this.tokenIssuer =
      sa === undefined || options.lookup === undefined
        ? undefined
        : { key: sa.key, issuer, apiAudiences: this.apiAudiences, lookup: options.lookup };
    const serviceAccountTokens =
      sa === undefined || options.lookup === undefined
        ? []
        : [
            cachedTokenAuthenticator(
              new ServiceAccountTokenAuthenticator({
                issuers: [issuer],
                apiAudiences: this.apiAudiences,
                keys: [sa.key],
                lookup: options.lookup,
                clock: options.clock ?? realClock,
              }),
              // Wall time, as upstream's cache, and the cluster's (token-cache.ts).
              [realClock, options.clock ?? realClock],
            ),
          ];
    this.tokenAuthenticators = [
      staticTokenAuthenticator(statics, this.apiAudiences),
      this.componentTokens,
      ...serviceAccountTokens,
      ...(options.tokenAuthenticators ?? []),
    ];
    this.#authenticators = {
      ...(options.clientCertificate ? { clientCertificate: options.clientCertificate } : {}),
      tokens: this.tokenAuthenticators,
      session: (req) => this.sessions.authenticate(req),
    };
    this.#policy = PolicyIndex.fromBackend(options.backend);
    this.rbac = new RbacAuthorizer(this.#policy);
    const last = options.mode === 'AlwaysAllow' ? ALWAYS_ALLOW : this.rbac;
    this.authorizer = authorizerChain([privilegedGroups(), ...(options.authorizers ?? []), last]);
    this.rules = ruleResolverChain([this.rbac]);
  }

  /**
   * Whether the request authenticated as the server's own client: the loopback token or an
   * embedded component's (judged on the authenticated user, not an impersonated one).
   */
  isInternal(identity: RequestIdentity): boolean {
    const authenticated = identity.impersonator ?? identity.user;
    return authenticated === LOOPBACK || this.componentTokens.issued(authenticated);
  }

  /** Authenticates `req` and applies its impersonation headers; records the identity on it. */
  async identify(req: IncomingMessage, requestUri: string): Promise<Identified> {
    const authn = await authenticateRequest(req, this.#authenticators);
    if ('error' in authn) return { refused: unauthorized() };
    const requester = authn.user;
    const switched = impersonate(req.headersDistinct, requester, this.authorizer, requestUri);
    let identity: RequestIdentity = { user: requester };
    if (switched !== undefined) {
      if ('error' in switched) {
        return {
          refused: switched.error,
          ...(switched.plainTextBody !== undefined
            ? { plainTextBody: switched.plainTextBody }
            : {}),
        };
      }
      stripImpersonationHeaders(req.headers);
      identity = { user: switched.user, impersonator: requester };
    }
    setRequestIdentity(req, identity);
    return { identity };
  }

  /**
   * Authorizes the request `info` for `identity`: the chain's answer, and upstream's 403 when
   * it is not an Allow.
   */
  authorizeRequest(
    identity: RequestIdentity,
    info: RequestInfo,
    method: string,
    query: URLSearchParams,
  ): { readonly result: AuthorizationResult; readonly denied?: StatusError } {
    const attributes = requestAttributes(identity.user, info, method, query);
    const result = this.authorizer.authorize(attributes);
    if (result.decision === 'Allow') return { result };
    return { result, denied: forbiddenError(attributes, result.reason) };
  }

  authorize(attributes: Attributes): AuthorizationResult {
    return this.authorizer.authorize(attributes);
  }

  stop(): void {
    this.#policy.stop();
  }
}

/** A 403 for attributes the chain did not allow (handlers that check a second verb). */
export function requireAllowed(authorizer: Authorizer, attributes: Attributes): void {
  const result = authorizer.authorize(attributes);
  if (result.decision !== 'Allow') throw forbiddenError(attributes, result.reason);
}
