import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { KubeObject } from '../api/object.js';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { FakeClock } from '../util/clock.js';
import { HttpListerWatcher } from './http-lister-watcher.js';
import {
  ExpiredError,
  type ListerWatcher,
  type ListOptions,
  StatusCodeError,
  type WatchEvent,
  type WatchOptions,
} from './lister-watcher.js';
import { DeletedFinalStateUnknown, type EventHandler, SharedInformer } from './shared-informer.js';

const PODS = '/api/v1/namespaces/default/pods';

function podBody(name: string, labels: Record<string, string> = {}): object {
  return {
    metadata: { name, labels },
    spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
  };
}

async function create(t: TestServer, name: string): Promise<void> {
  const r = await t.request('POST', PODS, { body: podBody(name) });
  assert.equal(r.status, 201, r.text);
}

/** Polls `pred` on real time (the server is real); the informer's own clock is fake. */
async function until(what: string, pred: () => boolean, clock?: FakeClock): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (pred()) return;
    if (clock) await clock.step(100);
    await delay(5);
  }
  assert.fail(`timed out waiting for ${what}`);
}

function recorder(): { log: string[]; handler: EventHandler<KubeObject> } {
  const log: string[] = [];
  return {
    log,
    handler: {
      onAdd: (o) => log.push(`add ${o.metadata?.name}`),
      onUpdate: (_, o) => log.push(`update ${o.metadata?.name}`),
      onDelete: (d) =>
        log.push(
          d instanceof DeletedFinalStateUnknown
            ? `tombstone ${d.key}`
            : `delete ${d.metadata?.name}`,
        ),
    },
  };
}

/** Holds every watch until `open()`: lets writes pile up so the list RV falls out of history. */
class GatedListerWatcher implements ListerWatcher {
  readonly #inner: ListerWatcher;
  readonly errors: unknown[] = [];
  #open!: () => void;
  readonly #gate = new Promise<void>((r) => {
    this.#open = r;
  });
  constructor(inner: ListerWatcher) {
    this.#inner = inner;
  }
  open(): void {
    this.#open();
  }
  list(o: ListOptions, signal?: AbortSignal) {
    return this.#inner.list(o, signal);
  }
  async watch(o: WatchOptions, on: (e: WatchEvent) => void, signal: AbortSignal) {
    await this.#gate;
    try {
      await this.#inner.watch(o, on, signal);
    } catch (err) {
      this.errors.push(err);
      throw err;
    }
  }
}

describe('HttpListerWatcher against the API server', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ historyLimit: 5 });
  });
  after(async () => {
    await t.close();
  });

  it('lists in pages with continue tokens', async () => {
    for (const n of ['p1', 'p2', 'p3']) await create(t, n);
    const lw = new HttpListerWatcher({ server: t.url, path: PODS });
    const first = await lw.list({ limit: 2 });
    assert.equal(first.items.length, 2);
    assert.ok(first.continue, 'a continue token');
    const second = await lw.list({ limit: 2, continue: first.continue! });
    assert.deepEqual(
      [...first.items, ...second.items].map((i) => i.metadata?.name),
      ['p1', 'p2', 'p3'],
    );
    assert.equal(second.continue, undefined);
    for (const n of ['p1', 'p2', 'p3']) await t.request('DELETE', `${PODS}/${n}`);
  });

  it('rejects with the status code and Status body', async () => {
    const lw = new HttpListerWatcher({ server: t.url, path: '/api/v1/nopes' });
    await assert.rejects(
      lw.list({}),
      (e: unknown) => e instanceof StatusCodeError && e.code === 404,
    );
  });

  it('surfaces the ERROR 410 event of a stale watch as ExpiredError', async () => {
    const stale = String(t.backend.currentRevision());
    for (let i = 0; i < 7; i++) await create(t, `old-${i}`);
    const lw = new HttpListerWatcher({ server: t.url, path: PODS });
    const ctl = new AbortController();
    await assert.rejects(
      lw.watch({ resourceVersion: stale, allowWatchBookmarks: true }, () => {}, ctl.signal),
      (e: unknown) => e instanceof ExpiredError && /too old resource version/.test(e.message),
    );
    for (let i = 0; i < 7; i++) await t.request('DELETE', `${PODS}/old-${i}`);
  });

  it('feeds an informer that sees creates, updates and deletes', async () => {
    const clock = new FakeClock();
    const informer = new SharedInformer({
      listerWatcher: new HttpListerWatcher({ server: t.url, path: PODS }),
      clock,
      random: () => 0,
    });
    const rec = recorder();
    informer.addEventHandler(rec.handler);
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    assert.equal(await informer.waitForSync(AbortSignal.timeout(5000)), true);
    await create(t, 'w1');
    await t.request('PATCH', `${PODS}/w1`, {
      body: { metadata: { labels: { v: '2' } } },
      contentType: 'application/merge-patch+json',
    });
    await t.request('DELETE', `${PODS}/w1`);
    await until('three events', () => rec.log.length >= 3);
    assert.deepEqual(rec.log, ['add w1', 'update w1', 'delete w1']);
    assert.equal(informer.lister.get('default', 'w1'), undefined);
    stop.abort();
    await done;
  });

  it('relists after its watch RV expired and reports missed deletes as tombstones', async () => {
    await create(t, 'keep');
    await create(t, 'gone');
    const clock = new FakeClock();
    const gated = new GatedListerWatcher(new HttpListerWatcher({ server: t.url, path: PODS }));
    const informer = new SharedInformer({ listerWatcher: gated, clock, random: () => 0 });
    const rec = recorder();
    informer.addEventHandler(rec.handler);
    const stop = new AbortController();
    const done = informer.run(stop.signal);
    assert.equal(await informer.waitForSync(AbortSignal.timeout(5000)), true);
    // More writes than the 5 events of history: the list RV is now too old to watch from.
    await t.request('DELETE', `${PODS}/gone`);
    for (let i = 0; i < 6; i++) await create(t, `new-${i}`);
    gated.open();
    await until('the relist', () => informer.lister.list().length === 7, clock);
    assert.ok(gated.errors.some((e) => e instanceof ExpiredError));
    assert.ok(rec.log.includes('tombstone default/gone'), rec.log.join('\n'));
    assert.ok(rec.log.includes('add new-5'));
    assert.equal(informer.lister.get('default', 'gone'), undefined);
    assert.ok(informer.lister.get('default', 'keep'));
    stop.abort();
    await done;
  });
});
