/**
 * `resolveThroughApi` against a real API server with the EndpointSlice controller running:
 * a StatefulSet-like pod's name resolves once it is ready, and not before.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESOURCES } from '../controller/context.js';
import { eventually, type Harness, startHarness } from '../controller/testing/harness.js';
import { endpointSliceController } from '../controllers/endpointslice/index.js';
import { resolveThroughApi } from './index.js';

describe('resolveThroughApi', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    h.run(endpointSliceController());
  });
  after(async () => {
    await h.close();
  });

  async function setReady(ready: boolean): Promise<void> {
    const ref = { ...RESOURCES.pods, namespace: 'default', name: 'web-0' };
    const pod = await h.client.get(ref);
    const status = {
      phase: 'Running',
      podIP: '10.0.0.5',
      podIPs: [{ ip: '10.0.0.5' }],
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    };
    await h.client.updateStatus(ref, { ...pod, status });
  }

  it('resolves a ready pod of a headless Service, and not a not-ready one', async () => {
    await h.client.create(
      { ...RESOURCES.services, namespace: 'default' },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'nginx' },
        spec: { clusterIP: 'None', selector: { app: 'nginx' }, ports: [{ port: 80 }] },
      },
    );
    await h.client.create(
      { ...RESOURCES.pods, namespace: 'default' },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web-0', labels: { app: 'nginx' } },
        spec: {
          hostname: 'web-0',
          subdomain: 'nginx',
          containers: [{ name: 'c', image: 'nginx' }],
        },
      },
    );
    const name = 'web-0.nginx.default.svc.cluster.local';
    await setReady(false);
    await eventually(async () => {
      const slices = await h.list({
        group: 'discovery.k8s.io',
        version: 'v1',
        plural: 'endpointslices',
        namespace: 'default',
      });
      return slices.some((s) => ((s.endpoints ?? []) as unknown[]).length === 1);
    });
    assert.deepEqual(await resolveThroughApi(h.client, name), { nxdomain: true });
    await setReady(true);
    const answer = await eventually(async () => {
      const r = await resolveThroughApi(h.client, name);
      return 'nxdomain' in r ? undefined : r;
    });
    assert.deepEqual(answer, { name, addresses: ['10.0.0.5'] });
    assert.deepEqual(await resolveThroughApi(h.client, 'nginx.default.svc.cluster.local'), {
      name: 'nginx.default.svc.cluster.local',
      addresses: ['10.0.0.5'],
    });
    assert.deepEqual(await resolveThroughApi(h.client, 'example.com'), { nxdomain: true });
  });
});
