/**
 * The endpoint controller against a real API server: a headless Service's Endpoints follow its
 * pods' IPs and readiness, carry hostnames and the headless label, are not rewritten when
 * nothing changed, go with the Service, and selector-less Services are left alone.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type Endpoints } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { ENDPOINTS_RESOURCE, endpointsController, HEADLESS_LABEL } from './index.js';

const NS = 'default';

/** Retries `check` (which asserts) until it passes. */
async function until(check: () => Promise<void>): Promise<void> {
  await eventually(async () => {
    await check();
    return true;
  });
}

/** A client that counts the writes the controller makes, per object name. */
function countingClient(inner: ApiClient, writes: Map<string, number>): ApiClient {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop !== 'create' && prop !== 'update' && prop !== 'delete') return value.bind(target);
      return (ref: { name?: string }, obj?: KubeObject, ...rest: unknown[]) => {
        const name = ref.name ?? obj?.metadata?.name ?? '';
        writes.set(name, (writes.get(name) ?? 0) + 1);
        return value.call(target, ref, obj, ...rest);
      };
    },
  });
}

describe('endpoint controller', () => {
  let h: Harness;
  const writes = new Map<string, number>();
  before(async () => {
    h = await startHarness({ logLevel: process.env.EP_LOG ?? 'silent' });
    void endpointsController.start({ ...h.ctx, client: countingClient(h.ctx.client, writes) });
  });
  after(async () => {
    await h.close();
  });

  async function createService(name: string, spec: Record<string, unknown>): Promise<void> {
    await h.client.create(
      { ...RESOURCES.services, namespace: NS },
      { apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { app: name } }, spec },
    );
  }

  async function createPod(name: string, app: string, subdomain: string): Promise<void> {
    await h.client.create(
      { ...RESOURCES.pods, namespace: NS },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app } },
        spec: {
          hostname: name,
          subdomain,
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

  async function endpoints(name: string): Promise<Endpoints | undefined> {
    const ep = await h.get({ ...ENDPOINTS_RESOURCE, namespace: NS, name });
    return ep === undefined ? undefined : asKind(ep, 'Endpoints');
  }

  /** [ready "ip hostname"s, not-ready ones] of an Endpoints. */
  function addresses(ep: Endpoints | undefined): [string[], string[]] {
    const subsets = ep?.subsets ?? [];
    const show = (key: 'addresses' | 'notReadyAddresses') =>
      subsets.flatMap((s) => (s[key] ?? []).map((a) => `${a.ip} ${a.hostname ?? ''}`)).sort();
    return [show('addresses'), show('notReadyAddresses')];
  }

  /** Waits until every earlier key was synced: a new Service's Endpoints appear after them. */
  let barriers = 0;
  async function barrier(): Promise<void> {
    const name = `barrier-${++barriers}`;
    await createService(name, { clusterIP: 'None', selector: { app: name } });
    await until(async () => assert.ok(await endpoints(name)));
  }

  it('lists a headless Service pods and follows their readiness', async () => {
    await createService('nginx', {
      clusterIP: 'None',
      selector: { app: 'nginx' },
      ports: [{ name: 'web', port: 80 }],
    });
    await createPod('web-0', 'nginx', 'nginx');
    await createPod('web-1', 'nginx', 'nginx');
    await setStatus('web-0', '10.0.0.1', true);
    await setStatus('web-1', '10.0.0.2', false);
    await until(async () => {
      assert.deepEqual(addresses(await endpoints('nginx')), [
        ['10.0.0.1 web-0'],
        ['10.0.0.2 web-1'],
      ]);
    });
    const ep = await endpoints('nginx');
    assert.deepEqual(ep?.metadata?.labels, { app: 'nginx', [HEADLESS_LABEL]: '' });
    const ports = (ep?.subsets ?? []).flatMap((s) => s.ports ?? []);
    assert.deepEqual(ports, [{ name: 'web', port: 80, protocol: 'TCP' }]);

    await setStatus('web-1', '10.0.0.2', true);
    await until(async () => {
      assert.deepEqual(addresses(await endpoints('nginx')), [
        ['10.0.0.1 web-0', '10.0.0.2 web-1'],
        [],
      ]);
    });
    await setStatus('web-0', '10.0.0.1', false);
    await until(async () => {
      assert.deepEqual(addresses(await endpoints('nginx')), [
        ['10.0.0.2 web-1'],
        ['10.0.0.1 web-0'],
      ]);
    });
  });

  it('does not write when nothing changed', async () => {
    await barrier();
    const before = writes.get('nginx') ?? 0;
    const rv = (await endpoints('nginx'))?.metadata?.resourceVersion;
    // A Service update syncs the key; the pods and so the Endpoints are unchanged.
    await h.client.patch(
      { ...RESOURCES.services, namespace: NS, name: 'nginx' },
      { metadata: { annotations: { touched: 'yes' } } },
      'merge',
    );
    await barrier();
    assert.equal(writes.get('nginx') ?? 0, before);
    assert.equal((await endpoints('nginx'))?.metadata?.resourceVersion, rv);
  });

  it('recreates a deleted Endpoints, and deletes it with its Service', async () => {
    await h.client.delete({ ...ENDPOINTS_RESOURCE, namespace: NS, name: 'nginx' });
    await until(async () => {
      assert.deepEqual(addresses(await endpoints('nginx'))[0], ['10.0.0.2 web-1']);
    });
    await h.client.delete({ ...RESOURCES.pods, namespace: NS, name: 'web-1' });
    await until(async () => {
      assert.deepEqual(addresses(await endpoints('nginx')), [[], ['10.0.0.1 web-0']]);
    });
    await h.client.delete({ ...RESOURCES.services, namespace: NS, name: 'nginx' });
    await until(async () => assert.equal(await endpoints('nginx'), undefined));
  });

  it('leaves a Service without a selector and its Endpoints alone', async () => {
    await createService('manual', { ports: [{ port: 80 }] });
    const manual = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'manual' },
      subsets: [{ addresses: [{ ip: '192.0.2.1' }], ports: [{ port: 80 }] }],
    };
    await h.client.create({ ...ENDPOINTS_RESOURCE, namespace: NS }, manual);
    await barrier();
    assert.equal(writes.get('manual') ?? 0, 0);
    assert.deepEqual(addresses(await endpoints('manual')), [['192.0.2.1 '], []]);
  });
});
