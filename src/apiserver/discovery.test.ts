import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('discovery', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('serves legacy /api and /apis to a plain JSON client', async () => {
    const api = await t.request('GET', '/api', { accept: 'application/json' });
    assert.equal(api.body.kind, 'APIVersions');
    assert.deepEqual(api.body.versions, ['v1']);
    const apis = await t.request('GET', '/apis', { accept: 'application/json' });
    assert.equal(apis.body.kind, 'APIGroupList');
    const groups = (apis.body.groups as Array<{ name: string }>).map((g) => g.name);
    for (const g of [
      'apps',
      'storage.k8s.io',
      'coordination.k8s.io',
      'policy',
      'networking.k8s.io',
      'events.k8s.io',
    ]) {
      assert.ok(groups.includes(g), g);
    }
  });

  it('lists resources with scale and status subresources', async () => {
    const r = await t.request('GET', '/apis/apps/v1');
    assert.equal(r.body.kind, 'APIResourceList');
    assert.equal(r.body.groupVersion, 'apps/v1');
    const byName = new Map(
      (r.body.resources as Array<Record<string, unknown>>).map((x) => [x.name, x]),
    );
    assert.deepEqual(byName.get('deployments/scale'), {
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    assert.deepEqual(byName.get('deployments')?.shortNames, ['deploy']);
    assert.deepEqual(byName.get('deployments')?.categories, ['all']);
    assert.equal((await t.request('GET', '/apis/nope/v1')).status, 404);
  });

  it('serves aggregated v2 only with its exact media type, labelled as such', async () => {
    const r = await t.request('GET', '/apis', { accept: `${V2},${V2BETA1},application/json` });
    assert.equal(r.headers['content-type'], V2);
    assert.equal(r.body.kind, 'APIGroupDiscoveryList');
    assert.equal(r.body.apiVersion, 'apidiscovery.k8s.io/v2');
    const beta = await t.request('GET', '/api', { accept: `${V2BETA1},application/json` });
    assert.equal(beta.headers['content-type'], V2BETA1);
    const items = beta.body.items as Array<{
      versions: Array<{ resources: Array<{ resource: string; scope: string }> }>;
    }>;
    const pods = items[0]!.versions[0]!.resources.find((x) => x.resource === 'pods');
    assert.equal(pods?.scope, 'Namespaced');
    // A client that asks for something else gets the legacy document.
    const legacy = await t.request('GET', '/apis', {
      accept:
        'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json',
    });
    assert.equal(legacy.body.kind, 'APIGroupList');
  });

  it('answers JSON when protobuf is preferred, and 406 when JSON is not acceptable', async () => {
    const r = await t.request('GET', '/api/v1/namespaces/default', {
      accept: 'application/vnd.kubernetes.protobuf,application/json',
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'Namespace');
    const no = await t.request('GET', '/api/v1/namespaces/default', {
      accept: 'application/vnd.kubernetes.protobuf',
    });
    assert.equal(no.status, 406);
    assert.equal(no.body.kind, 'Status');
  });

  it('serves version, health and metrics', async () => {
    const v = await t.request('GET', '/version');
    assert.equal(v.body.major, '1');
    for (const p of ['/healthz', '/readyz', '/livez'])
      assert.equal((await t.request('GET', p)).text, 'ok');
    await t.request('GET', '/api/v1/namespaces');
    const m = await t.request('GET', '/metrics');
    assert.match(
      m.text,
      /apiserver_request_total\{verb="list",resource="namespaces",code="200"\} \d+/,
    );
    assert.match(m.text, /fleetyard_storage_event_history_size \d+/);
  });
});
