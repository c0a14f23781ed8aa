/**
 * `pods/eviction` over HTTP: the budget is spent and the pod deleted gracefully with the
 * DisruptionTarget condition; refusals carry upstream's codes, texts and causes.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const NS = '/api/v1/namespaces/default';
const PODS = `${NS}/pods`;
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

interface PodView {
  metadata: { deletionTimestamp?: string; resourceVersion: string };
  status: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

interface PdbView {
  status: { disruptionsAllowed: number; disruptedPods?: Record<string, string> };
}

function eviction(name: string, extra: Record<string, unknown> = {}, apiVersion = 'policy/v1') {
  return { apiVersion, kind: 'Eviction', metadata: { name, namespace: 'default' }, ...extra };
}

describe('pods/eviction', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  /** A bound, Running pod; Ready unless said otherwise. */
  async function runningPod(
    name: string,
    labels: Record<string, string>,
    ready = true,
    finalizers: string[] = [],
  ) {
    const created = await t.request('POST', PODS, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels, finalizers },
        spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] },
      },
    });
    assert.equal(created.status, 201, created.text);
    const status = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    };
    const r = await t.request('PUT', `${PODS}/${name}/status`, {
      body: { ...created.body, status },
    });
    assert.equal(r.status, 200, r.text);
  }

  /** A PDB with a status as the disruption controller would have written it. */
  async function pdb(name: string, app: string, allowed: number, current = 3, desired = 2) {
    const created = await t.request('POST', PDBS, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name },
        spec: { minAvailable: desired, selector: { matchLabels: { app } } },
      },
    });
    assert.equal(created.status, 201, created.text);
    const status = {
      observedGeneration: 1,
      disruptionsAllowed: allowed,
      currentHealthy: current,
      desiredHealthy: desired,
      expectedPods: current,
    };
    const r = await t.request('PUT', `${PDBS}/${name}/status`, {
      body: { ...created.body, status },
    });
    assert.equal(r.status, 200, r.text);
  }

  const getPod = async (name: string) =>
    (await t.request('GET', `${PODS}/${name}`)).body as unknown as PodView;
  const getPdb = async (name: string) =>
    (await t.request('GET', `${PDBS}/${name}`)).body as unknown as PdbView;

  it('allowed: spends one disruption, records the pod, marks and gracefully deletes it', async () => {
    await pdb('web', 'web', 1);
    await runningPod('web-1', { app: 'web' });
    const r = await t.request('POST', `${PODS}/web-1/eviction`, { body: eviction('web-1') });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    });
    const budget = await getPdb('web');
    assert.equal(budget.status.disruptionsAllowed, 0);
    assert.ok(budget.status.disruptedPods?.['web-1']);
    const pod = await getPod('web-1');
    assert.ok(pod.metadata.deletionTimestamp, 'a graceful delete marks the pod');
    const target = pod.status.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual(
      [target?.status, target?.reason, target?.message],
      ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting'],
    );
  });

  it('blocked: 429 with the DisruptionBudget cause when no disruption is left', async () => {
    await runningPod('web-2', { app: 'web' });
    const r = await t.request('POST', `${PODS}/web-2/eviction`, { body: eviction('web-2') });
    assert.equal(r.status, 429, r.text);
    assert.equal(r.body.reason, 'TooManyRequests');
    assert.equal(
      r.body.message,
      "Cannot evict pod as it would violate the pod's disruption budget.",
    );
    assert.deepEqual((r.body.details as { causes: unknown }).causes, [
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget web needs 2 healthy pods and has 3 currently',
      },
    ]);
    const pod = await getPod('web-2');
    assert.equal(pod.metadata.deletionTimestamp, undefined);
    assert.equal(
      pod.status.conditions?.find((c) => c.type === 'DisruptionTarget'),
      undefined,
    );
  });

  it('500 when two PDBs cover the pod; nothing changes', async () => {
    await pdb('db-a', 'db', 1);
    await pdb('db-b', 'db', 1);
    await runningPod('db-1', { app: 'db' });
    const r = await t.request('POST', `${PODS}/db-1/eviction`, { body: eviction('db-1') });
    assert.equal(r.status, 500, r.text);
    assert.equal(
      r.body.message,
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
    assert.equal((await getPdb('db-a')).status.disruptionsAllowed, 1);
    assert.equal((await getPod('db-1')).metadata.deletionTimestamp, undefined);
  });

  it('no PDB: evicted (a policy/v1beta1 body is accepted too)', async () => {
    await runningPod('lone', { app: 'lone' });
    const r = await t.request('POST', `${PODS}/lone/eviction`, {
      body: eviction('lone', {}, 'policy/v1beta1'),
    });
    assert.equal(r.status, 201, r.text);
    assert.ok((await getPod('lone')).metadata.deletionTimestamp);
  });

  it('an Eviction gracePeriodSeconds 0 removes the pod at once', async () => {
    await runningPod('quick', { app: 'quick' });
    const r = await t.request('POST', `${PODS}/quick/eviction`, {
      body: eviction('quick', { deleteOptions: { gracePeriodSeconds: 0 } }),
    });
    assert.equal(r.status, 201, r.text);
    assert.equal((await t.request('GET', `${PODS}/quick`)).status, 404);
  });

  it('dry run (query or body) changes nothing', async () => {
    await pdb('api', 'api', 1);
    await runningPod('api-1', { app: 'api' });
    const before = await getPod('api-1');
    const viaQuery = await t.request('POST', `${PODS}/api-1/eviction?dryRun=All`, {
      body: eviction('api-1'),
    });
    assert.equal(viaQuery.status, 201, viaQuery.text);
    const viaBody = await t.request('POST', `${PODS}/api-1/eviction`, {
      body: eviction('api-1', { deleteOptions: { dryRun: ['All'] } }),
    });
    assert.equal(viaBody.status, 201, viaBody.text);
    assert.deepEqual(await getPod('api-1'), before);
    const budget = await getPdb('api');
    assert.equal(budget.status.disruptionsAllowed, 1);
    assert.equal(budget.status.disruptedPods, undefined);
  });

  it('an unready pod goes without spending the budget while the app is healthy', async () => {
    await pdb('jobs', 'jobs', 0, 2, 2);
    await runningPod('jobs-1', { app: 'jobs' }, false);
    const r = await t.request('POST', `${PODS}/jobs-1/eviction`, { body: eviction('jobs-1') });
    assert.equal(r.status, 201, r.text);
    assert.equal((await getPdb('jobs')).status.disruptionsAllowed, 0);
    assert.ok((await getPod('jobs-1')).metadata.deletionTimestamp);
  });

  it('a pod already deleting ignores the budget', async () => {
    // The finalizer keeps the store from removing a deleting pod on its next write.
    await runningPod('web-3', { app: 'web' }, true, ['example.com/hold']);
    assert.equal((await t.request('DELETE', `${PODS}/web-3`)).status, 200);
    const r = await t.request('POST', `${PODS}/web-3/eviction`, { body: eviction('web-3') });
    assert.equal(r.status, 201, r.text);
    const pod = await getPod('web-3');
    assert.equal(pod.status.conditions?.find((c) => c.type === 'DisruptionTarget')?.status, 'True');
    assert.equal((await getPdb('web')).status.disruptionsAllowed, 0);
  });

  it('a stale resourceVersion precondition is a 409', async () => {
    await runningPod('pre', { app: 'pre' });
    const r = await t.request('POST', `${PODS}/pre/eviction`, {
      body: eviction('pre', { deleteOptions: { preconditions: { resourceVersion: '1' } } }),
    });
    assert.equal(r.status, 409, r.text);
    assert.equal((await getPod('pre')).metadata.deletionTimestamp, undefined);
  });

  it('404 for a missing pod', async () => {
    const r = await t.request('POST', `${PODS}/ghost/eviction`, { body: eviction('ghost') });
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'pods "ghost" not found');
  });

  const bad: { name: string; body?: unknown; raw?: string; status: number; message?: string }[] = [
    { name: 'not JSON', raw: '{nope', status: 400 },
    { name: 'a JSON array', body: [1], status: 400 },
    {
      name: 'name differs from the URL',
      body: eviction('other'),
      status: 400,
      message: 'name in URL does not match name in Eviction object',
    },
    { name: 'wrong kind', body: { ...eviction('web-2'), kind: 'Pod' }, status: 400 },
    { name: 'wrong apiVersion', body: eviction('web-2', {}, 'apps/v1'), status: 400 },
    {
      name: 'deleteOptions not an object',
      body: eviction('web-2', { deleteOptions: 'x' }),
      status: 400,
    },
    {
      name: 'bad propagationPolicy',
      body: eviction('web-2', { deleteOptions: { propagationPolicy: 'Sideways' } }),
      status: 422,
    },
  ];
  for (const c of bad) {
    it(`bad body: ${c.name} → ${c.status}`, async () => {
      const r = await t.request('POST', `${PODS}/web-2/eviction`, {
        ...(c.raw === undefined ? { body: c.body } : { raw: c.raw }),
      });
      assert.equal(r.status, c.status, r.text);
      if (c.message) assert.equal(r.body.message, c.message);
      assert.equal((await getPod('web-2')).metadata.deletionTimestamp, undefined);
    });
  }

  it('GET is not served on pods/eviction', async () => {
    const r = await t.request('GET', `${PODS}/web-2/eviction`);
    assert.equal(r.status, 405);
  });

  it('is listed in discovery as pods/eviction (policy/v1 Eviction)', async () => {
    const r = await t.request('GET', '/api/v1');
    const entry = (r.body.resources as { name: string; group?: string; version?: string }[]).find(
      (x) => x.name === 'pods/eviction',
    );
    assert.deepEqual([entry?.group, entry?.version], ['policy', 'v1']);
  });
});
