/**
 * `authentication.k8s.io/v1` TokenReview (upstream `pkg/registry/authentication/tokenreview`):
 * a client (a webhook server, an aggregated API, a kubelet) asks whether a bearer token is valid
 * and whose it is. The token goes through the same token authenticators as a request's
 * `Authorization: Bearer` header, for the audiences in `spec.audiences` (the API server's own
 * when empty). An invalid token is not an error of the review: the answer says
 * `authenticated` false (omitted, as Go's `omitempty` writes it) and why in `status.error`.
 *
 * @module
 */
import { badRequest, internalError } from '../../api/errors.js';
import type { TokenReview, TokenReviewStatus } from '../../api/model/index.js';
import { bearerTokenFrom } from '../../security/token.js';
import { aggregateMessage, authenticateToken, type TokenAuthenticator } from './bearer-tokens.js';
import { withAuthenticatedGroup } from './request-authenticator.js';
import { ANONYMOUS, type UserInfo } from './user.js';

export interface TokenReviewOptions {
  /** The token authenticators of the request chain, in its order. */
  readonly authenticators: readonly TokenAuthenticator[];
  /** `--api-audiences` (by default the service-account issuer): used when the spec names none. */
  readonly apiAudiences: readonly string[];
  /** `--anonymous-auth` (default true); see the whitespace quirk in {@link reviewToken}. */
  readonly anonymous?: boolean;
}

/**
 * Answers a TokenReview: the request object with `status` filled. Throws upstream's 400s for a
 * namespace (`namespace` is the request path's; the resource is cluster-scoped) or an empty
 * token, and its 500 when an authenticator accepts a token for none of the audiences asked.
 *
 * Upstream authenticates `Authorization: Bearer <token>` through the whole request chain, so a
 * token its header parsing reads as empty (one starting with a space) is an anonymous request
 * and reviews as authenticated `system:anonymous`: kept, as a client would see it.
 */
export async function reviewToken(
  review: TokenReview,
  options: TokenReviewOptions,
  namespace = '',
): Promise<TokenReview> {
  if (namespace !== '') {
    throw badRequest(`namespace is not allowed on this type: ${namespace}`);
  }
  const raw = review.spec?.token ?? '';
  if (raw === '') throw badRequest('token is required for TokenReview in authentication.k8s.io');
  const requested = review.spec.audiences ?? [];
  const audiences = requested.length > 0 ? requested : options.apiAudiences;
  const token = bearerTokenFrom(`Bearer ${raw}`);
  if (token === undefined) {
    const status: TokenReviewStatus =
      options.anonymous === false
        ? { user: {} }
        : { authenticated: true, user: modelUser(ANONYMOUS) };
    return { ...review, status };
  }
  const result = await authenticateToken(
    token,
    options.authenticators,
    audiences.length > 0 ? audiences : undefined,
  );
  if (!('user' in result)) {
    return { ...review, status: { user: {}, error: aggregateMessage(result.errors) } };
  }
  const status: TokenReviewStatus = {
    authenticated: true,
    user: modelUser(withAuthenticatedGroup(result.user)),
  };
  // An audience-agnostic answer (no audiences) holds for every audience asked.
  const valid = result.audiences ?? audiences;
  if (audiences.length > 0) {
    const common = audiences.filter((a) => valid.includes(a));
    if (common.length === 0) throw internalError('error validating audiences');
    status.audiences = common;
  }
  return { ...review, status };
}

/** The wire `UserInfo` of a user, with Go's `omitempty` (no empty uid, groups or extra). */
export function modelUser(user: UserInfo): NonNullable<TokenReviewStatus['user']> {
  const out: NonNullable<TokenReviewStatus['user']> = {};
  if (user.username !== '') out.username = user.username;
  if (user.uid !== undefined && user.uid !== '') out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  const extra = Object.entries(user.extra ?? {});
  if (extra.length > 0) out.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  return out;
}
