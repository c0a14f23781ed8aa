import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { SERVICE_ACCOUNTS_RESOURCE, serviceAccountController } from './controller.js';

const sa = (namespace: string) => ({ ...SERVICE_ACCOUNTS_RESOURCE, namespace, name: 'default' });

describe('serviceaccount-controller', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    h.run(serviceAccountController());
  });
  after(async () => {
    await h.close();
  });

  it('gives the built-in namespaces and a new one a default ServiceAccount', async () => {
    await h.client.create(RESOURCES.namespaces, { metadata: { name: 'team-a' } });
    for (const ns of ['default', 'kube-system', 'kube-public', 'team-a']) {
      await eventually(() => h.get(sa(ns)));
    }
  });

  it('creates it again when it is deleted', async () => {
    const first = await h.get(sa('team-a'));
    await h.client.delete(sa('team-a'));
    const again = await eventually(async () => {
      const now = await h.get(sa('team-a'));
      return now !== undefined && now.metadata?.uid !== first?.metadata?.uid && now;
    });
    assert.equal(again.metadata?.name, 'default');
  });

  it('lets a namespace with it be deleted', async () => {
    await h.client.create(RESOURCES.namespaces, { metadata: { name: 'team-b' } });
    await eventually(() => h.get(sa('team-b')));
    await h.client.delete({ ...RESOURCES.namespaces, name: 'team-b' });
    await eventually(
      async () => (await h.get({ ...RESOURCES.namespaces, name: 'team-b' })) === undefined,
    );
    assert.equal(await h.get(sa('team-b')), undefined);
  });
});
