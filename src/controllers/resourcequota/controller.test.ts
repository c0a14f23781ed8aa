/**
 * The resource quota controller against an in-process API server: status.hard and status.used
 * converge as objects come, change phase and go, a `count/<resource>.<group>` kind is watched
 * once a quota names it, and a quota already right is left alone (no write).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { RESOURCE_QUOTAS, resourceQuotaController } from './controller.js';

const NS = 'quota-test';

describe('resource quota controller', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await h.client.create({ ...RESOURCES.namespaces }, { metadata: { name: NS } });
    h.run(resourceQuotaController);
  });
  after(async () => {
    await h.close();
  });

  const used = async (name: string) => {
    const q = await h.get({ ...RESOURCE_QUOTAS, namespace: NS, name });
    return (q?.status as { used?: Record<string, string> } | undefined)?.used;
  };
  const usedBecomes = (name: string, want: Record<string, string>) =>
    eventually(async () => {
      assert.deepEqual(await used(name), want);
      return true;
    });
  const pod = (name: string, cpu: string): KubeObject => ({
    metadata: { name },
    spec: {
      containers: [
        { name: 'app', image: 'nginx', resources: { requests: { cpu }, limits: { cpu } } },
      ],
    },
  });

  it('counts pods as they come, finish and go', async () => {
    await h.client.create(
      { ...RESOURCE_QUOTAS, namespace: NS },
      {
        metadata: { name: 'compute' },
        spec: { hard: { pods: '10', 'requests.cpu': '4', 'count/pods': '10' } },
      },
    );
    await usedBecomes('compute', { 'count/pods': '0', pods: '0', 'requests.cpu': '0' });
    const q = await h.get({ ...RESOURCE_QUOTAS, namespace: NS, name: 'compute' });
    assert.deepEqual((q?.status as { hard: unknown } | undefined)?.hard, {
      'count/pods': '10',
      pods: '10',
      'requests.cpu': '4',
    });

    await h.client.create({ ...RESOURCES.pods, namespace: NS }, pod('a', '500m'));
    await h.client.create({ ...RESOURCES.pods, namespace: NS }, pod('b', '1'));
    await usedBecomes('compute', { 'count/pods': '2', pods: '2', 'requests.cpu': '1500m' });

    const b = await h.client.get({ ...RESOURCES.pods, namespace: NS, name: 'b' });
    await h.client.updateStatus(
      { ...RESOURCES.pods, namespace: NS, name: 'b' },
      { ...b, status: { phase: 'Succeeded' } },
    );
    await usedBecomes('compute', { 'count/pods': '2', pods: '1', 'requests.cpu': '500m' });

    await h.client.delete(
      { ...RESOURCES.pods, namespace: NS, name: 'b' },
      { gracePeriodSeconds: 0 },
    );
    await usedBecomes('compute', { 'count/pods': '1', pods: '1', 'requests.cpu': '500m' });
  });

  it('follows spec.hard edits without a write that changes nothing', async () => {
    const ref = { ...RESOURCE_QUOTAS, namespace: NS, name: 'compute' };
    const q = await h.client.get(ref);
    await h.client.update(ref, { ...q, spec: { hard: { pods: '3' } } });
    await eventually(async () => {
      const cur = await h.client.get(ref);
      assert.deepEqual(cur.status, { hard: { pods: '3' }, used: { pods: '1' } });
      return true;
    });
    const settled = (await h.client.get(ref)).metadata?.resourceVersion;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await h.client.get(ref)).metadata?.resourceVersion, settled);
  });

  it('counts any kind named by count/<resource>.<group>, watched from then on', async () => {
    await h.client.create(
      { ...RESOURCE_QUOTAS, namespace: NS },
      {
        metadata: { name: 'objects' },
        spec: { hard: { 'count/deployments.apps': '5', configmaps: '5' } },
      },
    );
    await usedBecomes('objects', { configmaps: '0', 'count/deployments.apps': '0' });
    const deployment = {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'a', image: 'nginx' }] },
        },
      },
    };
    await h.client.create({ ...RESOURCES.deployments, namespace: NS }, deployment);
    await h.client.create({ ...RESOURCES.configmaps, namespace: NS }, { metadata: { name: 'c' } });
    await usedBecomes('objects', { configmaps: '1', 'count/deployments.apps': '1' });
    await h.client.delete({ ...RESOURCES.deployments, namespace: NS, name: 'web' });
    await usedBecomes('objects', { configmaps: '1', 'count/deployments.apps': '0' });
  });
});
