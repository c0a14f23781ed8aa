/** `pods/binding`: how a scheduler assigns a pod to a node. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const PODS = '/api/v1/namespaces/default/pods';

function binding(pod: string, node: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: pod, ...extra },
    target: { apiVersion: 'v1', kind: 'Node', name: node },
  };
}

describe('pods/binding', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    for (const name of ['a', 'b']) {
      const r = await t.request('POST', PODS, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await t.close();
  });

  it('binds a pod: nodeName, the binding annotations and PodScheduled=True', async () => {
    const r = await t.request('POST', `${PODS}/a/binding`, {
      body: binding('a', 'node-1', { annotations: { 'scheduler.example/score': '7' } }),
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    });
    const pod = (await t.request('GET', `${PODS}/a`)).body as {
      metadata: { annotations: Record<string, string> };
      spec: { nodeName: string };
      status: { conditions: { type: string; status: string }[] };
    };
    assert.equal(pod.spec.nodeName, 'node-1');
    assert.equal(pod.metadata.annotations['scheduler.example/score'], '7');
    assert.equal(pod.status.conditions.find((c) => c.type === 'PodScheduled')?.status, 'True');
  });

  it('refuses to bind a bound pod (409, upstream text)', async () => {
    const r = await t.request('POST', `${PODS}/a/binding`, { body: binding('a', 'node-2') });
    assert.equal(r.status, 409);
    assert.equal(
      r.body.message,
      'Operation cannot be fulfilled on pods/binding "a": pod a is already assigned to node "node-1"',
    );
  });

  it('validates the target (422) and the name (400)', async () => {
    const noTarget = await t.request('POST', `${PODS}/b/binding`, {
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b' }, target: {} },
    });
    assert.equal(noTarget.status, 422);
    assert.equal(noTarget.body.message, 'Binding "b" is invalid: target.name: Required value');
    const wrongName = await t.request('POST', `${PODS}/b/binding`, { body: binding('c', 'n') });
    assert.equal(wrongName.status, 400);
  });

  it('is listed in discovery as pods/binding (create, kind Binding)', async () => {
    const r = await t.request('GET', '/api/v1');
    const entry = (r.body.resources as { name: string; kind: string; verbs: string[] }[]).find(
      (e) => e.name === 'pods/binding',
    );
    assert.deepEqual(entry && { kind: entry.kind, verbs: entry.verbs }, {
      kind: 'Binding',
      verbs: ['create'],
    });
  });
});
