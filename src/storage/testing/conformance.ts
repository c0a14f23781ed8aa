/**
 * The behavioural suite every {@link Backend} runs (hono's shared router cases, kine's
 * per-backend apiserver tests). A backend's test file calls {@link runBackendConformance} with
 * a factory; each case opens a fresh store and closes it.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Backend,
  ClosedError,
  CompactedError,
  type Encoder,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  type KeyValue,
  RevisionMismatchError,
  type StorageEvent,
  type Watcher,
} from '../backend.js';
import type { Journal } from '../engine/journal.js';
import { faultCases } from './fault-cases.js';
import { runPropertySuite } from './property.js';

/** Options a case may ask the factory for. */
export interface FactoryOptions {
  readonly historyLimit?: number;
  /** Wraps the backend's journal (fault injection: `faulty-journal.ts`). */
  readonly wrapJournal?: (journal: Journal) => Journal;
  /** How often an unwritable store probes its journal. */
  readonly probeIntervalMs?: number;
}

/** Opens a fresh, empty backend. */
export type BackendFactory = (options: FactoryOptions) => Backend | Promise<Backend>;

/** An encoder producing `{"tag":…,"rv":…}`. */
export function enc(tag: string): Encoder {
  return (rv) => JSON.stringify({ tag, rv });
}

/** Lets queued group commits run (one event-loop turn per commit round). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Watches and gathers every delivered event. */
export function collect(
  b: Backend,
  prefix: string,
  after: number,
): { events: StorageEvent[]; watcher: Watcher } {
  const events: StorageEvent[] = [];
  const watcher = b.watch(prefix, after, (batch) => events.push(...batch));
  return { events, watcher };
}

async function withBackend(
  factory: BackendFactory,
  options: FactoryOptions,
  fn: (b: Backend) => Promise<void>,
): Promise<void> {
  const b = await factory(options);
  try {
    await fn(b);
  } finally {
    await b.close();
  }
}

/** Registers the shared suite under `describe(name)`. */
export function runBackendConformance(name: string, factory: BackendFactory): void {
  const run = (options: FactoryOptions, fn: (b: Backend) => Promise<void>) => () =>
    withBackend(factory, options, fn);
  describe(`${name}: storage conformance`, () => {
    describe('writes', () => writeCases(run));
    describe('lists', () => listCases(run));
    describe('watches', () => watchCases(run));
    describe('durability and batching', () => durabilityCases(run));
    describe('disk faults', () => faultCases(run));
    runPropertySuite(name, factory);
  });
}

export type Run = (
  options: FactoryOptions,
  fn: (b: Backend) => Promise<void>,
) => () => Promise<void>;

function writeCases(run: Run): void {
  it(
    'creates, reads, updates and deletes with global, strictly increasing revisions',
    run({}, async (b) => {
      assert.equal(b.currentRevision(), 0);
      const seen: number[] = [];
      const a = await b.create('/a', (rv) => {
        seen.push(rv);
        return `a@${rv}`;
      });
      assert.deepEqual(a, { key: '/a', value: 'a@1', createRevision: 1, modRevision: 1 });
      assert.deepEqual(seen, [1]);
      const other = await b.create('/b', enc('b'));
      assert.equal(other.modRevision, 2);
      const a2 = await b.update('/a', (rv) => `a@${rv}`, 1);
      assert.deepEqual(a2, { key: '/a', value: 'a@3', createRevision: 1, modRevision: 3 });
      assert.deepEqual(b.get('/a'), a2);
      const gone = await b.delete('/a', 3);
      assert.deepEqual(gone, { key: '/a', value: 'a@3', createRevision: 1, modRevision: 4 });
      assert.equal(b.get('/a'), undefined);
      assert.equal(b.currentRevision(), 4);
      const again = await b.create('/a', enc('a'));
      assert.deepEqual([again.createRevision, again.modRevision], [5, 5]);
      assert.equal(b.stats().keys, 2);
    }),
  );

  it(
    'rejects KeyExists, KeyNotFound and RevisionMismatch without using a revision',
    run({}, async (b) => {
      await b.create('/k', enc('k'));
      await assert.rejects(b.create('/k', enc('k')), KeyExistsError);
      await assert.rejects(b.update('/missing', enc('x'), 1), KeyNotFoundError);
      await assert.rejects(b.delete('/missing', 1), KeyNotFoundError);
      await assert.rejects(b.update('/k', enc('x'), 7), (err: unknown) => {
        assert.ok(err instanceof RevisionMismatchError);
        assert.deepEqual([err.code, err.expected, err.actual], ['RevisionMismatch', 7, 1]);
        return true;
      });
      await assert.rejects(b.delete('/k', 0), RevisionMismatchError);
      assert.equal(b.currentRevision(), 1);
      assert.equal((await b.create('/next', enc('n'))).modRevision, 2);
    }),
  );

  it(
    'rejects a write whose encoder throws, without using a revision',
    run({}, async (b) => {
      const boom = new Error('boom');
      await assert.rejects(
        b.create('/k', () => {
          throw boom;
        }),
        (err) => err === boom,
      );
      assert.equal(b.getLatest('/k'), undefined);
      assert.equal((await b.create('/k', enc('k'))).modRevision, 1);
    }),
  );

  it(
    'checks compare-and-swap against writes sequenced but not yet durable',
    run({}, async (b) => {
      const created = b.create('/k', enc('v1'));
      const latest = b.getLatest('/k');
      assert.equal(latest?.modRevision, 1);
      await assert.rejects(b.create('/k', enc('dup')), KeyExistsError);
      const updated = b.update('/k', enc('v2'), 1);
      await assert.rejects(b.update('/k', enc('stale'), 1), RevisionMismatchError);
      const deleted = b.delete('/k', 2);
      assert.equal(b.getLatest('/k'), undefined);
      const recreated = b.create('/k', enc('v3'));
      const revs = (await Promise.all([created, updated, deleted, recreated])).map(
        (kv) => kv.modRevision,
      );
      assert.deepEqual(revs, [1, 2, 3, 4]);
      assert.equal((await recreated).createRevision, 4);
    }),
  );

  it(
    'delete carries the encoded final value, or the previous value without an encoder',
    run({}, async (b) => {
      await b.create('/a', enc('a'));
      await b.create('/b', enc('b'));
      const { events } = collect(b, '', 2);
      const finalA = await b.delete('/a', 1, (rv) => `final@${rv}`);
      assert.deepEqual(finalA, { key: '/a', value: 'final@3', createRevision: 1, modRevision: 3 });
      const finalB = await b.delete('/b', 2);
      assert.equal(finalB.value, enc('b')(2));
      assert.deepEqual(
        events.map((e) => [e.type, e.revision, e.kv.value, e.prevKv?.modRevision]),
        [
          ['delete', 3, 'final@3', 1],
          ['delete', 4, enc('b')(2), 2],
        ],
      );
      assert.deepEqual(events[0]?.prevKv, {
        key: '/a',
        value: enc('a')(1),
        createRevision: 1,
        modRevision: 1,
      });
    }),
  );
}

async function seedSnapshot(b: Backend): Promise<void> {
  await b.create('/p/a', enc('a1')); // 1
  await b.create('/p/b', enc('b1')); // 2
  await b.create('/p/c', enc('c1')); // 3
  await b.update('/p/a', enc('a2'), 1); // 4
  await b.delete('/p/b', 2); // 5
  await b.create('/p/d', enc('d1')); // 6
}

const keysOf = (items: readonly KeyValue[]) => items.map((kv) => kv.key);

function listCases(run: Run): void {
  it(
    'lists by prefix in key order, respecting the prefix boundary',
    run({}, async (b) => {
      for (const key of ['/a/3', '/ab', '/a/1', '/b/1', '/a/2', '/a'])
        await b.create(key, enc(key));
      const all = b.list('/a/');
      assert.deepEqual(keysOf(all.items), ['/a/1', '/a/2', '/a/3']);
      assert.deepEqual([all.revision, all.more, all.remaining], [6, false, 0]);
      assert.deepEqual(keysOf(b.list('').items), ['/a', '/a/1', '/a/2', '/a/3', '/ab', '/b/1']);
      assert.deepEqual([b.count('/a/'), b.count('/a'), b.count(''), b.count('/z')], [3, 5, 6, 0]);
    }),
  );

  it(
    'paginates with limit, startAfter, filter, more and remaining',
    run({}, async (b) => {
      await b.create('/m', enc('before the prefix'));
      for (let i = 0; i < 10; i++) await b.create(`/n/${i}`, enc(String(i)));
      await b.create('/o', enc('after the prefix'));
      const page1 = b.list('/n/', { limit: 3 });
      assert.deepEqual(keysOf(page1.items), ['/n/0', '/n/1', '/n/2']);
      assert.deepEqual([page1.more, page1.remaining], [true, 7]);
      const page2 = b.list('/n/', { limit: 3, startAfter: '/n/2' });
      assert.deepEqual(keysOf(page2.items), ['/n/3', '/n/4', '/n/5']);
      assert.deepEqual([page2.more, page2.remaining], [true, 4]);
      const last = b.list('/n/', { limit: 4, startAfter: '/n/5' });
      assert.deepEqual([last.items.length, last.more, last.remaining], [4, false, 0]);
      const even = (kv: KeyValue) => Number(kv.key.slice(3)) % 2 === 0;
      const filtered = b.list('/n/', { limit: 2, filter: even });
      assert.deepEqual(keysOf(filtered.items), ['/n/0', '/n/2']);
      assert.deepEqual([filtered.more, filtered.remaining], [true, 3]);
      assert.deepEqual(keysOf(b.list('/n/', { startAfter: '/a' }).items).length, 10);
      assert.deepEqual(b.list('/n/', { startAfter: '/m', limit: 1 }).remaining, 9);
      assert.deepEqual(b.list('/n/', { startAfter: '/z' }).items, []);
    }),
  );

  it(
    'lists a consistent snapshot at a past revision, with pagination',
    run({}, async (b) => {
      await seedSnapshot(b);
      const at3 = b.list('/p/', { revision: 3 });
      assert.equal(at3.revision, 3);
      assert.deepEqual(
        at3.items.map((kv) => [kv.key, kv.value]),
        [
          ['/p/a', enc('a1')(1)],
          ['/p/b', enc('b1')(2)],
          ['/p/c', enc('c1')(3)],
        ],
      );
      assert.deepEqual(keysOf(b.list('/p/', { revision: 5 }).items), ['/p/a', '/p/c']);
      assert.equal(b.list('/p/', { revision: 4 }).items[0]?.value, enc('a2')(4));
      assert.deepEqual(b.list('/p/', { revision: 0 }).revision, 6);
      const page = b.list('/p/', { revision: 3, limit: 1, startAfter: '/p/a' });
      assert.deepEqual(keysOf(page.items), ['/p/b']);
      assert.deepEqual([page.more, page.remaining], [true, 1]);
      assert.deepEqual(b.list('/p/', { revision: 1 }).items.length, 1);
    }),
  );

  it(
    'fails lists below the compacted revision or above the current one',
    run({}, async (b) => {
      await seedSnapshot(b);
      await b.compact(3);
      assert.equal(b.compactedRevision(), 3);
      assert.throws(() => b.list('/p/', { revision: 2 }), CompactedError);
      assert.equal(b.list('/p/', { revision: 3 }).items.length, 3);
      assert.throws(() => b.list('/p/', { revision: 7 }), FutureRevisionError);
      assert.throws(() => b.watch('/p/', 2, () => {}), CompactedError);
      assert.throws(() => b.watch('/p/', 7, () => {}), FutureRevisionError);
      await b.compact(100); // clamped to the current revision
      assert.equal(b.compactedRevision(), 6);
      assert.equal(b.stats().historySize, 0);
    }),
  );

  it(
    'keeps at most historyLimit events and moves the compacted revision with them',
    run({ historyLimit: 3 }, async (b) => {
      await seedSnapshot(b);
      assert.equal(b.stats().historySize, 3);
      assert.equal(b.compactedRevision(), 3);
      assert.throws(() => b.watch('', 2, () => {}), CompactedError);
      assert.deepEqual(
        collect(b, '', 3).events.map((e) => e.revision),
        [4, 5, 6],
      );
    }),
  );
}

function watchCases(run: Run): void {
  it(
    'replays history after the start revision synchronously, then streams live events',
    run({}, async (b) => {
      await seedSnapshot(b);
      const { events, watcher } = collect(b, '/p/', 3);
      assert.deepEqual(
        events.map((e) => [e.type, e.revision, e.kv.key]),
        [
          ['update', 4, '/p/a'],
          ['delete', 5, '/p/b'],
          ['create', 6, '/p/d'],
        ],
      );
      assert.equal(events[0]?.prevKv?.value, enc('a1')(1));
      assert.equal(events[2]?.prevKv, undefined);
      await b.update('/p/d', enc('d2'), 6);
      assert.deepEqual(
        events.map((e) => e.revision),
        [4, 5, 6, 7],
      );
      watcher.stop();
    }),
  );

  it(
    'filters by prefix and delivers every event once, in revision order',
    run({}, async (b) => {
      const a = collect(b, '/a/', 0);
      const all = collect(b, '', 0);
      const writes: Promise<KeyValue>[] = [];
      for (let i = 0; i < 50; i++) writes.push(b.create(i % 2 ? `/a/${i}` : `/ab/${i}`, enc('x')));
      await Promise.all(writes);
      assert.deepEqual(
        all.events.map((e) => e.revision),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      assert.equal(a.events.length, 25);
      assert.ok(a.events.every((e) => e.kv.key.startsWith('/a/')));
      assert.deepEqual(
        a.events.map((e) => e.revision),
        Array.from({ length: 25 }, (_, i) => 2 * i + 2),
      );
    }),
  );

  it(
    'stop() ends delivery and is idempotent',
    run({}, async (b) => {
      const { events, watcher } = collect(b, '', 0);
      await b.create('/a', enc('a'));
      watcher.stop();
      watcher.stop();
      await b.create('/b', enc('b'));
      assert.deepEqual(
        events.map((e) => e.kv.key),
        ['/a'],
      );
    }),
  );

  it(
    'starts at the current revision with nothing to replay',
    run({}, async (b) => {
      await b.create('/a', enc('a'));
      const { events } = collect(b, '', 1);
      assert.equal(events.length, 0);
      await b.create('/b', enc('b'));
      assert.deepEqual(
        events.map((e) => e.revision),
        [2],
      );
    }),
  );
}

function durabilityCases(run: Run): void {
  it(
    'makes a write visible to get, list and watchers only once it is durable',
    run({}, async (b) => {
      const { events } = collect(b, '', 0);
      const pending = b.create('/k', enc('k'));
      assert.equal(b.get('/k'), undefined);
      assert.equal(b.list('').items.length, 0);
      assert.equal(b.count(''), 0);
      assert.equal(b.currentRevision(), 0);
      assert.equal(events.length, 0);
      assert.equal(b.getLatest('/k')?.modRevision, 1);
      const kv = await pending;
      assert.deepEqual(b.get('/k'), kv);
      assert.equal(events.length, 1);
      assert.equal(b.currentRevision(), 1);
    }),
  );

  it(
    'groups concurrent writes into fewer commits',
    run({}, async (b) => {
      const before = b.stats();
      await Promise.all(Array.from({ length: 200 }, (_, i) => b.create(`/g/${i}`, enc('g'))));
      const after = b.stats();
      assert.equal(after.committedWrites - before.committedWrites, 200);
      const commits = after.commits - before.commits;
      assert.ok(commits >= 1 && commits < 20, `200 writes took ${commits} commits`);
    }),
  );

  it(
    'close() waits for in-flight writes, then rejects new ones',
    run({}, async (b) => {
      const inFlight = b.create('/k', enc('k'));
      const closing = b.close();
      await assert.rejects(b.create('/late', enc('late')), ClosedError);
      assert.equal((await inFlight).modRevision, 1);
      await closing;
      await assert.rejects(b.update('/k', enc('k'), 1), ClosedError);
      await assert.rejects(b.delete('/k', 1), ClosedError);
      assert.equal(b.get('/k')?.modRevision, 1);
    }),
  );
}
