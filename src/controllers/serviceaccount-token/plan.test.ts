import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Secret, ServiceAccount } from '../../api/model/index.js';
import {
  filledTokenSecret,
  planTokenSecret,
  SERVICE_ACCOUNT_NAME_KEY,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  SERVICE_ACCOUNT_UID_KEY,
  type TokenSecretPlan,
  withoutSecretReference,
} from './plan.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const SA: ServiceAccount = { metadata: { name: 'robot', namespace: 'team', uid: 'sa-1' } };

function secret(over: {
  type?: string;
  annotations?: Record<string, string>;
  data?: Record<string, string>;
}): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'robot-token',
      namespace: 'team',
      uid: 'st-1',
      resourceVersion: '7',
      annotations: over.annotations ?? { [SERVICE_ACCOUNT_NAME_KEY]: 'robot' },
    },
    type: over.type ?? SERVICE_ACCOUNT_TOKEN_TYPE,
    ...(over.data ? { data: over.data } : {}),
  };
}
const FULL = { token: b64('t'), namespace: b64('team'), 'ca.crt': b64(CA) };

describe('planTokenSecret', () => {
  const cases: {
    name: string;
    secret: Secret | undefined;
    sa: ServiceAccount | undefined;
    rootCA?: string;
    want: TokenSecretPlan;
  }[] = [
    {
      name: 'a new token Secret: everything',
      secret: secret({}),
      sa: SA,
      want: { action: 'fill', needs: { ca: true, namespace: true, token: true } },
    },
    { name: 'complete: nothing', secret: secret({ data: FULL }), sa: SA, want: { action: 'none' } },
    {
      name: 'another CA: the CA only',
      secret: secret({ data: { ...FULL, 'ca.crt': b64('old') } }),
      sa: SA,
      want: { action: 'fill', needs: { ca: true, namespace: false, token: false } },
    },
    {
      name: 'no cluster CA: ca.crt left alone',
      secret: secret({ data: { token: FULL.token, namespace: FULL.namespace } }),
      sa: SA,
      rootCA: '',
      want: { action: 'none' },
    },
    {
      name: 'an empty token: a token',
      secret: secret({ data: { ...FULL, token: '' } }),
      sa: SA,
      want: { action: 'fill', needs: { ca: false, namespace: false, token: true } },
    },
    {
      name: 'its ServiceAccount gone: deleted',
      secret: secret({ data: FULL }),
      sa: undefined,
      want: { action: 'delete', uid: 'st-1' },
    },
    {
      name: 'its ServiceAccount recreated (another uid): deleted',
      secret: secret({
        annotations: { [SERVICE_ACCOUNT_NAME_KEY]: 'robot', [SERVICE_ACCOUNT_UID_KEY]: 'sa-0' },
      }),
      sa: SA,
      want: { action: 'delete', uid: 'st-1' },
    },
    {
      name: 'another type: nothing',
      secret: secret({ type: 'Opaque' }),
      sa: undefined,
      want: { action: 'none' },
    },
    { name: 'no Secret: nothing', secret: undefined, sa: SA, want: { action: 'none' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(planTokenSecret(c.secret, c.sa, c.rootCA ?? CA), c.want);
    });
  }
});

describe('filledTokenSecret', () => {
  it('fills what is needed, sets both annotations, keeps the rest', () => {
    const live = secret({ data: { extra: b64('x'), namespace: b64('kept') } });
    const next = filledTokenSecret(
      live,
      SA,
      { ca: true, namespace: false, token: true },
      CA,
      'jwt',
    );
    assert.deepEqual(next.data, {
      extra: b64('x'),
      namespace: b64('kept'),
      'ca.crt': b64(CA),
      token: b64('jwt'),
    });
    assert.deepEqual(next.metadata?.annotations, {
      [SERVICE_ACCOUNT_NAME_KEY]: 'robot',
      [SERVICE_ACCOUNT_UID_KEY]: 'sa-1',
    });
    assert.equal(next.metadata?.resourceVersion, '7', 'an update of the version read');
    assert.equal(live.data?.token, undefined, 'the input is not changed');
  });
});

describe('withoutSecretReference', () => {
  it('drops the deleted Secret, or says nothing changes', () => {
    const sa: ServiceAccount = { ...SA, secrets: [{ name: 'robot-token' }, { name: 'other' }] };
    assert.deepEqual(withoutSecretReference(sa, 'robot-token')?.secrets, [{ name: 'other' }]);
    assert.equal(withoutSecretReference(sa, 'absent'), undefined);
    assert.equal(withoutSecretReference(SA, 'robot-token'), undefined);
  });
});
