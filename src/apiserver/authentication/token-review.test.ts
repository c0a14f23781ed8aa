import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TokenReview } from '../../api/model/index.js';
import type { TokenAuthenticator } from './bearer-tokens.js';
import { staticTokenAuthenticator } from './bearer-tokens.js';
import { selfSubjectReview } from './self-subject-review.js';
import { reviewToken } from './token-review.js';
import { ADMIN, type UserInfo } from './user.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const ADMIN_TOKEN = 'a'.repeat(43);
const sa: UserInfo = {
  username: 'system:serviceaccount:default:builder',
  uid: 'u-1',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
  extra: { 'authentication.kubernetes.io/credential-id': ['JTI=abc'] },
};

/** A JWT-like authenticator: `sa.<aud>` tokens are valid for audience `<aud>` only. */
const jwt: TokenAuthenticator = {
  authenticate(token, audiences = [ISSUER]) {
    if (token === 'sa.expired') return { ok: false, error: 'service account token has expired' };
    if (!token.startsWith('sa.')) return undefined;
    const aud = token.slice(3);
    if (!audiences.includes(aud)) return new Error('token audiences ["x"] is invalid');
    return { user: sa, audiences: [aud] };
  },
};

const options = {
  authenticators: [staticTokenAuthenticator([{ token: ADMIN_TOKEN, user: ADMIN }], [ISSUER]), jwt],
  apiAudiences: [ISSUER],
};

function review(token: string | undefined, audiences?: string[]): TokenReview {
  return {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    spec: { ...(token === undefined ? {} : { token }), ...(audiences ? { audiences } : {}) },
  };
}

describe('reviewToken', () => {
  const cases: { name: string; req: TokenReview; want: TokenReview['status'] }[] = [
    {
      name: 'the admin token, for the API audiences',
      req: review(ADMIN_TOKEN),
      want: {
        authenticated: true,
        user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
        audiences: [ISSUER],
      },
    },
    {
      name: 'the admin token asked for another audience: not valid there',
      req: review(ADMIN_TOKEN, ['vault']),
      want: { user: {}, error: 'invalid bearer token' },
    },
    {
      name: 'a service account token for its audience',
      req: review('sa.vault', ['vault', 'other']),
      want: {
        authenticated: true,
        user: {
          username: 'system:serviceaccount:default:builder',
          uid: 'u-1',
          groups: [
            'system:serviceaccounts',
            'system:serviceaccounts:default',
            'system:authenticated',
          ],
          extra: { 'authentication.kubernetes.io/credential-id': ['JTI=abc'] },
        },
        audiences: ['vault'],
      },
    },
    {
      name: 'an unknown token: upstream default error, user {} always written',
      req: review('nope'),
      want: { user: {}, error: 'invalid bearer token' },
    },
    {
      name: 'a refused token: the authenticator message',
      req: review('sa.expired'),
      want: { user: {}, error: 'service account token has expired' },
    },
    {
      name: 'a token starting with a space: anonymous, as upstream header parsing makes it',
      req: review(' x'),
      want: {
        authenticated: true,
        user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const got = await reviewToken(c.req, options);
      assert.deepEqual(got, { ...c.req, status: c.want });
    });
  }

  it('several refusals are aggregated as Go prints them', async () => {
    const refuse = (m: string): TokenAuthenticator => ({ authenticate: () => new Error(m) });
    const got = await reviewToken(review('t'), {
      authenticators: [refuse('a'), refuse('b'), refuse('a')],
      apiAudiences: [],
    });
    assert.equal(got.status?.error, '[a, b]');
  });

  const errors: { name: string; run: () => Promise<unknown>; code: number; message: string }[] = [
    {
      name: 'no token',
      run: () => reviewToken(review(undefined), options),
      code: 400,
      message: 'token is required for TokenReview in authentication.k8s.io',
    },
    {
      name: 'a namespace',
      run: () => reviewToken(review('x'), options, 'default'),
      code: 400,
      message: 'namespace is not allowed on this type: default',
    },
    {
      name: 'accepted for none of the audiences',
      run: () =>
        reviewToken(review('t', ['x']), {
          authenticators: [{ authenticate: () => ({ user: sa, audiences: ['y'] }) }],
          apiAudiences: [],
        }),
      code: 500,
      message: 'Internal error occurred: error validating audiences',
    },
  ];
  for (const e of errors) {
    it(`refuses ${e.name}`, async () => {
      await assert.rejects(e.run(), (err: { code: number; message: string }) => {
        assert.equal(err.code, e.code);
        assert.equal(err.message, e.message);
        return true;
      });
    });
  }
});

describe('selfSubjectReview', () => {
  it('is the requester, stamped with the request time, empty fields omitted', () => {
    assert.deepEqual(selfSubjectReview(ADMIN, Date.UTC(2026, 11, 2, 5, 0, 0, 750)), {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: '2026-12-02T05:00:00Z' },
      status: {
        userInfo: {
          username: 'kubernetes-admin',
          groups: ['system:masters', 'system:authenticated'],
        },
      },
    });
  });

  it('keeps uid and extra', () => {
    assert.deepEqual(selfSubjectReview(sa, 0).status?.userInfo, {
      username: sa.username,
      uid: 'u-1',
      groups: sa.groups,
      extra: sa.extra,
    });
  });
});
