import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { rootCACertificatePublisher } from './controller.js';
import { DESCRIPTION, DESCRIPTION_ANNOTATION } from './plan.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const cm = (namespace: string) => ({
  ...RESOURCES.configmaps,
  namespace,
  name: 'kube-root-ca.crt',
});
const published = (obj: KubeObject | undefined) =>
  obj !== undefined &&
  (obj.data as Record<string, string> | undefined)?.['ca.crt'] === CA &&
  obj.metadata?.annotations?.[DESCRIPTION_ANNOTATION] === DESCRIPTION &&
  obj;

describe('root-ca-certificate-publisher-controller', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    h.run(rootCACertificatePublisher({ rootCA: CA }));
  });
  after(async () => {
    await h.close();
  });

  it('publishes the CA in the built-in namespaces and a new one', async () => {
    await h.client.create(RESOURCES.namespaces, { metadata: { name: 'team-a' } });
    for (const ns of ['default', 'kube-system', 'kube-public', 'team-a']) {
      const obj = await eventually(async () => published(await h.get(cm(ns))));
      assert.deepEqual(obj.data, { 'ca.crt': CA });
    }
  });

  it('restores edited data and publishes again after a deletion', async () => {
    const current = await h.client.get(cm('team-a'));
    await h.client.update(cm('team-a'), { ...current, data: { 'ca.crt': 'forged' } });
    await eventually(async () => published(await h.get(cm('team-a'))));
    await h.client.delete(cm('team-a'));
    await eventually(async () => published(await h.get(cm('team-a'))));
  });

  it('lets a namespace with it be deleted', async () => {
    await h.client.create(RESOURCES.namespaces, { metadata: { name: 'team-b' } });
    await eventually(async () => published(await h.get(cm('team-b'))));
    await h.client.delete({ ...RESOURCES.namespaces, name: 'team-b' });
    await eventually(
      async () => (await h.get({ ...RESOURCES.namespaces, name: 'team-b' })) === undefined,
    );
    assert.equal(await h.get(cm('team-b')), undefined);
  });
});

describe('root-ca-certificate-publisher-controller without a CA', () => {
  it('publishes nothing rather than an empty bundle: it returns at once', {
    timeout: 10_000,
  }, async () => {
    const h = await startHarness();
    try {
      // A publishing controller runs until stopped: this would time out.
      await rootCACertificatePublisher().start(h.ctx);
      assert.equal(await h.get(cm('default')), undefined);
    } finally {
      await h.close();
    }
  });
});
