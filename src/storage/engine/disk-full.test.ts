import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type StorageEvent, UnwritableError } from '../backend.js';
import { enc, settle } from '../testing/conformance.js';
import { faultyJournal, sqliteFull } from '../testing/faulty-journal.js';
import { StorageEngine } from './engine.js';
import { CommitFailedError } from './group-commit.js';
import { createNullJournal, type Journal } from './journal.js';

interface Append {
  readonly revisions: number[];
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

/** A pipelined journal settled by hand, that counts resets. */
function manualJournal(): Journal & { appends: Append[]; resets: number } {
  const j = {
    pipeline: { depth: 3, maxBatch: 2 },
    appends: [] as Append[],
    resets: 0,
    append: (events: readonly StorageEvent[]) =>
      new Promise<void>((resolve, reject) =>
        j.appends.push({ revisions: events.map((e) => e.revision), resolve, reject }),
      ),
    reset: () => {
      j.resets++;
      return Promise.resolve();
    },
    probe: () => Promise.resolve(true),
    compact: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return j;
}

interface Acked {
  readonly revision: number;
  readonly key: string;
  readonly value: string;
}

/** Creates or updates `key`; records the write if acknowledged, checks the refusal if not. */
function writeKey(engine: StorageEngine, key: string, acked: Acked[]): Promise<unknown> {
  const latest = engine.getLatest(key);
  const write = latest
    ? engine.update(key, (rv) => `${key}@${rv}`, latest.modRevision)
    : engine.create(key, (rv) => `${key}@${rv}`);
  return write.then(
    (kv) => acked.push({ revision: kv.modRevision, key, value: kv.value }),
    (err: unknown) => assert.ok(err instanceof UnwritableError, String(err)),
  );
}

describe('storage engine on a full disk', () => {
  it('waits for the batches behind a failed one, rejects them all, and reuses their revisions', async () => {
    const journal = manualJournal();
    const engine = new StorageEngine({ name: 't', journal, probeIntervalMs: 1 });
    const writes = [1, 2, 3, 4, 5].map((i) => engine.create(`/k${i}`, enc('x')));
    await settle();
    assert.deepEqual(
      journal.appends.map((a) => a.revisions),
      [[1, 2], [3, 4], [5]],
    );
    journal.appends[0]!.resolve();
    journal.appends[1]!.reject(sqliteFull());
    await settle();
    // Batch 3 is still with the journal: nothing is decided, and writes are refused meanwhile.
    await assert.rejects(engine.create('/x', enc('x')), UnwritableError);
    assert.equal(journal.resets, 0);
    journal.appends[2]!.reject(new Error('an earlier append failed'));
    const results = await Promise.allSettled(writes);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected'],
    );
    for (const r of results.slice(2)) {
      assert.ok(r.status === 'rejected' && r.reason instanceof UnwritableError);
    }
    await settle();
    assert.equal(journal.resets, 1);
    assert.equal(engine.currentRevision(), 2);
    for (let i = 0; i < 50 && engine.health().state !== 'ok'; i++) await settle();
    const next = engine.create('/k3', enc('again'));
    await settle();
    assert.deepEqual(journal.appends.at(-1)?.revisions, [3]);
    journal.appends.at(-1)!.resolve();
    assert.equal((await next).modRevision, 3);
  });

  it('stops when the journal reports a batch durable after a failed one', async () => {
    const journal = manualJournal();
    const engine = new StorageEngine({ name: 't', journal });
    const writes = [1, 2, 3].map((i) => engine.create(`/k${i}`, enc('x')));
    await settle();
    journal.appends[0]!.reject(sqliteFull());
    journal.appends[1]!.resolve();
    await Promise.allSettled(writes);
    assert.equal(engine.health().state, 'stopped');
    await assert.rejects(engine.create('/x', enc('x')), CommitFailedError);
  });

  it('never acknowledges a lost write and never shows a watcher a gap or a phantom', async () => {
    type Step = { kind: 'write'; key: number } | { kind: 'fault'; on: boolean } | { kind: 'sync' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('write' as const), key: fc.nat(4) }) },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('fault' as const), on: fc.boolean() }),
      },
      { weight: 2, arbitrary: fc.constant({ kind: 'sync' as const }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const journal = faultyJournal(createNullJournal());
        const engine = new StorageEngine({ name: 't', journal, probeIntervalMs: 1 });
        const seen: StorageEvent[] = [];
        engine.watch('', 0, (batch) => seen.push(...batch));
        const acked: Acked[] = [];
        const pending: Promise<unknown>[] = [];
        for (const s of steps) {
          if (s.kind === 'fault') journal.fault = s.on ? sqliteFull() : undefined;
          else if (s.kind === 'sync') await Promise.allSettled(pending.splice(0));
          else pending.push(writeKey(engine, `/k${s.key}`, acked));
        }
        await Promise.allSettled(pending);
        await engine.close();
        acked.sort((a, b) => a.revision - b.revision);
        // Watchers saw exactly the acknowledged writes: revisions 1..n, none missing, none extra.
        assert.deepEqual(
          seen.map((e) => ({ revision: e.revision, key: e.kv.key, value: e.kv.value })),
          acked,
        );
        assert.deepEqual(
          acked.map((a) => a.revision),
          acked.map((_, i) => i + 1),
        );
        assert.equal(engine.currentRevision(), acked.length);
      }),
      { numRuns: 150 },
    );
  });
});
