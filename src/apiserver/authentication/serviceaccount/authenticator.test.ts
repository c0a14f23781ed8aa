import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/object.js';
import {
  type LookupResource,
  type ObjectLookup,
  type ServiceAccountAuthResult,
  ServiceAccountTokenAuthenticator,
} from './authenticator.js';
import { boundClaims, claimsPayload, DEFAULT_ISSUER } from './claims.js';
import { signJws } from './jwt.js';
import { inMemoryServiceAccountKey, publicKeyFrom, serviceAccountKeyFrom } from './keys.js';
import { signLegacyToken } from './legacy-token.js';
import { issueTokenRequest } from './token-request.js';

const key = inMemoryServiceAccountKey();
const T0 = Date.parse('2026-03-01T10:00:00Z');

/** An in-memory cluster: what the lead wires to the store. */
class Objects implements ObjectLookup {
  readonly #items = new Map<string, KubeObject>();
  get(resource: LookupResource, namespace: string, name: string): KubeObject | undefined {
    return this.#items.get(`${resource}/${namespace}/${name}`);
  }
  put(resource: LookupResource, obj: KubeObject): KubeObject {
    const m = obj.metadata ?? {};
    this.#items.set(`${resource}/${m.namespace ?? ''}/${m.name ?? ''}`, obj);
    return obj;
  }
  remove(resource: LookupResource, namespace: string, name: string): void {
    this.#items.delete(`${resource}/${namespace}/${name}`);
  }
}

function setup() {
  const objects = new Objects();
  let now = T0;
  const clock = { now: () => now };
  const auth = new ServiceAccountTokenAuthenticator({
    keys: [publicKeyFrom(key.publicKey)],
    lookup: objects,
    clock,
  });
  objects.put('serviceaccounts', { metadata: { name: 'robot', namespace: 'team', uid: 'sa-1' } });
  objects.put('nodes', { metadata: { name: 'node-a', uid: 'node-1' } });
  objects.put('pods', {
    metadata: { name: 'web', namespace: 'team', uid: 'pod-1' },
    spec: { serviceAccountName: 'robot', nodeName: 'node-a' },
  });
  objects.put('secrets', { metadata: { name: 'cred', namespace: 'team', uid: 'secret-1' } });
  const issue = (spec: Record<string, unknown> = {}) =>
    issueTokenRequest({
      namespace: 'team',
      name: 'robot',
      serviceAccount: objects.get('serviceaccounts', 'team', 'robot'),
      request: { spec: { audiences: [], ...spec } },
      lookup: objects,
      clock,
      key,
      issuer: DEFAULT_ISSUER,
      apiAudiences: [DEFAULT_ISSUER],
      newJti: () => 'jti-1',
    }).response.status?.token ?? '';
  return { objects, auth, issue, advance: (ms: number) => (now += ms) };
}

function user(r: ServiceAccountAuthResult | undefined) {
  assert.ok(r?.ok, r && !r.ok ? r.error : 'not ours');
  return r.user;
}
function error(r: ServiceAccountAuthResult | undefined): string {
  assert.ok(r !== undefined && !r.ok, 'accepted');
  return r.error;
}

describe('ServiceAccountTokenAuthenticator: bound tokens', () => {
  it('authenticates a token as its ServiceAccount, as upstream names it', () => {
    const { auth, issue } = setup();
    assert.deepEqual(user(auth.authenticate(issue())), {
      username: 'system:serviceaccount:team:robot',
      uid: 'sa-1',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': ['JTI=jti-1'] },
    });
  });

  it('adds the pod and its node for a pod-bound token', () => {
    const { auth, issue } = setup();
    const token = issue({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } });
    assert.deepEqual(user(auth.authenticate(token)).extra, {
      'authentication.kubernetes.io/pod-name': ['web'],
      'authentication.kubernetes.io/pod-uid': ['pod-1'],
      'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
      'authentication.kubernetes.io/node-name': ['node-a'],
      'authentication.kubernetes.io/node-uid': ['node-1'],
    });
  });

  it('expires at exp, after upstream 60 s leeway, on the injected clock', () => {
    const { auth, issue, advance } = setup();
    const token = issue({ expirationSeconds: 600 });
    advance(600_000 + 60_000);
    user(auth.authenticate(token));
    advance(1000);
    assert.equal(error(auth.authenticate(token)), 'service account token has expired');
  });

  it('is not valid before nbf (beyond the leeway)', () => {
    const { auth, issue, advance } = setup();
    const token = issue();
    advance(-61_000);
    assert.equal(error(auth.authenticate(token)), 'service account token is not valid yet');
  });

  it('rejects a token for other audiences, accepts it when they are asked for', () => {
    const { auth, issue } = setup();
    const token = issue({ audiences: ['vault'] });
    assert.equal(
      error(auth.authenticate(token)),
      `token audiences ["vault"] is invalid for the target audiences ["${DEFAULT_ISSUER}"]`,
    );
    const ok = auth.authenticate(token, ['vault', 'other']);
    assert.ok(ok?.ok);
    assert.deepEqual(ok.audiences, ['vault']);
  });

  it('reads a single-string aud, as go-jose does', () => {
    const { auth } = setup();
    const token = signJws(key, { ...claimsPayload(claims({})), aud: DEFAULT_ISSUER });
    assert.deepEqual(auth.authenticate(token)?.ok, true);
  });

  it('reports seconds past warnafter of an extended pod token, still accepting it', () => {
    const { auth, issue, advance } = setup();
    const token = issue({
      expirationSeconds: 3607,
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
    });
    const fresh = auth.authenticate(token);
    assert.ok(fresh?.ok);
    assert.equal(fresh.staleSeconds, undefined);
    advance(3607_000 + 10_000);
    const stale = auth.authenticate(token);
    assert.ok(stale?.ok);
    assert.equal(stale.staleSeconds, 10);
  });

  const lifecycle: {
    name: string;
    bound?: Record<string, string>;
    change: (o: Objects) => void;
    want: string | 'ok';
  }[] = [
    {
      name: 'ServiceAccount deleted',
      change: (o) => o.remove('serviceaccounts', 'team', 'robot'),
      want: 'serviceaccounts "robot" not found',
    },
    {
      name: 'ServiceAccount recreated with a new uid',
      change: (o) => {
        o.put('serviceaccounts', { metadata: { name: 'robot', namespace: 'team', uid: 'sa-2' } });
      },
      want: 'service account UID (sa-2) does not match claim (sa-1)',
    },
    {
      name: 'ServiceAccount being deleted for over a minute',
      change: (o) => setDeleted(o, 'serviceaccounts', 'team', 'robot', 61),
      want: 'service account team/robot has been deleted',
    },
    {
      name: 'bound pod deleted',
      bound: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
      change: (o) => o.remove('pods', 'team', 'web'),
      want: 'service account token has been invalidated',
    },
    {
      name: 'bound pod terminating for over a minute',
      bound: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
      change: (o) => setDeleted(o, 'pods', 'team', 'web', 61),
      want: 'service account token has been invalidated',
    },
    {
      name: 'bound pod terminating for 30 s: still valid (upstream leeway)',
      bound: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
      change: (o) => setDeleted(o, 'pods', 'team', 'web', 30),
      want: 'ok',
    },
    {
      name: 'bound pod recreated',
      bound: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
      change: (o) => {
        o.put('pods', { metadata: { name: 'web', namespace: 'team', uid: 'pod-2' } });
      },
      want: 'pod UID (pod-2) does not match service account pod ref claim (pod-1)',
    },
    {
      name: "a pod-bound token's node deleted: still valid (information only)",
      bound: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
      change: (o) => o.remove('nodes', '', 'node-a'),
      want: 'ok',
    },
    {
      name: 'bound secret deleted',
      bound: { kind: 'Secret', apiVersion: 'v1', name: 'cred' },
      change: (o) => o.remove('secrets', 'team', 'cred'),
      want: 'service account token has been invalidated',
    },
    {
      name: 'bound secret recreated',
      bound: { kind: 'Secret', apiVersion: 'v1', name: 'cred' },
      change: (o) => {
        o.put('secrets', { metadata: { name: 'cred', namespace: 'team', uid: 'secret-2' } });
      },
      want: 'secret UID (secret-2) does not match service account secret ref claim (secret-1)',
    },
    {
      name: 'bound node deleted',
      bound: { kind: 'Node', apiVersion: 'v1', name: 'node-a' },
      change: (o) => o.remove('nodes', '', 'node-a'),
      want: 'service account token has been invalidated',
    },
    {
      name: 'bound node recreated',
      bound: { kind: 'Node', apiVersion: 'v1', name: 'node-a' },
      change: (o) => {
        o.put('nodes', { metadata: { name: 'node-a', uid: 'node-2' } });
      },
      want: 'node UID (node-2) does not match service account node ref claim (node-1)',
    },
  ];
  for (const c of lifecycle) {
    it(`${c.name}: ${c.want === 'ok' ? 'accepted' : 'rejected'}`, () => {
      const { auth, issue, objects } = setup();
      const token = issue(c.bound ? { boundObjectRef: c.bound } : {});
      user(auth.authenticate(token));
      c.change(objects);
      const r = auth.authenticate(token);
      if (c.want === 'ok') user(r);
      else assert.equal(error(r), c.want);
    });
  }

  it('leaves tokens that are not ours to other authenticators', () => {
    const { auth } = setup();
    const foreign = signJws(key, claimsPayload(claims({ issuer: 'https://elsewhere' })));
    for (const t of ['', 'abc', 'a.b.c', '{"iss":"x"}', foreign, `x.${'A'.repeat(20_000)}.y`]) {
      assert.equal(auth.authenticate(t), undefined, t.slice(0, 30));
    }
  });

  it('rejects our issuer signed by another key, and a kid-less forgery', () => {
    const { auth } = setup();
    const other = serviceAccountKeyFrom(
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
    );
    const forged = signJws(other, claimsPayload(claims({})));
    assert.equal(error(auth.authenticate(forged)), 'invalid signature, no keys found');
  });
});

describe('ServiceAccountTokenAuthenticator: legacy Secret tokens', () => {
  function legacySetup() {
    const s = setup();
    const token = signLegacyToken(key, 'team', { name: 'robot', uid: 'sa-1' }, 'robot-token');
    s.objects.put('secrets', {
      metadata: { name: 'robot-token', namespace: 'team', uid: 'st-1' },
      type: 'kubernetes.io/service-account-token',
      data: { token: Buffer.from(token).toString('base64') },
    });
    return { ...s, token };
  }

  it('authenticates while the Secret holds the token and the ServiceAccount exists', () => {
    const { auth, token, advance } = legacySetup();
    advance(5 * 365 * 86_400_000); // no expiry
    const r = auth.authenticate(token);
    assert.ok(r?.ok);
    assert.equal(r.user.username, 'system:serviceaccount:team:robot');
    assert.equal(r.user.extra, undefined);
    assert.deepEqual(r.legacySecret, { namespace: 'team', name: 'robot-token' });
  });

  const cases: { name: string; change: (o: Objects) => void; want: string }[] = [
    {
      name: 'Secret deleted',
      change: (o) => o.remove('secrets', 'team', 'robot-token'),
      want: 'Token has been invalidated',
    },
    {
      name: 'Secret being deleted',
      change: (o) => setDeleted(o, 'secrets', 'team', 'robot-token', 1),
      want: 'Token has been invalidated',
    },
    {
      name: 'Secret holds another token',
      change: (o) => {
        o.put('secrets', {
          metadata: { name: 'robot-token', namespace: 'team' },
          data: { token: Buffer.from('other').toString('base64') },
        });
      },
      want: "Token does not match server's copy",
    },
    {
      name: 'ServiceAccount deleted',
      change: (o) => o.remove('serviceaccounts', 'team', 'robot'),
      want: 'serviceaccounts "robot" not found',
    },
    {
      name: 'ServiceAccount recreated',
      change: (o) => {
        o.put('serviceaccounts', { metadata: { name: 'robot', namespace: 'team', uid: 'sa-9' } });
      },
      want: 'ServiceAccount UID (sa-9) does not match claim (sa-1)',
    },
  ];
  for (const c of cases) {
    it(`rejects it when the ${c.name}`, () => {
      const { auth, token, objects } = legacySetup();
      c.change(objects);
      assert.equal(error(auth.authenticate(token)), c.want);
    });
  }

  it('is not ours when legacy tokens are off', () => {
    const { objects, token } = legacySetup();
    const auth = new ServiceAccountTokenAuthenticator({
      keys: [publicKeyFrom(key.publicKey)],
      lookup: objects,
      clock: { now: () => T0 },
      legacyTokens: false,
    });
    assert.equal(auth.authenticate(token), undefined);
  });
});

function claims(over: { issuer?: string }) {
  return boundClaims({
    issuer: over.issuer ?? DEFAULT_ISSUER,
    namespace: 'team',
    serviceAccount: { name: 'robot', uid: 'sa-1' },
    audiences: [DEFAULT_ISSUER],
    now: T0,
    expirationSeconds: 3600,
  });
}

function setDeleted(
  o: Objects,
  resource: LookupResource,
  namespace: string,
  name: string,
  secondsAgo: number,
): void {
  const obj = o.get(resource, namespace, name);
  assert.ok(obj);
  const deletionTimestamp = new Date(T0 - secondsAgo * 1000).toISOString();
  o.put(resource, { ...obj, metadata: { ...obj.metadata, deletionTimestamp } });
}
