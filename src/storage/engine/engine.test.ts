import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClosedError, type StorageEvent } from '../backend.js';
import { enc, settle } from '../testing/conformance.js';
import { StorageEngine } from './engine.js';
import { CommitFailedError } from './group-commit.js';
import type { Journal } from './journal.js';

interface Append {
  readonly events: readonly StorageEvent[];
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

/** A journal whose appends the test settles by hand. */
function manualJournal(
  pipeline?: Journal['pipeline'],
): Journal & { readonly appends: Append[]; compacted: number[] } {
  const appends: Append[] = [];
  const compacted: number[] = [];
  return {
    pipeline,
    appends,
    compacted,
    append: (events) =>
      new Promise<void>((resolve, reject) => appends.push({ events, resolve, reject })),
    compact: (revision) => {
      compacted.push(revision);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

const revisionsOf = (a: Append | undefined) => a?.events.map((e) => e.revision);

describe('storage engine with a hand-driven journal', () => {
  it('hands batches over one at a time, in revision order', async () => {
    const journal = manualJournal();
    const engine = new StorageEngine({ name: 't', journal });
    const first = [engine.create('/a', enc('a')), engine.create('/b', enc('b'))];
    await settle();
    const second = engine.create('/c', enc('c'));
    await settle();
    assert.equal(journal.appends.length, 1, 'the second batch waits for the first');
    assert.deepEqual(revisionsOf(journal.appends[0]), [1, 2]);
    journal.appends[0]?.resolve();
    await Promise.all(first);
    assert.equal(engine.currentRevision(), 2);
    await settle();
    assert.deepEqual(revisionsOf(journal.appends[1]), [3]);
    journal.appends[1]?.resolve();
    assert.equal((await second).modRevision, 3);
  });

  it('keeps a later pending write in the overlay when an earlier batch lands', async () => {
    const journal = manualJournal();
    const engine = new StorageEngine({ name: 't', journal });
    const created = engine.create('/k', enc('v1'));
    await settle();
    const updated = engine.update('/k', enc('v2'), 1);
    journal.appends[0]?.resolve();
    await created;
    assert.equal(engine.get('/k')?.modRevision, 1);
    assert.equal(engine.getLatest('/k')?.modRevision, 2, 'the pending update still counts');
    await assert.rejects(engine.update('/k', enc('v3'), 1), /expected revision 1, found 2/);
    await settle();
    journal.appends[1]?.resolve();
    assert.equal((await updated).modRevision, 2);
  });

  it('rejects the failed batch and every later write, leaving no gap', async () => {
    const journal = manualJournal();
    const engine = new StorageEngine({ name: 't', journal });
    const ok = engine.create('/ok', enc('ok'));
    await settle();
    journal.appends[0]?.resolve();
    await ok;
    const lost = engine.create('/lost', enc('lost'));
    await settle();
    const queued = engine.update('/ok', enc('later'), 1);
    journal.appends[1]?.reject(new Error('disk full'));
    await assert.rejects(lost, CommitFailedError);
    await assert.rejects(queued, (err: unknown) => {
      assert.ok(err instanceof CommitFailedError);
      assert.match(err.message, /disk full/);
      return true;
    });
    await assert.rejects(engine.create('/after', enc('after')), CommitFailedError);
    assert.equal(journal.appends.length, 2, 'nothing is appended after a failure');
    assert.equal(engine.currentRevision(), 1);
    assert.equal(engine.getLatest('/lost'), undefined);
    assert.equal(engine.getLatest('/ok')?.modRevision, 1);
    await engine.close();
  });

  it('compacts the journal once history moved far enough past the last run', async () => {
    const journal = manualJournal();
    const engine = new StorageEngine({
      name: 't',
      journal,
      historyLimit: 2,
      journalCompactEvery: 3,
    });
    for (let i = 0; i < 8; i++) {
      const write = engine.create(`/k${i}`, enc('x'));
      await settle();
      journal.appends.at(-1)?.resolve();
      await write;
    }
    assert.equal(engine.compactedRevision(), 6);
    assert.deepEqual(journal.compacted, [3, 6]);
    await engine.compact(7);
    assert.deepEqual(journal.compacted, [3, 6, 7]);
  });

  it('close() waits for the batch with the journal, then refuses writes and watches', async () => {
    const journal = manualJournal();
    const engine = new StorageEngine({ name: 't', journal });
    const write = engine.create('/k', enc('k'));
    await settle();
    let closed = false;
    const closing = engine.close().then(() => {
      closed = true;
    });
    await settle();
    assert.equal(closed, false);
    journal.appends[0]?.resolve();
    await write;
    await closing;
    assert.throws(() => engine.watch('', 0, () => {}), ClosedError);
    await assert.rejects(engine.compact(1), ClosedError);
  });

  it('rejects negative or fractional revisions', () => {
    const engine = new StorageEngine({ name: 't', journal: manualJournal() });
    assert.throws(() => engine.list('', { revision: -1 }), RangeError);
    assert.throws(() => engine.watch('', 0.5, () => {}), RangeError);
  });

  it('pipelines batches but applies and acknowledges them in revision order', async () => {
    const journal = manualJournal({ depth: 2, maxBatch: 2 });
    const engine = new StorageEngine({ name: 't', journal });
    const acked: number[] = [];
    const writes = [1, 2, 3, 4, 5].map((i) =>
      engine.create(`/k${i}`, enc('x')).then((kv) => acked.push(kv.modRevision)),
    );
    await settle();
    assert.deepEqual(journal.appends.map(revisionsOf), [
      [1, 2],
      [3, 4],
    ]);
    journal.appends[1]?.resolve();
    await settle();
    assert.deepEqual(acked, [], 'batch 2 waits for batch 1');
    assert.equal(engine.currentRevision(), 0);
    journal.appends[0]?.resolve();
    await settle();
    assert.deepEqual(acked, [1, 2, 3, 4]);
    assert.deepEqual(revisionsOf(journal.appends[2]), [5]);
    journal.appends[2]?.resolve();
    await Promise.all(writes);
    assert.deepEqual(engine.stats().commits, 3);
  });

  it('keeps the batches before a failed pipelined one and rejects it and all after', async () => {
    const journal = manualJournal({ depth: 3, maxBatch: 1 });
    const engine = new StorageEngine({ name: 't', journal });
    const writes = [1, 2, 3].map((i) => engine.create(`/k${i}`, enc('x')));
    await settle();
    journal.appends[1]?.reject(new Error('io'));
    journal.appends[2]?.resolve(); // a journal must not do this; the engine still refuses it
    journal.appends[0]?.resolve();
    const [first, second, third] = await Promise.allSettled(writes);
    assert.equal(first?.status, 'fulfilled');
    assert.ok(second?.status === 'rejected' && second.reason instanceof CommitFailedError);
    assert.ok(third?.status === 'rejected' && third.reason instanceof CommitFailedError);
    assert.equal(engine.currentRevision(), 1);
    assert.deepEqual(
      engine.list('').items.map((kv) => kv.key),
      ['/k1'],
    );
  });
});
