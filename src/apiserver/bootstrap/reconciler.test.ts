import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { FakeClock } from '../../util/clock.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type { KubernetesServiceConfig } from './kubernetes-service.js';
import { KubernetesServiceReconciler, RECONCILE_INTERVAL_MS } from './reconciler.js';

const SVC = '/api/v1/namespaces/default/services/kubernetes';
const EP = '/api/v1/namespaces/default/endpoints/kubernetes';
const SLICES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
const SLICE = `${SLICES}/kubernetes`;
const CONFIG: KubernetesServiceConfig = {
  serviceIP: '10.96.0.1',
  securePort: 6443,
  publicIP: '192.0.2.10',
};

interface Running {
  readonly clock: FakeClock;
  readonly reconciler: KubernetesServiceReconciler;
  readonly errors: unknown[];
}

async function startReconciler(t: TestServer, config = CONFIG): Promise<Running> {
  const clock = new FakeClock();
  const errors: unknown[] = [];
  const reconciler = new KubernetesServiceReconciler({
    store: t.server.store,
    registry: t.server.registry,
    clock,
    onError: (_, e) => errors.push(e),
  });
  await reconciler.start(config);
  return { clock, reconciler, errors };
}

/** Steps the clock by `ms` and waits for the pass it started to finish (the next is armed). */
async function advance(clock: FakeClock, ms: number): Promise<void> {
  await clock.step(ms);
  for (let i = 0; i < 1000 && clock.pending() === 0; i++) {
    await new Promise<void>((r) => setImmediate(r));
  }
  assert.equal(clock.pending(), 1, 'the next pass is scheduled');
}

async function get(t: TestServer, path: string): Promise<KubeObject | undefined> {
  const r = await t.request('GET', path);
  return r.status === 200 ? (r.body as KubeObject) : undefined;
}

function specOf(obj: KubeObject | undefined): Record<string, unknown> {
  return (obj?.spec ?? {}) as Record<string, unknown>;
}

async function versions(t: TestServer): Promise<(string | undefined)[]> {
  const objects = await Promise.all([SVC, EP, SLICE].map((p) => get(t, p)));
  return objects.map((o) => o?.metadata?.resourceVersion);
}

describe('the kubernetes Service reconciler', () => {
  let t: TestServer;
  let run: Running;
  before(async () => {
    t = await startTestServer();
    run = await startReconciler(t);
  });
  after(async () => {
    run.reconciler.stop();
    await t.close();
  });

  it('creates the Service at 10.96.0.1, its Endpoints and its EndpointSlice on start', async () => {
    const svc = await get(t, SVC);
    assert.equal(specOf(svc).clusterIP, '10.96.0.1');
    assert.deepEqual(svc?.metadata?.labels, { component: 'apiserver', provider: 'kubernetes' });
    const ep = await get(t, EP);
    assert.deepEqual(ep?.subsets, [
      {
        addresses: [{ ip: '192.0.2.10' }],
        ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
      },
    ]);
    const slice = await get(t, SLICE);
    assert.deepEqual((slice as { endpoints?: unknown }).endpoints, [
      { addresses: ['192.0.2.10'], conditions: { ready: true } },
    ]);
    assert.deepEqual(run.errors, []);
  });

  it('writes nothing on a pass that finds everything in place', async () => {
    const before = await versions(t);
    await advance(run.clock, RECONCILE_INTERVAL_MS);
    assert.deepEqual(await versions(t), before);
  });

  it('brings back what was deleted within one interval, not before', async () => {
    for (const path of [SVC, EP, SLICE])
      assert.equal((await t.request('DELETE', path)).status, 200);
    await advance(run.clock, RECONCILE_INTERVAL_MS - 1);
    assert.deepEqual(await versions(t), [undefined, undefined, undefined]);
    await advance(run.clock, 1);
    const [svc, ep, slice] = await versions(t);
    assert.ok(svc && ep && slice, 'all three are back');
    assert.equal(specOf(await get(t, SVC)).clusterIP, '10.96.0.1', 'the same address again');
  });

  it('restores an edited slice and deletes another slice labelled for the Service', async () => {
    const current = (await get(t, SLICE)) as KubeObject & { endpoints: unknown };
    current.endpoints = [{ addresses: ['192.0.2.99'] }];
    assert.equal((await t.request('PUT', SLICE, { body: current })).status, 200);
    const stray = {
      metadata: {
        name: 'kubernetes-extra',
        labels: { 'kubernetes.io/service-name': 'kubernetes' },
      },
      addressType: 'IPv4',
      endpoints: [],
    };
    assert.equal((await t.request('POST', SLICES, { body: stray })).status, 201);
    await advance(run.clock, RECONCILE_INTERVAL_MS);
    const slice = (await get(t, SLICE)) as KubeObject & { endpoints: unknown };
    assert.deepEqual(slice.endpoints, [{ addresses: ['192.0.2.10'], conditions: { ready: true } }]);
    assert.equal(await get(t, `${SLICES}/kubernetes-extra`), undefined);
  });

  it('corrects the ports after a start on another secure port', async () => {
    run.reconciler.stop();
    run = await startReconciler(t, { ...CONFIG, securePort: 7443 });
    const svc = await get(t, SVC);
    assert.deepEqual(specOf(svc).ports, [
      { name: 'https', protocol: 'TCP', port: 443, targetPort: 7443 },
    ]);
    const port = [{ name: 'https', port: 7443, protocol: 'TCP' }];
    assert.deepEqual((await get(t, EP))?.subsets, [
      { addresses: [{ ip: '192.0.2.10' }], ports: port },
    ]);
    assert.deepEqual(((await get(t, SLICE)) as { ports?: unknown }).ports, port);
  });
});

describe('the kubernetes Service reconciler without an address to advertise', () => {
  it('keeps the Service alone', async () => {
    const t = await startTestServer();
    const run = await startReconciler(t, { ...CONFIG, publicIP: undefined });
    try {
      assert.ok(await get(t, SVC));
      assert.equal(await get(t, EP), undefined);
      assert.equal(await get(t, SLICE), undefined);
    } finally {
      run.reconciler.stop();
      await t.close();
    }
  });
});
