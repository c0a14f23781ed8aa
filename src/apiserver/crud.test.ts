import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string, replicas = 1): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
  };
}

describe('REST: create, read, update, delete', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('creates with server-set metadata and a string resourceVersion', async () => {
    const r = await t.request('POST', CM, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'a', creationTimestamp: null, uid: 'mine' },
        data: { k: 'v' },
      },
    });
    assert.equal(r.status, 201, r.text);
    const meta = r.body.metadata as Record<string, unknown>;
    assert.equal(meta.namespace, 'default');
    assert.match(String(meta.uid), /^[0-9a-f-]{36}$/);
    assert.notEqual(meta.uid, 'mine');
    assert.match(String(meta.creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(typeof meta.resourceVersion, 'string');
    assert.equal(r.body.kind, 'ConfigMap');
    const got = await t.request('GET', `${CM}/a`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, r.body);
  });

  it('answers 409 AlreadyExists and 404 NotFound with upstream messages', async () => {
    const dup = await t.request('POST', CM, { body: { metadata: { name: 'a' } } });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.reason, 'AlreadyExists');
    assert.equal(dup.body.message, 'configmaps "a" already exists');
    const missing = await t.request('GET', `${DEPLOY}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'deployments.apps "nope" not found');
    assert.deepEqual(missing.body.details, { name: 'nope', group: 'apps', kind: 'deployments' });
  });

  it('generates names from generateName with the upstream alphabet', async () => {
    const r = await t.request('POST', CM, { body: { metadata: { generateName: 'gen-' } } });
    assert.equal(r.status, 201);
    assert.match(
      String((r.body.metadata as { name: string }).name),
      /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/,
    );
  });

  it('bumps generation only on spec changes, and resourceVersion on every write', async () => {
    const c = await t.request('POST', DEPLOY, { body: deployment('web') });
    assert.equal(c.status, 201, c.text);
    const m0 = c.body.metadata as { generation: number; resourceVersion: string };
    assert.equal(m0.generation, 1);
    const labelled = await t.request('PATCH', `${DEPLOY}/web`, {
      body: { metadata: { labels: { tier: 'front' } } },
      contentType: 'application/merge-patch+json',
    });
    const m1 = labelled.body.metadata as { generation: number; resourceVersion: string };
    assert.equal(m1.generation, 1);
    assert.ok(Number(m1.resourceVersion) > Number(m0.resourceVersion));
    const scaled = await t.request('PATCH', `${DEPLOY}/web`, {
      body: { spec: { replicas: 3 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal((scaled.body.metadata as { generation: number }).generation, 2);
    const status = await t.request('PATCH', `${DEPLOY}/web/status`, {
      body: { status: { replicas: 3, observedGeneration: 2 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(status.status, 200, status.text);
    assert.equal((status.body.metadata as { generation: number }).generation, 2);
    assert.equal((status.body.status as { replicas: number }).replicas, 3);
  });

  it('bumps a Deployment generation on annotation changes too (upstream rollback input)', async () => {
    const before = await t.request('GET', `${DEPLOY}/web`);
    const gen = (before.body.metadata as { generation: number }).generation;
    const r = await t.request('PATCH', `${DEPLOY}/web`, {
      body: { metadata: { annotations: { 'kubernetes.io/change-cause': 'x' } } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal((r.body.metadata as { generation: number }).generation, gen + 1);
  });

  it('ignores status on the main resource and spec on /status', async () => {
    const cur = await t.request('GET', `${DEPLOY}/web`);
    const body = structuredClone(cur.body) as Record<string, Record<string, unknown>>;
    body.status = { replicas: 99 };
    body.spec!.replicas = 4;
    const put = await t.request('PUT', `${DEPLOY}/web`, { body });
    assert.equal(put.status, 200, put.text);
    assert.equal((put.body.status as { replicas: number }).replicas, 3);
    assert.equal((put.body.spec as { replicas: number }).replicas, 4);
    const body2 = structuredClone(put.body) as Record<string, Record<string, unknown>>;
    body2.spec!.replicas = 7;
    body2.status = { replicas: 5 };
    const st = await t.request('PUT', `${DEPLOY}/web/status`, { body: body2 });
    assert.equal((st.body.spec as { replicas: number }).replicas, 4);
    assert.equal((st.body.status as { replicas: number }).replicas, 5);
  });

  it('rejects a stale resourceVersion with the upstream 409 message', async () => {
    const cur = await t.request('GET', `${CM}/a`);
    const stale = structuredClone(cur.body) as { metadata: { resourceVersion: string } };
    stale.metadata.resourceVersion = '1';
    const r = await t.request('PUT', `${CM}/a`, { body: stale });
    assert.equal(r.status, 409);
    assert.equal(
      r.body.message,
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('does not write when nothing changes', async () => {
    const cur = await t.request('GET', `${CM}/a`);
    const before = t.backend.currentRevision();
    const r = await t.request('PUT', `${CM}/a`, { body: cur.body });
    assert.equal(r.status, 200);
    assert.equal(t.backend.currentRevision(), before);
    assert.equal(
      (r.body.metadata as { resourceVersion: string }).resourceVersion,
      (cur.body.metadata as { resourceVersion: string }).resourceVersion,
    );
  });

  it('serves /scale as autoscaling/v1 Scale, also for a PUT without Content-Type', async () => {
    const s = await t.request('GET', `${DEPLOY}/web/scale`);
    assert.equal(s.status, 200);
    assert.equal(s.body.kind, 'Scale');
    assert.equal(s.body.apiVersion, 'autoscaling/v1');
    assert.deepEqual(s.body.spec, { replicas: 4 });
    assert.deepEqual(s.body.status, { replicas: 5, selector: 'app=web' });
    const patched = await t.request('PATCH', `${DEPLOY}/web/scale`, {
      body: { spec: { replicas: 6 } },
      contentType: 'application/merge-patch+json',
    });
    assert.deepEqual(patched.body.spec, { replicas: 6 });
    const put = await t.request('PUT', `${DEPLOY}/web/scale`, {
      raw: JSON.stringify({ ...patched.body, spec: { replicas: 2 } }),
      contentType: null,
    });
    assert.equal(put.status, 200, put.text);
    const d = await t.request('GET', `${DEPLOY}/web`);
    assert.equal((d.body.spec as { replicas: number }).replicas, 2);
    const stale = await t.request('PUT', `${DEPLOY}/web/scale`, { body: patched.body });
    assert.equal(stale.status, 409);
    const neg = await t.request('PATCH', `${DEPLOY}/web/scale`, {
      body: { spec: { replicas: -1 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(neg.status, 422);
    assert.equal(
      neg.body.message,
      'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it('applies JSON patch and answers 422 when it cannot apply', async () => {
    const ok = await t.request('PATCH', `${CM}/a`, {
      body: [
        { op: 'add', path: '/data/x', value: 'y' },
        { op: 'test', path: '/data/k', value: 'v' },
      ],
      contentType: 'application/json-patch+json',
    });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.data, { k: 'v', x: 'y' });
    const bad = await t.request('PATCH', `${CM}/a`, {
      body: [{ op: 'test', path: '/data/k', value: 'other' }],
      contentType: 'application/json-patch+json',
    });
    assert.equal(bad.status, 422);
    const garbage = await t.request('PATCH', `${CM}/a`, {
      raw: '[{"op":',
      contentType: 'application/json-patch+json',
    });
    assert.equal(garbage.status, 400);
  });

  it('deletes: Status for most kinds, honours preconditions', async () => {
    const cur = await t.request('GET', `${CM}/a`);
    const uid = (cur.body.metadata as { uid: string }).uid;
    const wrong = await t.request('DELETE', `${CM}/a`, {
      body: { preconditions: { uid: 'other' } },
    });
    assert.equal(wrong.status, 409);
    assert.equal(
      wrong.body.message,
      `Operation cannot be fulfilled on configmaps "a": Precondition failed: UID in precondition: other, UID in object meta: ${uid}`,
    );
    const r = await t.request('DELETE', `${CM}/a`, { body: { preconditions: { uid } } });
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.status, 'Success');
    assert.deepEqual(r.body.details, { name: 'a', kind: 'configmaps', uid });
    assert.equal((await t.request('GET', `${CM}/a`)).status, 404);
  });

  it('keeps an object with finalizers until they are removed', async () => {
    await t.request('POST', CM, {
      body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    });
    const del = await t.request('DELETE', `${CM}/held`);
    assert.equal(del.status, 200);
    assert.ok((del.body.metadata as { deletionTimestamp?: string }).deletionTimestamp);
    assert.equal((await t.request('GET', `${CM}/held`)).status, 200);
    const freed = await t.request('PATCH', `${CM}/held`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(freed.status, 200, freed.text);
    assert.equal((await t.request('GET', `${CM}/held`)).status, 404);
  });

  it('turns propagationPolicy into the orphan and foregroundDeletion finalizers (body or query)', async () => {
    await t.request('POST', DEPLOY, { body: deployment('fg') });
    const fg = await t.request('DELETE', `${DEPLOY}/fg`, {
      body: { propagationPolicy: 'Foreground' },
    });
    assert.deepEqual((fg.body.metadata as { finalizers: string[] }).finalizers, [
      'foregroundDeletion',
    ]);
    assert.equal((fg.body.metadata as { generation: number }).generation, 2);
    await t.request('POST', DEPLOY, { body: deployment('or') });
    const or = await t.request('DELETE', `${DEPLOY}/or?propagationPolicy=Orphan`);
    assert.deepEqual((or.body.metadata as { finalizers: string[] }).finalizers, ['orphan']);
    const bad = await t.request('DELETE', `${DEPLOY}/or?propagationPolicy=Sideways`);
    assert.equal(bad.status, 422);
  });

  it('supports dryRun=All without storing anything', async () => {
    const before = t.backend.currentRevision();
    const r = await t.request('POST', `${CM}?dryRun=All`, { body: { metadata: { name: 'dry' } } });
    assert.equal(r.status, 201);
    assert.equal((await t.request('GET', `${CM}/dry`)).status, 404);
    assert.equal(t.backend.currentRevision(), before);
  });
});
