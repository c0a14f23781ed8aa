import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ActionRequest, Actions, editList } from './actions.js';
import { Api } from './api.js';
import { change, node, obj, pod, pv } from './fixtures.js';
import { isJsonObject, type KubeObject } from './json.js';
import { ObjectStore } from './store.js';

/** RFC 7386 JSON merge patch. */
function merge(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const out: Record<string, unknown> = isJsonObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = merge(out[k], v);
  }
  return out;
}

function statusResponse(code: number, message: string): Response {
  return new Response(JSON.stringify({ kind: 'Status', code, message }), { status: code });
}

/** An API server holding objects by path; evictions delete the pod; `refuse` maps a path to a Status. */
class FakeServer {
  readonly objects = new Map<string, unknown>();
  readonly refuse = new Map<string, { code: number; message: string }>();
  readonly contentTypes = new Set<string>();

  fetch = async (path: string, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? 'GET';
    const ct = new Headers(init?.headers).get('Content-Type');
    if (ct !== null) this.contentTypes.add(`${method} ${ct}`);
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const refused = this.refuse.get(`${method} ${path}`);
    const status = statusResponse;
    if (refused !== undefined) return status(refused.code, refused.message);
    const current = this.objects.get(path);
    switch (method) {
      case 'GET':
        return current === undefined ? status(404, `${path} not found`) : Response.json(current);
      case 'PATCH':
        if (current === undefined) return status(404, `${path} not found`);
        this.objects.set(path, merge(current, body));
        return Response.json(this.objects.get(path));
      case 'DELETE':
        if (current === undefined) return status(404, `${path} not found`);
        this.objects.delete(path);
        return Response.json({});
      case 'PUT':
        return this.put(path, current, body);
      case 'POST':
        return this.post(path, body);
      default:
        return status(405, 'method not allowed');
    }
  };

  private put(path: string, current: unknown, body: unknown): Response {
    const rv = (o: unknown) =>
      isJsonObject(o) && isJsonObject(o.metadata) ? o.metadata.resourceVersion : undefined;
    if (current !== undefined && rv(current) !== rv(body))
      return statusResponse(409, 'the object has been modified');
    const next = merge(body, {
      metadata: { resourceVersion: String(Number(rv(current) ?? 0) + 1) },
    });
    this.objects.set(path, next);
    return Response.json(next);
  }

  private post(path: string, body: unknown): Response {
    if (path.endsWith('/eviction')) {
      const podPath = path.slice(0, -'/eviction'.length);
      if (!this.objects.has(podPath)) return statusResponse(404, 'not found');
      this.objects.delete(podPath);
      return Response.json({});
    }
    const name =
      isJsonObject(body) && isJsonObject(body.metadata) ? String(body.metadata.name) : '';
    if (this.objects.has(`${path}/${name}`)) return statusResponse(409, 'already exists');
    this.objects.set(`${path}/${name}`, body);
    return new Response(JSON.stringify(body), { status: 201 });
  }

  at(path: string): unknown {
    return this.objects.get(path);
  }
}

function setup(objects: [string, string, string, KubeObject][]) {
  const server = new FakeServer();
  const store = new ObjectStore();
  for (const [group, resource, path, o] of objects) {
    server.objects.set(path, o);
    store.apply(change('ADDED', group, resource, o));
  }
  return { server, store, actions: new Actions(new Api(server.fetch), () => store) };
}

const annotations = (o: unknown): unknown =>
  isJsonObject(o) && isJsonObject(o.metadata) ? o.metadata.annotations : undefined;
const spec = (o: unknown): unknown => (isJsonObject(o) ? o.spec : undefined);

describe('Actions', () => {
  const cases: [string, ActionRequest, string, (o: unknown) => unknown, unknown][] = [
    [
      'node down',
      { action: 'node-down', node: 'n1' },
      '/api/v1/nodes/n1',
      (o) => annotations(o),
      { 'kubernetes.io/x': 'y', 'sim.fleetyard.dev/state': 'down' },
    ],
    [
      'node up',
      { action: 'node-up', node: 'n1' },
      '/api/v1/nodes/n1',
      (o) => annotations(o),
      { 'kubernetes.io/x': 'y', 'sim.fleetyard.dev/state': 'up' },
    ],
    ['cordon', { action: 'cordon', node: 'n1' }, '/api/v1/nodes/n1', spec, { unschedulable: true }],
    [
      'crash',
      { action: 'crash', namespace: 'ns', name: 'p1' },
      '/api/v1/namespaces/ns/pods/p1',
      annotations,
      { 'sim.fleetyard.dev/exit-code': '1' },
    ],
    [
      'break readiness',
      { action: 'break-readiness', namespace: 'ns', name: 'p1' },
      '/api/v1/namespaces/ns/pods/p1',
      annotations,
      { 'sim.fleetyard.dev/ready': 'false' },
    ],
    [
      'scale a StatefulSet through /scale',
      {
        action: 'scale',
        group: 'apps',
        resource: 'statefulsets',
        namespace: 'ns',
        name: 'web',
        replicas: 5,
      },
      '/apis/apps/v1/namespaces/ns/statefulsets/web/scale',
      spec,
      { replicas: 5 },
    ],
  ];
  for (const [name, req, path, read, want] of cases) {
    it(name, async () => {
      const n1 = node('n1');
      const { server, actions } = setup([
        [
          '',
          'nodes',
          '/api/v1/nodes/n1',
          { ...n1, metadata: { ...n1.metadata, annotations: { 'kubernetes.io/x': 'y' } } },
        ],
        ['', 'pods', '/api/v1/namespaces/ns/pods/p1', pod('ns', 'p1', { node: 'n1' })],
        [
          'apps',
          'statefulsets',
          '/apis/apps/v1/namespaces/ns/statefulsets/web/scale',
          { ...obj('Scale', 'web', { namespace: 'ns' }), spec: { replicas: 3 } },
        ],
      ]);
      await actions.run(req);
      assert.deepEqual(read(server.at(path)), want);
      assert.ok(
        [...server.contentTypes].every(
          (c) => !c.startsWith('PATCH') || c === 'PATCH application/merge-patch+json',
        ),
      );
    });
  }

  it('restore readiness removes the annotation and uncordon removes unschedulable', async () => {
    const n = node('n1', { unschedulable: true });
    const p = pod('ns', 'p1');
    const { server, actions } = setup([
      ['', 'nodes', '/api/v1/nodes/n1', n],
      [
        '',
        'pods',
        '/api/v1/namespaces/ns/pods/p1',
        { ...p, metadata: { ...p.metadata, annotations: { 'sim.fleetyard.dev/ready': 'false' } } },
      ],
    ]);
    await actions.run({ action: 'restore-readiness', namespace: 'ns', name: 'p1' });
    await actions.run({ action: 'uncordon', node: 'n1' });
    assert.deepEqual(annotations(server.at('/api/v1/namespaces/ns/pods/p1')), {});
    assert.deepEqual(spec(server.at('/api/v1/nodes/n1')), {});
  });

  it('drain cordons and evicts every pod on the node except DaemonSet pods', async () => {
    const ds = { kind: 'DaemonSet', name: 'agent', uid: 'ds', controller: true };
    const { server, actions } = setup([
      ['', 'nodes', '/api/v1/nodes/n1', node('n1')],
      ['', 'pods', '/api/v1/namespaces/ns/pods/a', pod('ns', 'a', { node: 'n1' })],
      ['', 'pods', '/api/v1/namespaces/ns/pods/b', pod('ns', 'b', { node: 'n1' })],
      ['', 'pods', '/api/v1/namespaces/ns/pods/other', pod('ns', 'other', { node: 'n2' })],
      [
        '',
        'pods',
        '/api/v1/namespaces/kube-system/pods/agent-x',
        pod('kube-system', 'agent-x', { node: 'n1', owner: ds }),
      ],
    ]);
    await actions.run({ action: 'drain', node: 'n1' });
    assert.deepEqual(spec(server.at('/api/v1/nodes/n1')), { unschedulable: true });
    assert.deepEqual([...server.objects.keys()].filter((k) => k.includes('/pods/')).sort(), [
      '/api/v1/namespaces/kube-system/pods/agent-x',
      '/api/v1/namespaces/ns/pods/other',
    ]);
  });

  it('drain reports evictions a disruption budget refused, with the server’s message', async () => {
    const { server, actions } = setup([
      ['', 'nodes', '/api/v1/nodes/n1', node('n1')],
      ['', 'pods', '/api/v1/namespaces/ns/pods/a', pod('ns', 'a', { node: 'n1' })],
    ]);
    server.refuse.set('POST /api/v1/namespaces/ns/pods/a/eviction', {
      code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    });
    await assert.rejects(
      actions.run({ action: 'drain', node: 'n1' }),
      /1 of 1 evictions failed: ns\/a: Cannot evict pod/,
    );
  });

  it('lose-volume deletes the claim’s PV', async () => {
    const claim = obj(
      'PersistentVolumeClaim',
      'data-0',
      { namespace: 'ns' },
      { volumeName: 'pv-1' },
      { phase: 'Bound' },
    );
    const { server, actions } = setup([
      ['', 'persistentvolumeclaims', '/api/v1/namespaces/ns/persistentvolumeclaims/data-0', claim],
      [
        '',
        'persistentvolumes',
        '/api/v1/persistentvolumes/pv-1',
        pv('pv-1', { claim: 'ns/data-0' }),
      ],
    ]);
    await actions.run({ action: 'lose-volume', namespace: 'ns', name: 'data-0' });
    assert.equal(server.at('/api/v1/persistentvolumes/pv-1'), undefined);
    assert.ok(server.at('/api/v1/namespaces/ns/persistentvolumeclaims/data-0') !== undefined);
  });

  it('fail-zone creates the faults ConfigMap, restore-zone edits it', async () => {
    const { server, actions } = setup([]);
    const path = '/api/v1/namespaces/kube-system/configmaps/fleetyard-storage';
    await actions.run({ action: 'fail-zone', zone: 'b' });
    await actions.run({ action: 'fail-zone', zone: 'a' });
    const data = (o: unknown) => (isJsonObject(o) ? o.data : undefined);
    assert.deepEqual(data(server.at(path)), { 'failing-zones': 'a,b' });
    await actions.run({ action: 'restore-zone', zone: 'b' });
    assert.deepEqual(data(server.at(path)), { 'failing-zones': 'a' });
  });

  it('fail-zone re-reads the ConfigMap when the stream’s copy is stale', async () => {
    const path = '/api/v1/namespaces/kube-system/configmaps/fleetyard-storage';
    const cm = (zones: string, rv: string) => ({
      ...obj('ConfigMap', 'fleetyard-storage', { namespace: 'kube-system' }),
      metadata: { name: 'fleetyard-storage', namespace: 'kube-system', resourceVersion: rv },
      data: { 'failing-zones': zones, 'zone-capacity': 'a=1Ti' },
    });
    const { server, actions } = setup([['', 'configmaps', path, cm('', '1')]]);
    server.objects.set(path, cm('c', '2'));
    await actions.run({ action: 'fail-zone', zone: 'a' });
    const data = (o: unknown) => (isJsonObject(o) ? o.data : undefined);
    assert.deepEqual(data(server.at(path)), { 'failing-zones': 'a,c', 'zone-capacity': 'a=1Ti' });
  });

  it('restart-fleet sets a new restart token', async () => {
    const path = '/apis/celld.fleetyard.dev/v1alpha1/namespaces/shop/celldfleets/orders';
    const { server, actions } = setup([
      [
        'celld.fleetyard.dev',
        'celldfleets',
        path,
        obj('CelldFleet', 'orders', { namespace: 'shop' }, { replicas: 3 }),
      ],
    ]);
    await actions.run({ action: 'restart-fleet', namespace: 'shop', name: 'orders' });
    const token = (spec(server.at(path)) as { maintenance?: { restartToken?: string } }).maintenance
      ?.restartToken;
    assert.ok(token !== undefined && !Number.isNaN(Date.parse(token)));
  });

  it('a refused write rejects with the Status message', async () => {
    const { server, actions } = setup([['', 'nodes', '/api/v1/nodes/n1', node('n1')]]);
    server.refuse.set('PATCH /api/v1/nodes/n1', {
      code: 403,
      message: 'nodes "n1" is forbidden: User "x" cannot patch resource "nodes"',
    });
    await assert.rejects(actions.run({ action: 'node-down', node: 'n1' }), {
      message: 'nodes "n1" is forbidden: User "x" cannot patch resource "nodes"',
    });
  });
});

describe('editList', () => {
  const cases: [string | undefined, string, boolean, string][] = [
    [undefined, 'a', true, 'a'],
    ['b', 'a', true, 'a,b'],
    ['a, b', 'a', false, 'b'],
    ['a', 'a', true, 'a'],
    ['', 'x', false, ''],
  ];
  for (const [list, v, present, want] of cases)
    it(`${list} ${present ? '+' : '-'}${v} → ${want}`, () =>
      assert.equal(editList(list, v, present), want));
});
