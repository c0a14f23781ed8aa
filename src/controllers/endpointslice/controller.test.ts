/**
 * The EndpointSlice controller against a real API server: a headless Service over
 * StatefulSet-like pods gets one slice with hostnames, zones and owner; readiness flips the
 * conditions; publishNotReadyAddresses marks every endpoint ready; 250 pods spread over three
 * slices; a Service that loses its selector loses its slices; an unchanged state writes nothing.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import {
  ENDPOINT_SLICES_RESOURCE,
  endpointSliceController,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  SERVICE_NAME_LABEL,
  type SliceEndpoint,
} from './index.js';

const NS = 'default';

async function until(check: () => Promise<void>): Promise<void> {
  await eventually(
    async () => {
      await check();
      return true;
    },
    { timeoutMs: 30_000 },
  );
}

describe('endpointslice controller', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ logLevel: process.env.EPS_LOG ?? 'silent' });
    await h.client.create(RESOURCES.nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-a', labels: { 'topology.kubernetes.io/zone': 'zone-1' } },
    });
    h.run(endpointSliceController());
  });
  after(async () => {
    await h.close();
  });

  async function createService(name: string, spec: Record<string, unknown>): Promise<void> {
    await h.client.create(
      { ...RESOURCES.services, namespace: NS },
      { apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { team: 'a' } }, spec },
    );
  }

  async function createPod(name: string, app: string, subdomain?: string): Promise<void> {
    await h.client.create(
      { ...RESOURCES.pods, namespace: NS },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app } },
        spec: {
          ...(subdomain === undefined ? {} : { hostname: name, subdomain }),
          nodeName: 'node-a',
          containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'web', containerPort: 80 }] }],
        },
      },
    );
  }

  async function setStatus(name: string, ip: string, ready: boolean): Promise<void> {
    const ref = { ...RESOURCES.pods, namespace: NS, name };
    const current = await h.client.get(ref);
    const status = {
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    };
    await h.client.updateStatus(ref, { ...current, status });
  }

  async function slices(service: string): Promise<KubeObject[]> {
    return h.list(
      { ...ENDPOINT_SLICES_RESOURCE, namespace: NS },
      `${SERVICE_NAME_LABEL}=${service}`,
    );
  }

  function endpointsOf(list: readonly KubeObject[]): SliceEndpoint[] {
    return list
      .flatMap((s) => (s.endpoints ?? []) as SliceEndpoint[])
      .sort((a, b) => a.targetRef.name.localeCompare(b.targetRef.name));
  }

  /** `name ip hostname ready/serving/terminating` of each endpoint. */
  function summary(list: readonly KubeObject[]): string[] {
    return endpointsOf(list).map((e) => {
      const c = e.conditions;
      return `${e.targetRef.name} ${e.addresses.join(',')} ${e.hostname ?? '-'} ${c.ready}/${c.serving}/${c.terminating}`;
    });
  }

  it('gives a headless Service over StatefulSet-like pods one slice with hostnames', async () => {
    await createService('nginx', {
      clusterIP: 'None',
      selector: { app: 'nginx' },
      ports: [{ name: 'web', port: 80 }],
    });
    await createPod('web-0', 'nginx', 'nginx');
    await createPod('web-1', 'nginx', 'nginx');
    await setStatus('web-0', '10.0.0.1', true);
    await setStatus('web-1', '10.0.0.2', true);
    await until(async () => {
      const list = await slices('nginx');
      assert.equal(list.length, 1);
      assert.deepEqual(summary(list), [
        'web-0 10.0.0.1 web-0 true/true/false',
        'web-1 10.0.0.2 web-1 true/true/false',
      ]);
    });
    const [slice] = await slices('nginx');
    const svc = await h.client.get({ ...RESOURCES.services, namespace: NS, name: 'nginx' });
    assert.match(slice?.metadata?.name ?? '', /^nginx-[a-z0-9]{5}$/);
    assert.equal(slice?.addressType, 'IPv4');
    assert.deepEqual(slice?.metadata?.labels, {
      team: 'a',
      'service.kubernetes.io/headless': '',
      [SERVICE_NAME_LABEL]: 'nginx',
      [MANAGED_BY_LABEL]: MANAGED_BY,
    });
    assert.deepEqual(slice?.metadata?.ownerReferences, [
      {
        apiVersion: 'v1',
        kind: 'Service',
        name: 'nginx',
        uid: svc.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(slice?.ports, [{ name: 'web', port: 80, protocol: 'TCP' }]);
    const [first] = endpointsOf([slice as KubeObject]);
    assert.equal(first?.nodeName, 'node-a');
    assert.equal(first?.zone, 'zone-1');
    assert.deepEqual(first?.targetRef, {
      kind: 'Pod',
      namespace: NS,
      name: 'web-0',
      uid: (await h.client.get({ ...RESOURCES.pods, namespace: NS, name: 'web-0' })).metadata?.uid,
    });
  });

  it('flips conditions with readiness and updates the slice in place', async () => {
    const [before] = await slices('nginx');
    await setStatus('web-1', '10.0.0.2', false);
    await until(async () => {
      const list = await slices('nginx');
      assert.deepEqual(summary(list), [
        'web-0 10.0.0.1 web-0 true/true/false',
        'web-1 10.0.0.2 web-1 false/false/false',
      ]);
      assert.equal(list[0]?.metadata?.uid, before?.metadata?.uid);
    });
  });

  it('marks every endpoint ready when the Service publishes not-ready addresses', async () => {
    await createService('pub', {
      clusterIP: 'None',
      selector: { app: 'pub' },
      publishNotReadyAddresses: true,
    });
    await createPod('pub-0', 'pub', 'pub');
    await setStatus('pub-0', '10.0.1.1', false);
    await until(async () => {
      assert.deepEqual(summary(await slices('pub')), ['pub-0 10.0.1.1 pub-0 true/false/false']);
    });
  });

  it('writes nothing when nothing changed', async () => {
    const [before] = await slices('nginx');
    const ref = { ...RESOURCES.services, namespace: NS, name: 'nginx' };
    const svc = await h.client.get(ref);
    // An annotation is not copied to slices: the sync it triggers has nothing to write.
    await h.client.update(ref, {
      ...svc,
      metadata: { ...svc.metadata, annotations: { touched: 'yes' } },
    });
    // Barrier: a Service created after the update is synced after it.
    await createService('barrier', { clusterIP: 'None', selector: { app: 'barrier' } });
    await until(async () => assert.equal((await slices('barrier')).length, 1));
    const [after] = await slices('nginx');
    assert.equal(after?.metadata?.resourceVersion, before?.metadata?.resourceVersion);
  });

  it('keeps an empty placeholder slice for a Service without endpoints', async () => {
    const list = await slices('barrier');
    assert.deepEqual(list[0]?.endpoints ?? [], []);
  });

  it('leaves the slices of a Service that lost its selector alone, as upstream', async () => {
    const ref = { ...RESOURCES.services, namespace: NS, name: 'pub' };
    const svc = await h.client.get(ref);
    const before = await slices('pub');
    assert.ok(before.length > 0);
    await h.client.update(ref, {
      ...svc,
      spec: { ...(svc.spec as Record<string, unknown>), selector: null },
    });
    // A later Service getting its slice shows the controller has processed the update.
    await createService('after-pub', { selector: { app: 'after-pub' }, ports: [{ port: 80 }] });
    await until(async () => assert.equal((await slices('after-pub')).length, 1));
    assert.deepEqual(
      (await slices('pub')).map((s) => s.metadata?.resourceVersion),
      before.map((s) => s.metadata?.resourceVersion),
    );
  });

  it('spreads 250 pods over 3 slices of at most 100', async () => {
    await createService('big', { selector: { app: 'big' }, ports: [{ port: 80 }] });
    const names = Array.from({ length: 250 }, (_, i) => `big-${i}`);
    for (let i = 0; i < names.length; i += 25) {
      const batch = names.slice(i, i + 25);
      await Promise.all(batch.map((n) => createPod(n, 'big')));
      await Promise.all(
        batch.map((n, j) =>
          setStatus(n, `10.1.${Math.floor((i + j) / 200)}.${((i + j) % 200) + 1}`, true),
        ),
      );
    }
    await until(async () => {
      const list = await slices('big');
      const sizes = list
        .map((s) => ((s.endpoints ?? []) as unknown[]).length)
        .sort((a, b) => a - b);
      assert.equal(
        sizes.reduce((a, b) => a + b, 0),
        250,
      );
      assert.equal(list.length, 3);
      assert.ok(
        sizes.every((n) => n <= 100),
        String(sizes),
      );
      assert.equal(new Set(endpointsOf(list).map((e) => e.targetRef.name)).size, 250);
    });
  });
});
