import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('optimistic concurrency', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  for (const n of [2, 16, 64]) {
    it(`${n} concurrent updates with one resourceVersion: exactly one wins, the rest get 409`, async () => {
      const name = `race-${n}`;
      const created = await t.request('POST', CM, {
        body: { metadata: { name }, data: { v: 'init' } },
      });
      const rv = (created.body.metadata as { resourceVersion: string }).resourceVersion;
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          t.request('PUT', `${CM}/${name}`, {
            body: { metadata: { name, resourceVersion: rv }, data: { v: String(i) } },
          }),
        ),
      );
      const codes = results.map((r) => r.status);
      assert.equal(codes.filter((c) => c === 200).length, 1, `codes: ${codes}`);
      assert.equal(codes.filter((c) => c === 409).length, n - 1);
      const winner = results.find((r) => r.status === 200)!;
      const stored = await t.request('GET', `${CM}/${name}`);
      assert.deepEqual(stored.body.data, winner.body.data);
    });
  }

  it('merge patches without a resourceVersion never lose each other', async () => {
    await t.request('POST', CM, { body: { metadata: { name: 'merge' } } });
    await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        t.request('PATCH', `${CM}/merge`, {
          body: { data: { [`k${i}`]: String(i) } },
          contentType: 'application/merge-patch+json',
        }),
      ),
    );
    const stored = await t.request('GET', `${CM}/merge`);
    assert.equal(Object.keys(stored.body.data as object).length, 32);
  });
});

describe('authentication', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ token: 'sekret-token-value' });
  });
  after(async () => {
    await t.close();
  });

  it('answers 401 Status without a token or with a wrong one, and serves health without one', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: 'Basic abc' },
    ];
    for (const headers of attempts) {
      const r = await t.request('GET', '/api/v1/namespaces', { headers });
      assert.equal(r.status, 401);
      assert.equal(r.body.reason, 'Unauthorized');
      assert.equal(r.body.message, 'Unauthorized');
      assert.ok(!r.text.includes('sekret'));
    }
    const ok = await t.request('GET', '/api/v1/namespaces', {
      headers: { authorization: 'Bearer sekret-token-value' },
    });
    assert.equal(ok.status, 200);
    assert.equal((await t.request('GET', '/readyz')).status, 200);
    assert.equal((await t.request('GET', '/version')).status, 200, 'public without credentials');
    const wrong = { authorization: 'Bearer wrong' };
    assert.equal((await t.request('GET', '/version', { headers: wrong })).status, 401);
    assert.equal((await t.request('GET', '/healthz', { headers: wrong })).status, 401);
  });
});
