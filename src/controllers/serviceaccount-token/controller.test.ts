import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind } from '../../api/model/index.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { SERVICE_ACCOUNTS_RESOURCE } from '../serviceaccount/controller.js';
import { serviceAccountTokensController } from './controller.js';
import {
  SERVICE_ACCOUNT_NAME_KEY,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  SERVICE_ACCOUNT_UID_KEY,
} from './plan.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const decode = (v: string | undefined) => Buffer.from(v ?? '', 'base64').toString();
const sa = (name: string) => ({ ...SERVICE_ACCOUNTS_RESOURCE, namespace: 'default', name });
const secret = (name: string) => ({ ...RESOURCES.secrets, namespace: 'default', name });
const collection = { ...RESOURCES.secrets, namespace: 'default' };

function tokenSecret(name: string, account: string) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, annotations: { [SERVICE_ACCOUNT_NAME_KEY]: account } },
    type: SERVICE_ACCOUNT_TOKEN_TYPE,
  };
}

describe('serviceaccount-token-controller', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    // The signer is the cluster layer's (it reads the API server's key); here a visible fake.
    const generateToken = async (ns: string, account: { name: string; uid: string }, s: string) =>
      `jwt:${ns}/${account.name}/${account.uid}/${s}`;
    h.run(serviceAccountTokensController({ generateToken, rootCA: CA }));
  });
  after(async () => {
    await h.close();
  });

  it('fills a token Secret: token, ca.crt, namespace and the uid annotation', async () => {
    const account = await h.client.create(
      { ...SERVICE_ACCOUNTS_RESOURCE, namespace: 'default' },
      { metadata: { name: 'robot' } },
    );
    const uid = account.metadata?.uid ?? '';
    await h.client.create(collection, tokenSecret('robot-token', 'robot'));
    const filled = await eventually(async () => {
      const s = asKind(await h.get(secret('robot-token')), 'Secret');
      return s.data?.token ? s : undefined;
    });
    assert.equal(decode(filled.data?.token), `jwt:default/robot/${uid}/robot-token`);
    assert.equal(decode(filled.data?.['ca.crt']), CA);
    assert.equal(decode(filled.data?.namespace), 'default');
    assert.equal(filled.metadata?.annotations?.[SERVICE_ACCOUNT_UID_KEY], uid);
  });

  it('deletes the token Secrets of a deleted ServiceAccount', async () => {
    await h.client.create(
      { ...SERVICE_ACCOUNTS_RESOURCE, namespace: 'default' },
      { metadata: { name: 'short-lived' } },
    );
    await h.client.create(collection, tokenSecret('short-lived-token', 'short-lived'));
    await eventually(async () => {
      const s = asKind(await h.get(secret('short-lived-token')), 'Secret');
      return s.data?.token !== undefined;
    });
    await h.client.delete(sa('short-lived'));
    await eventually(async () => (await h.get(secret('short-lived-token'))) === undefined);
  });

  it('deletes a token Secret for an account that does not exist', async () => {
    await h.client.create(collection, tokenSecret('orphan-token', 'nobody'));
    await eventually(async () => (await h.get(secret('orphan-token'))) === undefined);
  });

  it("drops a deleted token Secret from its account's secrets", async () => {
    await h.client.create(
      { ...SERVICE_ACCOUNTS_RESOURCE, namespace: 'default' },
      { metadata: { name: 'listed' }, secrets: [{ name: 'listed-token' }, { name: 'other' }] },
    );
    await h.client.create(collection, tokenSecret('listed-token', 'listed'));
    await eventually(async () => {
      const s = asKind(await h.get(secret('listed-token')), 'Secret');
      return s.data?.token !== undefined;
    });
    await h.client.delete(secret('listed-token'));
    await eventually(async () => {
      const account = asKind(await h.get(sa('listed')), 'ServiceAccount');
      return account.secrets?.length === 1 && account.secrets[0]?.name === 'other';
    });
  });
});
