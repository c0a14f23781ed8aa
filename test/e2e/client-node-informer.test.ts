/**
 * `@kubernetes/client-node` 1.4's informer (`makeInformer` → `ListWatch`) against the real
 * `fleetyard up --ephemeral` (one process per suite): events, server-side watch closes, and a
 * forced compaction (docs/design/wire-protocol.md §4, §7).
 *
 * The informer is observed from both ends: client-side through its callbacks, the wrapped
 * `listFn` and the `connect` event (fired once per (re)connect, before a list when one is
 * needed), server-side through `apiserver_request_total` on `/metrics`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PatchStrategy, setHeaderOptions, type V1Status } from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { API_ONLY } from './testing/cluster.js';

// ---------------------------------------------------------------------------------------------

describe('client-node informer', () => {
  let h: support.Harness | undefined;
  before(async () => {
    h = await support.startHarness(API_ONLY);
  });
  after(() => support.stopHarness(h));

  it('sees add, update and delete, and its cache follows', async () => {
    const { core } = h!;
    const ns = 'informer-basic';
    await support.createNamespace(h!, ns);
    await support.createNamespace(h!, 'informer-other');
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: support.configMap(ns, 'pre', { v: '0' }),
    });

    const rec = support.recordInformer(h!, ns);
    await rec.informer.start();
    try {
      await support.waitFor('the listed object as add', () => rec.of('add', 'pre').length === 1);
      assert.equal(rec.lists(), 1);

      const created = await core.createNamespacedConfigMap({
        namespace: ns,
        body: support.configMap(ns, 'a', { v: '1' }),
      });
      await core.createNamespacedConfigMap({
        namespace: 'informer-other',
        body: support.configMap('informer-other', 'a', { v: 'elsewhere' }),
      });
      await support.waitFor('add of a', () => rec.of('add', 'a').length === 1);
      assert.deepEqual(rec.of('add', 'a')[0], {
        verb: 'add',
        name: 'a',
        resourceVersion: created.metadata?.resourceVersion,
        data: { v: '1' },
      });
      assert.deepEqual(rec.informer.get('a', ns)?.data, { v: '1' });

      const updated = await core.replaceNamespacedConfigMap({
        name: 'a',
        namespace: ns,
        body: { ...support.configMap(ns, 'a', { v: '2' }), metadata: created.metadata },
      });
      assert.ok(
        Number(updated.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion),
      );
      await support.waitFor('update of a', () => rec.of('update', 'a').length === 1);
      assert.deepEqual(rec.of('update', 'a')[0], {
        verb: 'update',
        name: 'a',
        resourceVersion: updated.metadata?.resourceVersion,
        data: { v: '2' },
      });
      assert.equal(
        rec.informer.get('a', ns)?.metadata?.resourceVersion,
        updated.metadata?.resourceVersion,
      );
      assert.deepEqual(rec.informer.get('a', ns)?.data, { v: '2' });

      await core.deleteNamespacedConfigMap({ name: 'a', namespace: ns });
      await support.waitFor('delete of a', () => rec.of('delete', 'a').length === 1);
      assert.deepEqual(rec.of('delete', 'a')[0]?.data, { v: '2' });
      assert.equal(rec.informer.get('a', ns), undefined);
      assert.deepEqual(
        rec.informer.list(ns).map((o) => o.metadata?.name),
        ['pre'],
      );

      // Exactly these callbacks: nothing from the other namespace, no duplicates.
      assert.deepEqual(
        rec.events.map((e) => `${e.verb} ${e.name}`),
        ['add pre', 'add a', 'update a', 'delete a'],
      );
      assert.deepEqual(rec.errors, []);
      assert.equal(rec.lists(), 1);
      await support.assertCacheMatchesServer(h!, rec, ns);
    } finally {
      await rec.informer.stop();
    }
  });
});

describe('client-node informer across server-side watch closes (--min-request-timeout 1)', () => {
  let h: support.Harness | undefined;
  before(async () => {
    h = await support.startHarness([...API_ONLY, '--min-request-timeout', '1']);
  });
  after(() => support.stopHarness(h));

  it('resumes at the last resourceVersion without a relist and misses no update', async () => {
    const { core } = h!;
    const ns = 'informer-resume';
    await support.createNamespace(h!, ns);
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: support.configMap(ns, 'counter', { n: '0' }),
    });

    const rec = support.recordInformer(h!, ns);
    await rec.informer.start();
    /** Every resourceVersion the server acknowledged for a create or update in `ns`. */
    const acknowledged: string[] = [];
    let writing = true;
    let writeError: unknown;
    const writer = (async () => {
      for (let i = 1; writing; i++) {
        const cm = await core.patchNamespacedConfigMap(
          { name: 'counter', namespace: ns, body: { data: { n: String(i) } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        );
        acknowledged.push(cm.metadata?.resourceVersion ?? '');
        if (i % 5 === 0) {
          const extra = await core.createNamespacedConfigMap({
            namespace: ns,
            body: support.configMap(ns, `extra-${i}`, { i: String(i) }),
          });
          acknowledged.push(extra.metadata?.resourceVersion ?? '');
        }
        if (i % 10 === 0)
          await core.deleteNamespacedConfigMap({ name: `extra-${i - 5}`, namespace: ns });
        await new Promise((r) => setTimeout(r, 2));
      }
    })().catch((e: unknown) => {
      writeError = e;
    });
    try {
      // Three connects = the first watch plus two reconnects after server-side closes.
      await support.waitFor(
        'two server-side watch closes',
        () => rec.connects() >= 3 || writeError !== undefined,
        {
          timeoutMs: 15_000,
          detail: () => `connects=${rec.connects()} lists=${rec.lists()}`,
        },
      );
      writing = false;
      await writer;
      assert.equal(writeError, undefined);
      const missed = (): string[] => {
        const seen = new Set(rec.events.map((e) => e.resourceVersion));
        return acknowledged.filter((rv) => !seen.has(rv));
      };
      await support.waitFor(
        'every acknowledged write as an informer callback',
        () => missed().length === 0,
        {
          detail: () =>
            `missed ${missed().length} of ${acknowledged.length} writes across ${rec.connects() - 1} reconnects, e.g. resourceVersions ${missed().slice(0, 10).join(', ')}`,
        },
      );

      assert.equal(rec.lists(), 1, 'a normal close must be resumed by a watch, not a relist');
      assert.deepEqual(rec.errors, []);
      // Each resourceVersion is delivered once: a resume starts after the last event seen.
      const counterRvs = rec.events
        .filter((e) => e.name === 'counter')
        .map((e) => e.resourceVersion);
      assert.equal(new Set(counterRvs).size, counterRvs.length);
      assert.deepEqual(
        counterRvs.map(Number),
        [...counterRvs.map(Number)].sort((a, b) => a - b),
      );
      await support.assertCacheMatchesServer(h!, rec, ns);
      assert.ok(acknowledged.length >= 10, `only ${acknowledged.length} writes`);

      // The server saw exactly one informer list (plus the one support.assertCacheMatchesServer made)
      // and one watch request per connect (the callback fires just before the request).
      assert.equal(await support.serverRequests(h!.cluster, 'list', 'configmaps'), 2);
      const connectsBefore = rec.connects();
      const watches = await support.serverRequests(h!.cluster, 'watch', 'configmaps');
      const connectsAfter = rec.connects();
      assert.ok(
        watches >= connectsBefore - 1 && watches <= connectsAfter,
        `server saw ${watches} watches, informer connected ${connectsBefore}..${connectsAfter} times`,
      );
    } finally {
      writing = false;
      await writer;
      await rec.informer.stop();
    }
  });
});

describe('client-node informer after a forced compaction (--history-limit 20)', () => {
  const HISTORY = 20;
  let h: support.Harness | undefined;
  before(async () => {
    h = await support.startHarness([
      ...API_ONLY,
      '--history-limit',
      String(HISTORY),
      '--min-request-timeout',
      '1',
    ]);
  });
  after(() => support.stopHarness(h));

  it('relists exactly once on 410 Expired and keeps a correct cache', async () => {
    const { core } = h!;
    const a = 'compact-a';
    const b = 'compact-b';
    await support.createNamespace(h!, a);
    await support.createNamespace(h!, b);
    for (const name of ['keep', 'change', 'gone']) {
      await core.createNamespacedConfigMap({
        namespace: a,
        body: support.configMap(a, name, { v: '0' }),
      });
    }

    const rec = support.recordInformer(h!, a);
    await rec.informer.start();
    try {
      await support.waitFor('the initial list', () => rec.informer.list(a).length === 3);
      // Changes in A while the informer watches: the last one is the informer's revision.
      await core.patchNamespacedConfigMap(
        { name: 'change', namespace: a, body: { data: { v: '1' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await core.deleteNamespacedConfigMap({ name: 'gone', namespace: a });
      const added = await core.createNamespacedConfigMap({
        namespace: a,
        body: support.configMap(a, 'new', { v: '1' }),
      });
      const oldRevision = Number(added.metadata?.resourceVersion);
      await support.waitFor(
        'the informer to see the changes in A',
        () => rec.of('add', 'new').length === 1,
      );
      assert.equal(rec.lists(), 1);

      // Push the informer's revision out of the history window from another namespace.
      for (let i = 0; i < HISTORY * 2; i++) {
        await core.createNamespacedConfigMap({
          namespace: b,
          body: support.configMap(b, `fill-${i}`, {}),
        });
      }

      // The next reconnect gets 410 Expired and relists once.
      await support.waitFor('the relist after 410 Expired', () => rec.lists() >= 2, {
        timeoutMs: 15_000,
        detail: () => `lists=${rec.lists()} connects=${rec.connects()} errors=${rec.errors.length}`,
      });
      const connectsAtRelist = rec.connects();
      const callbacksAtRelist = rec.events.length;

      // A change after the relist arrives through the watch.
      const kept = await core.patchNamespacedConfigMap(
        { name: 'keep', namespace: a, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await support.waitFor(
        'update of keep after the relist',
        () => rec.of('update', 'keep').length === 1,
      );
      assert.equal(rec.of('update', 'keep')[0]?.resourceVersion, kept.metadata?.resourceVersion);

      // A few more server-side closes: resumed by watches at a current revision, no relist loop.
      await support.waitFor('three more reconnects', () => rec.connects() >= connectsAtRelist + 3, {
        timeoutMs: 15_000,
        detail: () => `lists=${rec.lists()} connects=${rec.connects()}`,
      });
      assert.equal(rec.lists(), 2, 'one 410 must cause exactly one relist');
      assert.deepEqual(rec.errors, []);

      // The relist found the cache already current: no callbacks came from it, and every
      // change was reported exactly once.
      assert.equal(
        callbacksAtRelist,
        3 + 3,
        rec.events.map((e) => `${e.verb} ${e.name}`).join(', '),
      );
      assert.deepEqual(rec.events.map((e) => `${e.verb} ${e.name}`).sort(), [
        'add change',
        'add gone',
        'add keep',
        'add new',
        'delete gone',
        'update change',
        'update keep',
      ]);
      assert.deepEqual(rec.informer.get('change', a)?.data, { v: '1' });
      assert.deepEqual(rec.informer.get('keep', a)?.data, { v: '2' });
      assert.equal(rec.informer.get('gone', a), undefined);
      await support.assertCacheMatchesServer(h!, rec, a);

      // The wire shape behind it (docs/design/wire-protocol.md §4.4): HTTP 200, one ERROR
      // event with a 410 Expired Status, then the end of the stream.
      const { status, body } = await support.rawGet(
        h!.cluster,
        `/api/v1/namespaces/${a}/configmaps?watch=true&resourceVersion=${oldRevision}`,
      );
      assert.equal(status, 200);
      const lines = body.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, body);
      const event = JSON.parse(lines[0]!) as { type: string; object: V1Status };
      assert.equal(event.type, 'ERROR');
      assert.equal(event.object.kind, 'Status');
      assert.equal(event.object.code, 410);
      assert.equal(event.object.reason, 'Expired');
      assert.match(event.object.message ?? '', /too old resource version/);
    } finally {
      await rec.informer.stop();
    }
  });
});
