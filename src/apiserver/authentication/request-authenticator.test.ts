import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import {
  type PresentedToken,
  presentedToken,
  removePresentedToken,
  staticTokenAuthenticator,
  type TokenAuthenticator,
} from './bearer-tokens.js';
import {
  type AuthenticationResult,
  authenticateRequest,
  type CredentialResult,
  withAuthenticatedGroup,
} from './request-authenticator.js';
import { ADMIN, ANONYMOUS, LOOPBACK, type UserInfo } from './user.js';

const ADMIN_TOKEN = 'a'.repeat(43);
const LOOPBACK_TOKEN = 'l'.repeat(43);
const jane: UserInfo = { username: 'jane', groups: ['dev'] };
const saUser: UserInfo = {
  username: 'system:serviceaccount:ns:sa',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'],
};

const statics = staticTokenAuthenticator([
  { token: ADMIN_TOKEN, user: ADMIN },
  { token: LOOPBACK_TOKEN, user: LOOPBACK },
]);
const serviceAccounts: TokenAuthenticator = {
  authenticate: async (token) => {
    if (token === 'sa-good') return saUser;
    if (token === 'sa-gone') return new Error('pod "p" not found');
    return undefined;
  },
};

function ws(token: string, others = 'v5.channel.k8s.io'): IncomingHttpHeaders {
  const encoded = Buffer.from(token).toString('base64url');
  return {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-protocol': `${others}${others ? ', ' : ''}base64url.bearer.authorization.k8s.io.${encoded}`,
  };
}

const cases: {
  name: string;
  headers: IncomingHttpHeaders;
  cert?: CredentialResult;
  anonymous?: boolean;
  want: (r: AuthenticationResult) => void;
}[] = [
  {
    name: 'the admin token: ADMIN, system:authenticated not doubled',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    want: (r) => assert.deepEqual('user' in r && r.user, ADMIN),
  },
  {
    name: 'the scheme in any case',
    headers: { authorization: `bEaReR ${LOOPBACK_TOKEN}` },
    want: (r) => assert.deepEqual('user' in r && r.user, LOOPBACK),
  },
  {
    name: 'a service account token after the static ones',
    headers: { authorization: 'Bearer sa-good' },
    want: (r) => assert.deepEqual('user' in r && r.user, saUser),
  },
  {
    name: 'a refused token: 401 with its reason',
    headers: { authorization: 'Bearer sa-gone' },
    want: (r) => assert.deepEqual(r, { error: 'unauthorized', reasons: ['pod "p" not found'] }),
  },
  {
    name: 'an unknown token: 401, never anonymous',
    headers: { authorization: 'Bearer whatever' },
    want: (r) => assert.deepEqual(r, { error: 'unauthorized', reasons: ['invalid bearer token'] }),
  },
  {
    name: 'an empty bearer token counts as none: anonymous',
    headers: { authorization: 'Bearer ' },
    want: (r) => assert.deepEqual(r, { anonymous: true, user: ANONYMOUS }),
  },
  {
    name: 'another scheme counts as none: anonymous',
    headers: { authorization: 'Basic YTpi' },
    want: (r) => assert.deepEqual(r, { anonymous: true, user: ANONYMOUS }),
  },
  {
    name: 'nothing presented with --anonymous-auth=false: 401',
    headers: {},
    anonymous: false,
    want: (r) => assert.equal('error' in r && r.error, 'unauthorized'),
  },
  {
    name: 'a certificate user is asked first and gets system:authenticated',
    headers: { authorization: 'Bearer whatever' },
    cert: { user: jane },
    want: (r) =>
      assert.deepEqual(r, {
        user: { username: 'jane', groups: ['dev', 'system:authenticated'] },
        via: 'x509',
      }),
  },
  {
    name: 'a refused certificate and an unknown token: both reasons',
    headers: { authorization: 'Bearer whatever' },
    cert: new Error('x509: certificate signed by unknown authority'),
    want: (r) =>
      assert.deepEqual(r, {
        error: 'unauthorized',
        reasons: ['x509: certificate signed by unknown authority', 'invalid bearer token'],
      }),
  },
  {
    name: 'a WebSocket token protocol',
    headers: ws(ADMIN_TOKEN),
    want: (r) => assert.equal('via' in r && r.token?.via, 'websocket'),
  },
  {
    name: 'a WebSocket token protocol alone: 401 (nothing left to echo)',
    headers: ws(ADMIN_TOKEN, ''),
    want: (r) =>
      assert.deepEqual(r, { error: 'unauthorized', reasons: ['missing additional subprotocol'] }),
  },
  {
    name: 'a WebSocket token protocol that is not base64url: 401',
    headers: {
      ...ws(''),
      'sec-websocket-protocol': 'v5.channel.k8s.io, base64url.bearer.authorization.k8s.io.a+b=',
    },
    want: (r) =>
      assert.deepEqual(r, {
        error: 'unauthorized',
        reasons: ['invalid base64.bearer.authorization token encoding'],
      }),
  },
  {
    name: 'a token protocol without a WebSocket upgrade is ignored',
    headers: { 'sec-websocket-protocol': ws(ADMIN_TOKEN)['sec-websocket-protocol'] },
    want: (r) => assert.equal('anonymous' in r, true),
  },
];

describe('authenticateRequest', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const r = await authenticateRequest(
        { headers: c.headers, socket: new Socket() },
        {
          ...(c.cert === undefined ? {} : { clientCertificate: () => c.cert }),
          tokens: [statics, serviceAccounts],
          ...(c.anonymous === undefined ? {} : { anonymous: c.anonymous }),
        },
      );
      c.want(r);
    });
  }
});

describe('withAuthenticatedGroup', () => {
  const table: [UserInfo, readonly string[]][] = [
    [jane, ['dev', 'system:authenticated']],
    [{ username: 'root', groups: ['system:masters'] }, ['system:masters', 'system:authenticated']],
    [ANONYMOUS, ['system:unauthenticated']],
    [{ username: 'x', groups: ['system:unauthenticated'] }, ['system:unauthenticated']],
    [ADMIN, ADMIN.groups],
  ];
  for (const [user, groups] of table) {
    it(`${user.username} [${user.groups.join(',')}]`, () => {
      assert.deepEqual(withAuthenticatedGroup(user).groups, groups);
    });
  }
});

describe('removePresentedToken', () => {
  it('removes the Authorization header, or the token protocol only', () => {
    const plain: IncomingHttpHeaders = { authorization: 'Bearer x', accept: '*/*' };
    removePresentedToken(plain, presentedToken(plain) as PresentedToken);
    assert.deepEqual(plain, { accept: '*/*' });
    const socket = ws('t', 'v5.channel.k8s.io, v4.channel.k8s.io');
    const presented = presentedToken(socket);
    assert.ok(presented !== undefined && !(presented instanceof Error));
    removePresentedToken(socket, presented);
    assert.equal(socket['sec-websocket-protocol'], 'v5.channel.k8s.io,v4.channel.k8s.io');
  });
});

describe('staticTokenAuthenticator', () => {
  it('matches whole tokens only, never an empty one', () => {
    const a = staticTokenAuthenticator([{ token: ADMIN_TOKEN, user: ADMIN }]);
    assert.deepEqual(a.authenticate(ADMIN_TOKEN), { user: ADMIN });
    for (const t of ['', ADMIN_TOKEN.slice(1), `${ADMIN_TOKEN}a`, 'b'.repeat(43)]) {
      assert.equal(a.authenticate(t), undefined, t);
    }
  });
  it('holds for the API audiences only', () => {
    const a = staticTokenAuthenticator([{ token: ADMIN_TOKEN, user: ADMIN }], ['api']);
    assert.deepEqual(a.authenticate(ADMIN_TOKEN, ['x', 'api']), {
      user: ADMIN,
      audiences: ['api'],
    });
    assert.equal(a.authenticate(ADMIN_TOKEN, ['x']), undefined);
  });
});
