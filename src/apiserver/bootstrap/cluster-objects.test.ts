import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { FakeClock } from '../../util/clock.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { CLUSTER_OBJECTS_INTERVAL_MS, ClusterObjectsReconciler } from './cluster-objects.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './flowcontrol-objects.js';

const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const NET = '/apis/networking.k8s.io/v1';
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';

interface List {
  readonly items: KubeObject[];
}

async function list(t: TestServer, path: string): Promise<KubeObject[]> {
  const r = await t.request('GET', path);
  assert.equal(r.status, 200, r.text);
  return (r.body as unknown as List).items;
}

async function get(t: TestServer, path: string): Promise<KubeObject | undefined> {
  const r = await t.request('GET', path);
  return r.status === 200 ? (r.body as KubeObject) : undefined;
}

const specOf = (o: KubeObject | undefined): Record<string, unknown> =>
  (o?.spec ?? {}) as Record<string, unknown>;
const names = (items: KubeObject[]) => items.map((o) => o.metadata?.name ?? '').sort();
const condition = (o: KubeObject | undefined, type: string) =>
  ((o?.status as { conditions?: Record<string, unknown>[] } | undefined)?.conditions ?? []).find(
    (c) => c.type === type,
  );

describe('ClusterObjectsReconciler', () => {
  let t: TestServer;
  let clock: FakeClock;
  let reconciler: ClusterObjectsReconciler;
  const errors: unknown[] = [];

  before(async () => {
    t = await startTestServer();
    clock = new FakeClock();
    reconciler = new ClusterObjectsReconciler({
      store: t.server.store,
      registry: t.server.registry,
      clock,
      onError: (_, e) => errors.push(e),
    });
    await reconciler.start();
  });
  after(async () => {
    reconciler.stop();
    await t.close();
  });

  it('creates the mandatory and suggested APF objects, each annotated for auto-update', async () => {
    const levels = await list(t, `${FC}/prioritylevelconfigurations`);
    const schemas = await list(t, `${FC}/flowschemas`);
    assert.deepEqual(names(levels), BOOTSTRAP_PRIORITY_LEVELS.map((b) => b.name).sort());
    assert.deepEqual(names(schemas), BOOTSTRAP_FLOW_SCHEMAS.map((b) => b.name).sort());
    for (const o of [...levels, ...schemas]) {
      assert.equal(o.metadata?.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true');
    }
    assert.deepEqual(errors, []);
  });

  it('marks every bootstrap FlowSchema as not dangling', async () => {
    for (const fs of await list(t, `${FC}/flowschemas`)) {
      const c = condition(fs, 'Dangling');
      assert.equal(c?.status, 'False', fs.metadata?.name);
      assert.equal(c?.reason, 'Found');
    }
  });

  it('restores a deleted mandatory object and an edited one within a pass', async () => {
    const del = await t.request('DELETE', `${FC}/prioritylevelconfigurations/catch-all`);
    assert.equal(del.status, 200, del.text);
    const exempt = await get(t, `${FC}/flowschemas/exempt`);
    assert.ok(exempt);
    const edited = { ...exempt, spec: { ...(exempt.spec as object), matchingPrecedence: 1 } };
    (edited.spec as Record<string, unknown>).distinguisherMethod = { type: 'ByUser' };
    const put = await t.request('PUT', `${FC}/flowschemas/exempt`, { body: edited });
    assert.equal(put.status, 200, put.text);
    await reconciler.sync();
    assert.ok(await get(t, `${FC}/prioritylevelconfigurations/catch-all`));
    const back = await get(t, `${FC}/flowschemas/exempt`);
    assert.equal(specOf(back).distinguisherMethod, undefined);
  });

  it('leaves a suggested object alone once its auto-update annotation is false', async () => {
    const fs = await get(t, `${FC}/flowschemas/global-default`);
    assert.ok(fs);
    const body = {
      ...fs,
      metadata: { ...fs.metadata, annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } },
      spec: { ...(fs.spec as object), matchingPrecedence: 9800 },
    };
    assert.equal(
      (await t.request('PUT', `${FC}/flowschemas/global-default`, { body })).status,
      200,
    );
    await reconciler.sync();
    const after = await get(t, `${FC}/flowschemas/global-default`);
    assert.equal(specOf(after).matchingPrecedence, 9800);
  });

  it('reports a FlowSchema whose priority level is missing as dangling', async () => {
    const body = {
      metadata: { name: 'orphan' },
      spec: {
        priorityLevelConfiguration: { name: 'nowhere' },
        matchingPrecedence: 5000,
        rules: [
          {
            subjects: [{ kind: 'Group', group: { name: 'x' } }],
            nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
          },
        ],
      },
    };
    assert.equal((await t.request('POST', `${FC}/flowschemas`, { body })).status, 201);
    await reconciler.sync();
    const c = condition(await get(t, `${FC}/flowschemas/orphan`), 'Dangling');
    assert.equal(c?.status, 'True');
    assert.equal(c?.reason, 'NotFound');
  });

  it('keeps one local, available APIService per served group-version', async () => {
    const items = await list(t, APISERVICES);
    const byName = new Map(items.map((s) => [s.metadata?.name, s]));
    for (const name of [
      'v1.',
      'v1.apps',
      'v1.networking.k8s.io',
      'v1.flowcontrol.apiserver.k8s.io',
    ]) {
      const s = byName.get(name);
      assert.ok(s, name);
      assert.equal(s.metadata?.labels?.['kube-aggregator.kubernetes.io/automanaged'], 'onstart');
      const c = condition(s, 'Available');
      assert.equal(c?.status, 'True');
      assert.equal(c?.reason, 'Local');
    }
    assert.equal(specOf(byName.get('v1.apps')).groupPriorityMinimum, 17800);
    const del = await t.request('DELETE', `${APISERVICES}/v1.apps`);
    assert.equal(del.status, 200);
    await reconciler.sync();
    assert.ok(await get(t, `${APISERVICES}/v1.apps`));
  });

  it('creates the default ServiceCIDR, Ready, and brings it back when deleted', async () => {
    const cidr = await get(t, `${NET}/servicecidrs/kubernetes`);
    assert.deepEqual(specOf(cidr).cidrs, ['10.96.0.0/12']);
    assert.equal(condition(cidr, 'Ready')?.status, 'True');
    assert.equal((await t.request('DELETE', `${NET}/servicecidrs/kubernetes`)).status, 200);
    await clock.step(CLUSTER_OBJECTS_INTERVAL_MS);
    await reconciler.sync();
    assert.ok(await get(t, `${NET}/servicecidrs/kubernetes`));
  });

  it('writes an IPAddress per ClusterIP and removes it with its Service', async () => {
    const svc = {
      metadata: { name: 'web' },
      spec: { clusterIP: '10.96.7.7', ports: [{ port: 80 }] },
    };
    const r = await t.request('POST', '/api/v1/namespaces/default/services', { body: svc });
    assert.equal(r.status, 201, r.text);
    await reconciler.sync();
    const ip = await get(t, `${NET}/ipaddresses/10.96.7.7`);
    assert.deepEqual(specOf(ip).parentRef, {
      group: '',
      resource: 'services',
      namespace: 'default',
      name: 'web',
    });
    assert.equal(
      ip?.metadata?.labels?.['ipaddress.kubernetes.io/managed-by'],
      'ipallocator.k8s.io',
    );
    await t.request('DELETE', '/api/v1/namespaces/default/services/web');
    await reconciler.sync();
    assert.equal(await get(t, `${NET}/ipaddresses/10.96.7.7`), undefined);
  });

  it('writes nothing when everything is as wanted', async () => {
    await reconciler.sync();
    const before = t.backend.list('/').revision;
    await reconciler.sync();
    assert.equal(t.backend.list('/').revision, before);
    assert.deepEqual(errors, []);
  });
});
