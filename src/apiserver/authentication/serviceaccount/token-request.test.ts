import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../../api/errors.js';
import type { AuthenticationV1TokenRequest } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { LookupResource, ObjectLookup } from './authenticator.js';
import { DEFAULT_ISSUER } from './claims.js';
import { parseJws, verifyJws } from './jwt.js';
import { inMemoryServiceAccountKey, publicKeyFrom } from './keys.js';
import { type IssueTokenRequestOptions, issueTokenRequest } from './token-request.js';

const key = inMemoryServiceAccountKey();
const NOW = Date.parse('2026-03-01T10:00:00.750Z');
const SA: KubeObject = { metadata: { name: 'robot', namespace: 'team', uid: 'sa-1' } };
const OBJECTS: Record<string, KubeObject> = {
  'pods/team/web': {
    metadata: { name: 'web', namespace: 'team', uid: 'pod-1' },
    spec: { serviceAccountName: 'robot', nodeName: 'gone-node' },
  },
  'pods/team/other': {
    metadata: { name: 'other', namespace: 'team', uid: 'pod-2' },
    spec: { serviceAccountName: 'default' },
  },
  'secrets/team/cred': { metadata: { name: 'cred', namespace: 'team', uid: 'secret-1' } },
  'nodes//node-a': { metadata: { name: 'node-a', uid: 'node-1' } },
};
const lookup: ObjectLookup = {
  get: (r: LookupResource, ns: string, name: string) => OBJECTS[`${r}/${ns}/${name}`],
};

type Spec = Partial<AuthenticationV1TokenRequest['spec']>;
type Req = Omit<AuthenticationV1TokenRequest, 'spec'> & { spec?: Spec };

function issue(request: Req, over: Partial<IssueTokenRequestOptions> = {}) {
  return issueTokenRequest({
    namespace: 'team',
    name: 'robot',
    serviceAccount: SA,
    request: { ...request, spec: { audiences: [], ...request.spec } },
    lookup,
    clock: { now: () => NOW },
    key,
    issuer: DEFAULT_ISSUER,
    apiAudiences: [DEFAULT_ISSUER],
    newJti: () => '5b9cf3a8-0000-4000-8000-000000000001',
    ...over,
  });
}

function payloadOf(token: string) {
  const jws = parseJws(token);
  verifyJws(jws, [publicKeyFrom(key.publicKey)]);
  return jws.payload;
}

const NOW_S = Math.floor(NOW / 1000);

describe('issueTokenRequest', () => {
  it('defaults audiences and a one-hour expiry, and answers as upstream', () => {
    const { response, warnings, credentialId } = issue({});
    assert.deepEqual(warnings, []);
    assert.equal(credentialId, 'JTI=5b9cf3a8-0000-4000-8000-000000000001');
    const { status, ...rest } = response;
    assert.deepEqual(rest, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'robot', namespace: 'team', creationTimestamp: '2026-03-01T10:00:00Z' },
      spec: { audiences: [DEFAULT_ISSUER], expirationSeconds: 3600 },
    });
    assert.equal(status?.expirationTimestamp, '2026-03-01T11:00:00Z');
    assert.deepEqual(payloadOf(status?.token ?? ''), {
      aud: [DEFAULT_ISSUER],
      exp: NOW_S + 3600,
      iat: NOW_S,
      iss: DEFAULT_ISSUER,
      jti: '5b9cf3a8-0000-4000-8000-000000000001',
      'kubernetes.io': { namespace: 'team', serviceaccount: { name: 'robot', uid: 'sa-1' } },
      nbf: NOW_S,
      sub: 'system:serviceaccount:team:robot',
    });
  });

  it("binds to a pod, naming the pod's node without uid when the node is gone", () => {
    const token = issue({
      spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } },
    }).response.status?.token;
    assert.deepEqual(payloadOf(token ?? '')['kubernetes.io'], {
      namespace: 'team',
      node: { name: 'gone-node' },
      pod: { name: 'web', uid: 'pod-1' },
      serviceaccount: { name: 'robot', uid: 'sa-1' },
    });
  });

  it('extends a pod-bound 3607 s token to a year with warnafter, answering 3607 s', () => {
    const { response } = issue({
      spec: {
        expirationSeconds: 3607,
        boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
      },
    });
    const p = payloadOf(response.status?.token ?? '');
    assert.equal(p.exp, NOW_S + 365 * 86_400);
    assert.equal((p['kubernetes.io'] as { warnafter: number }).warnafter, NOW_S + 3607);
    assert.equal(response.status?.expirationTimestamp, '2026-03-01T11:00:07Z');
    const off = issue(
      {
        spec: {
          expirationSeconds: 3607,
          boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
        },
      },
      { extendExpiration: false },
    );
    assert.equal(payloadOf(off.response.status?.token ?? '').exp, NOW_S + 3607);
  });

  it('shortens to the maximum expiration with a warning', () => {
    const { response, warnings } = issue(
      { spec: { expirationSeconds: 86_400 } },
      { maxExpirationSeconds: 7200 },
    );
    assert.equal(response.spec.expirationSeconds, 7200);
    assert.deepEqual(warnings, ['requested expiration of 86400 seconds shortened to 7200 seconds']);
    assert.equal(payloadOf(response.status?.token ?? '').exp, NOW_S + 7200);
  });

  const errors: {
    name: string;
    request: Req;
    serviceAccount?: KubeObject | undefined;
    code: number;
    message: string;
    causes?: { field: string; reason: string }[];
  }[] = [
    {
      name: 'expirationSeconds 599',
      request: { spec: { expirationSeconds: 599 } },
      code: 422,
      message:
        'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      causes: [{ field: 'spec.expirationSeconds', reason: 'FieldValueInvalid' }],
    },
    {
      name: 'expirationSeconds over 2^32',
      request: { spec: { expirationSeconds: 2 ** 32 + 1 } },
      code: 422,
      message:
        'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    },
    {
      name: 'another name in the body',
      request: { metadata: { name: 'x' } },
      code: 422,
      message:
        'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified',
      causes: [{ field: 'metadata.name', reason: 'FieldValueInvalid' }],
    },
    {
      name: 'another namespace in the body',
      request: { metadata: { namespace: 'x' } },
      code: 422,
      message:
        'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.namespace: Invalid value: "x": must match the service account namespace if specified',
    },
    {
      name: 'no ServiceAccount',
      request: {},
      serviceAccount: undefined,
      code: 404,
      message: 'serviceaccounts "robot" not found',
    },
    {
      name: 'a missing pod',
      request: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'nope' } } },
      code: 404,
      message: 'pods "nope" not found',
    },
    {
      name: 'a pod of another ServiceAccount',
      request: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } } },
      code: 400,
      message:
        'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.',
    },
    {
      name: 'a pod uid that differs',
      request: {
        spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'old' } },
      },
      code: 409,
      message:
        'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    },
    {
      name: 'a missing secret',
      request: { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'nope' } } },
      code: 404,
      message: 'secrets "nope" not found',
    },
    {
      name: 'a missing node',
      request: { spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'nope' } } },
      code: 404,
      message: 'nodes "nope" not found',
    },
    {
      name: 'a ConfigMap',
      request: { spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } } },
      code: 400,
      message: 'cannot bind token to object of type /v1, Kind=ConfigMap',
    },
    {
      name: 'a Pod of another group',
      request: { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'apps/v1', name: 'web' } } },
      code: 400,
      message: 'cannot bind token to object of type apps/v1, Kind=Pod',
    },
  ];
  for (const c of errors) {
    it(`answers ${c.code} for ${c.name}`, () => {
      const over = 'serviceAccount' in c ? { serviceAccount: c.serviceAccount } : {};
      try {
        issue(c.request, over);
      } catch (err) {
        assert.ok(err instanceof StatusError, String(err));
        assert.equal(err.code, c.code);
        assert.equal(err.status.message, c.message);
        if (c.causes) {
          assert.deepEqual(
            err.status.details?.causes?.map((x) => ({ field: x.field, reason: x.reason })),
            c.causes,
          );
        }
        return;
      }
      assert.fail('issued');
    });
  }

  const accepted: { name: string; spec: Spec }[] = [
    { name: 'exactly 600 s', spec: { expirationSeconds: 600 } },
    { name: 'exactly 2^32 s', spec: { expirationSeconds: 2 ** 32 } },
    {
      name: 'a secret',
      spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'cred' } },
    },
    {
      name: 'a node with its uid',
      spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'node-a', uid: 'node-1' } },
    },
    {
      name: 'a pod without apiVersion (kubectl sends one)',
      spec: { boundObjectRef: { kind: 'Pod', name: 'web' } },
    },
  ];
  for (const c of accepted) {
    it(`issues a token for ${c.name}`, () => {
      assert.ok(issue({ spec: c.spec }).response.status?.token);
    });
  }
});
