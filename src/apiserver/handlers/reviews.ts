/**
 * The access reviews (`POST` only, never stored): TokenReview and SelfSubjectReview
 * (`authentication.k8s.io/v1`), SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview and SelfSubjectRulesReview (`authorization.k8s.io/v1`). Each answers
 * 201 with the object it was sent and its `status` filled in by the server's own
 * authenticators and authorizers, so `kubectl auth can-i`, `can-i --list` and `whoami` see what
 * the server enforces. A server without access control answers as upstream's AlwaysAllow.
 *
 * @module
 */
import { methodNotSupported, pathNotFound } from '../../api/errors.js';
import { asKind } from '../../api/model/index.js';
import { groupResource } from '../../api/resource.js';
import type { TokenAuthenticator } from '../authentication/bearer-tokens.js';
import { requestUser } from '../authentication/request-user.js';
import { selfSubjectReview } from '../authentication/self-subject-review.js';
import { reviewToken } from '../authentication/token-review.js';
import { ADMIN } from '../authentication/user.js';
import {
  localSubjectAccessReview,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  subjectAccessReview,
} from '../authorization/reviews/reviews.js';
import type { Authorizer, RuleResolver } from '../authorization/types.js';
import { decodeObjectBody, readBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { asObjectOf } from './object-body.js';

/** What the reviews ask of the server's access control. */
export interface ReviewServices {
  readonly authorizer: Authorizer;
  readonly rules: RuleResolver;
  readonly tokenAuthenticators: readonly TokenAuthenticator[];
  /** `--api-audiences` (the ServiceAccount issuer by default). */
  readonly apiAudiences: readonly string[];
}

/** Without access control every request is allowed: upstream's `AlwaysAllow` answers. */
const ALWAYS_ALLOW: ReviewServices = {
  authorizer: { authorize: () => ({ decision: 'Allow', reason: '' }) },
  rules: {
    rulesFor: () => ({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    }),
  },
  tokenAuthenticators: [],
  apiAudiences: [],
};

export async function handleReview(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, info } = call;
  if (info.verb !== 'create') throw methodNotSupported(groupResource(def), info.verb);
  if (info.name !== '') throw pathNotFound();
  const access = api.reviews ?? ALWAYS_ALLOW;
  const raw = await decodeObjectBody(await readBody(call.req), call.req.headers['content-type']);
  const body = asObjectOf(def, raw);
  // As upstream's create handler: a namespaced review is in the URL's namespace, a
  // cluster-scoped one in none (a namespace in its metadata is then refused as not empty).
  const meta = { ...body.metadata };
  if (def.namespaced) meta.namespace = info.namespace;
  body.metadata = meta;
  const user = requestUser(call.req, ADMIN);
  const answer = await (async () => {
    switch (def.kind) {
      case 'TokenReview':
        return reviewToken(
          asKind(body, 'TokenReview'),
          { authenticators: access.tokenAuthenticators, apiAudiences: access.apiAudiences },
          info.namespace,
        );
      case 'SelfSubjectReview':
        return selfSubjectReview(user, api.clock.now());
      case 'SubjectAccessReview':
        return subjectAccessReview(asKind(body, 'SubjectAccessReview'), access.authorizer);
      case 'LocalSubjectAccessReview':
        return localSubjectAccessReview(
          asKind(body, 'LocalSubjectAccessReview'),
          info.namespace,
          access.authorizer,
        );
      case 'SelfSubjectAccessReview':
        return selfSubjectAccessReview(
          asKind(body, 'SelfSubjectAccessReview'),
          user,
          access.authorizer,
        );
      case 'SelfSubjectRulesReview':
        return selfSubjectRulesReview(asKind(body, 'SelfSubjectRulesReview'), user, access.rules);
      default:
        throw pathNotFound();
    }
  })();
  sendJson(call.res, 201, answer);
}
