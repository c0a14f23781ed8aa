import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('namespaces', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('has the built-in namespaces, Active, held by the kubernetes finalizer', async () => {
    const r = await t.request('GET', '/api/v1/namespaces');
    const items = r.body.items as Array<{
      metadata: { name: string };
      spec: { finalizers: string[] };
      status: { phase: string };
    }>;
    const byName = new Map(items.map((i) => [i.metadata.name, i]));
    for (const n of ['default', 'kube-system', 'kube-node-lease']) {
      assert.equal(byName.get(n)?.status.phase, 'Active', n);
      assert.deepEqual(byName.get(n)?.spec.finalizers, ['kubernetes']);
    }
  });

  it('keeps spec.finalizers on a plain update: only /finalize changes them', async () => {
    const r = await t.request('PATCH', '/api/v1/namespaces/kube-public', {
      body: { spec: { finalizers: [] } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((r.body.spec as { finalizers: string[] }).finalizers, ['kubernetes']);
  });

  it('refuses content in a missing namespace', async () => {
    const r = await t.request('POST', '/api/v1/namespaces/ghost/configmaps', {
      body: { metadata: { name: 'x' } },
    });
    assert.equal(r.status, 404);
    assert.equal(r.body.message, 'namespaces "ghost" not found');
  });

  it('refuses deleting default', async () => {
    const r = await t.request('DELETE', '/api/v1/namespaces/default');
    assert.equal(r.status, 403);
    assert.equal(
      r.body.message,
      'namespaces "default" is forbidden: this namespace may not be deleted',
    );
  });

  it('deletes the content of a deleted namespace, then the namespace', async () => {
    assert.equal(
      (await t.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } } }))
        .status,
      201,
    );
    for (const n of ['a', 'b']) {
      await t.request('POST', '/api/v1/namespaces/team/configmaps', {
        body: { metadata: { name: n } },
      });
    }
    await t.request('POST', '/api/v1/namespaces/team/configmaps', {
      body: { metadata: { name: 'held', finalizers: ['x.io/hold'] } },
    });
    const del = await t.request('DELETE', '/api/v1/namespaces/team');
    assert.equal(del.status, 200);
    assert.equal((del.body.status as { phase: string }).phase, 'Terminating');
    const refused = await t.request('POST', '/api/v1/namespaces/team/configmaps', {
      body: { metadata: { name: 'late' } },
    });
    assert.equal(refused.status, 403);
    assert.equal(
      refused.body.message,
      'configmaps "late" is forbidden: unable to create new content in namespace team because it is being terminated',
    );
    await eventually(
      async () =>
        (await t.request('GET', '/api/v1/namespaces/team/configmaps')).body.items !== undefined &&
        ((await t.request('GET', '/api/v1/namespaces/team/configmaps')).body.items as unknown[])
          .length === 1,
    );
    assert.equal(
      (await t.request('GET', '/api/v1/namespaces/team')).status,
      200,
      'held by the remaining object',
    );
    await t.request('PATCH', '/api/v1/namespaces/team/configmaps/held', {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    await eventually(
      async () => (await t.request('GET', '/api/v1/namespaces/team')).status === 404,
    );
  });
});
