import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

const PODS = '/api/v1/namespaces/default/pods';

function pod(
  name: string,
  labels: Record<string, string>,
  extra: Record<string, unknown> = {},
): object {
  return {
    metadata: { name, labels },
    spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...extra },
  };
}

function names(body: Record<string, unknown>): string[] {
  return (body.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name);
}

describe('LIST', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', PODS, {
      body: pod('a', { app: 'web', tier: 'front' }, { nodeName: 'n1' }),
    });
    await t.request('POST', PODS, { body: pod('b', { app: 'web', tier: 'db' }) });
    await t.request('POST', PODS, { body: pod('c', { app: 'db' }, { nodeName: 'n2' }) });
    await t.request('POST', '/api/v1/namespaces/kube-system/pods', {
      body: pod('d', { app: 'web' }),
    });
  });
  after(async () => {
    await t.close();
  });

  it('returns a typed list with the current resourceVersion', async () => {
    const r = await t.request('GET', PODS);
    assert.equal(r.body.kind, 'PodList');
    assert.equal(r.body.apiVersion, 'v1');
    assert.equal(
      (r.body.metadata as { resourceVersion: string }).resourceVersion,
      String(t.backend.currentRevision()),
    );
    assert.deepEqual(names(r.body), ['a', 'b', 'c']);
  });

  it('lists every namespace on the cluster-wide path', async () => {
    assert.deepEqual(names((await t.request('GET', '/api/v1/pods')).body), ['a', 'b', 'c', 'd']);
  });

  const selectorCases: Array<[string, string[]]> = [
    ['labelSelector=app%3Dweb', ['a', 'b']],
    ['labelSelector=app%3Dweb%2Ctier!%3Ddb', ['a']],
    ['labelSelector=app%20in%20(web%2Cdb)%2C!tier', ['c']],
    ['labelSelector=tier', ['a', 'b']],
    ['fieldSelector=spec.nodeName%3Dn1', ['a']],
    ['fieldSelector=metadata.name!%3Da', ['b', 'c']],
    ['fieldSelector=status.phase%3DPending', ['a', 'b', 'c']],
    ['labelSelector=app%3Dweb&fieldSelector=spec.nodeName%3D', ['b']],
  ];
  for (const [query, expected] of selectorCases) {
    it(`filters with ${decodeURIComponent(query)}`, async () => {
      const r = await t.request('GET', `${PODS}?${query}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(names(r.body), expected);
    });
  }

  it('answers 400 for a bad label selector or an unknown field', async () => {
    assert.equal((await t.request('GET', `${PODS}?labelSelector=a%20in%20(`)).status, 400);
    const f = await t.request('GET', `${PODS}?fieldSelector=spec.foo%3Dbar`);
    assert.equal(f.status, 400);
    assert.equal(f.body.reason, 'BadRequest');
  });

  it('paginates with limit/continue on a consistent snapshot', async () => {
    const first = await t.request('GET', `${PODS}?limit=2`);
    assert.deepEqual(names(first.body), ['a', 'b']);
    const meta = first.body.metadata as {
      continue: string;
      remainingItemCount: number;
      resourceVersion: string;
    };
    assert.equal(meta.remainingItemCount, 1);
    // A write between pages does not show up in the second page.
    await t.request('POST', PODS, { body: pod('bb', { app: 'web' }) });
    const second = await t.request(
      'GET',
      `${PODS}?limit=2&continue=${encodeURIComponent(meta.continue)}`,
    );
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(names(second.body), ['c']);
    assert.equal(
      (second.body.metadata as { resourceVersion: string }).resourceVersion,
      meta.resourceVersion,
    );
    assert.equal((second.body.metadata as { continue?: string }).continue, undefined);
    assert.equal((await t.request('GET', `${PODS}?continue=garbage`)).status, 400);
  });
});

describe('WATCH', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ historyLimit: 50 });
  });
  after(async () => {
    await t.close();
  });

  it('streams ADDED, MODIFIED and DELETED from a resourceVersion, newline-delimited', async () => {
    const rv = t.backend.currentRevision();
    const w = await t.watch(`${PODS}?watch=true&resourceVersion=${rv}`);
    assert.equal(w.status, 200);
    await t.request('POST', PODS, { body: pod('w1', { app: 'x' }) });
    await t.request('PATCH', `${PODS}/w1`, {
      body: { metadata: { labels: { v: '2' } } },
      contentType: 'application/merge-patch+json',
    });
    await t.request('DELETE', `${PODS}/w1`);
    const events = await w.waitFor(3);
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
    const rvs = events.map((e) => Number(e.object.metadata?.resourceVersion));
    assert.ok(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!, `increasing: ${rvs}`);
    assert.equal(events[2]!.object.kind, 'Pod');
    w.close();
  });

  it('starts with the current state when no resourceVersion is given', async () => {
    await t.request('POST', PODS, { body: pod('s1', { app: 'x' }) });
    const w = await t.watch(`${PODS}?watch=1`);
    const events = await w.waitFor(1);
    assert.equal(events[0]!.type, 'ADDED');
    assert.equal(events[0]!.object.metadata?.name, 's1');
    w.close();
  });

  it('turns selector transitions into ADDED and DELETED', async () => {
    await t.request('POST', PODS, { body: pod('sel', { app: 'no' }) });
    const rv = t.backend.currentRevision();
    const w = await t.watch(`${PODS}?watch=true&resourceVersion=${rv}&labelSelector=app%3Dyes`);
    const patch = (app: string) =>
      t.request('PATCH', `${PODS}/sel`, {
        body: { metadata: { labels: { app } } },
        contentType: 'application/merge-patch+json',
      });
    await patch('yes');
    await t.request('PATCH', `${PODS}/sel`, {
      body: { metadata: { annotations: { a: 'b' } } },
      contentType: 'application/merge-patch+json',
    });
    await patch('no');
    const events = await w.waitFor(3);
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'MODIFIED', 'DELETED'],
    );
    const last = events[2]!;
    assert.equal(
      (last.object.metadata?.labels as Record<string, string> | undefined)?.app,
      'yes',
      'DELETED carries the old content',
    );
    assert.equal(
      last.object.metadata?.resourceVersion,
      String(t.backend.currentRevision()),
      'and the new revision',
    );
    w.close();
  });

  it('sends one ERROR 410 Expired event and closes when the start is compacted', async () => {
    for (let i = 0; i < 60; i++) {
      await t.request('POST', PODS, { body: pod(`bulk-${i}`, { app: 'bulk' }) });
    }
    await t.backend.compact(t.backend.currentRevision() - 10);
    const w = await t.watch(`${PODS}?watch=true&resourceVersion=2`);
    assert.equal(w.status, 200);
    await w.ended;
    assert.equal(w.events.length, 1);
    const ev = w.events[0]!;
    assert.equal(ev.type, 'ERROR');
    assert.equal(ev.object.kind, 'Status');
    assert.equal(ev.object.code, 410);
    assert.equal(ev.object.reason, 'Expired');
    assert.match(String(ev.object.message), /^too old resource version: 2 \(\d+\)$/);
  });

  it('honours timeoutSeconds and sends a bookmark before closing when asked', async () => {
    const w = await t.watch(
      `${PODS}?watch=true&resourceVersion=${t.backend.currentRevision()}&timeoutSeconds=1&allowWatchBookmarks=true`,
    );
    await w.ended;
    assert.equal(w.events.at(-1)?.type, 'BOOKMARK');
    assert.equal(
      w.events.at(-1)?.object.metadata?.resourceVersion,
      String(t.backend.currentRevision()),
    );
  });
});
