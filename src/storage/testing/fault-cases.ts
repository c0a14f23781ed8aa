/**
 * The conformance cases of a journal that fails: a disk that fills up and is freed again (the
 * store survives: nothing acknowledged is lost, reads are served, writes fail cleanly, then
 * succeed, revisions stay gapless, watchers see no phantom event), and a failure that is not a
 * disk condition (the store stops taking writes, still serving reads).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Backend,
  type StorageEvent,
  type StorageHealth,
  type StorageHealthState,
  UnwritableError,
} from '../backend.js';
import { CommitFailedError } from '../engine/group-commit.js';
import type { Run } from './conformance.js';
import { diskError, type FaultyJournal, faultyJournal, sqliteFull } from './faulty-journal.js';

/** A fault-injecting run: `fn` gets the backend and the journal switch. */
function withFaults(
  run: Run,
  fn: (b: Backend, journal: FaultyJournal) => Promise<void>,
): () => Promise<void> {
  let journal: FaultyJournal | undefined;
  const options = {
    probeIntervalMs: 5,
    wrapJournal: (inner: Parameters<typeof faultyJournal>[0]) => {
      journal = faultyJournal(inner);
      return journal;
    },
  };
  return run(options, (b) => fn(b, journal!));
}

/** Waits until the store reports `state` (the probe runs every 5 ms here). */
async function healthBecomes(b: Backend, state: StorageHealthState): Promise<void> {
  for (let i = 0; i < 400 && b.health().state !== state; i++) await sleep(5);
  assert.equal(b.health().state, state);
}

const isNoSpace = (err: unknown): boolean => {
  assert.ok(err instanceof UnwritableError, String(err));
  assert.equal(err.code, 'NoSpace');
  assert.match(err.message, /database space exceeded/);
  return true;
};

const summary = (events: readonly StorageEvent[]) =>
  events.map((e) => [e.type, e.revision, e.kv.key]);

export function faultCases(run: Run): void {
  it(
    'reports a fresh store ok, and closed after close()',
    run({}, async (b) => {
      assert.deepEqual(
        [b.health().state, b.health().error, b.health().unwritableCount],
        ['ok', undefined, 0],
      );
      const seen: string[] = [];
      b.onHealthChange((h) => seen.push(h.state));
      await b.close();
      assert.equal(b.health().state, 'closed');
      assert.deepEqual(seen, ['closed']);
    }),
  );

  it(
    'survives a full disk: rejects the failed writes, serves reads, takes deletes, then writes again',
    withFaults(run, async (b, journal) => {
      await b.create('/a', (rv) => `a@${rv}`); // 1
      await b.create('/b', (rv) => `b@${rv}`); // 2
      const events: StorageEvent[] = [];
      b.watch('', 0, (batch) => events.push(...batch));
      const changes: StorageHealth[] = [];
      b.onHealthChange((h) => changes.push(h));

      journal.fault = sqliteFull();
      // Sequenced together: the second builds on the first, and both go.
      const created = b.create('/c', (rv) => `c@${rv}`);
      const updated = b.update('/a', (rv) => `a@${rv}`, 1);
      const built = b.update('/c', (rv) => `c@${rv}`, 3);
      await assert.rejects(created, isNoSpace);
      await assert.rejects(updated, isNoSpace);
      await assert.rejects(built, isNoSpace);
      assert.equal(b.health().state, 'unwritable');
      assert.equal(b.health().unwritableCount, 1);
      assert.ok(b.health().error instanceof UnwritableError);

      // Reads are served from the last durable state; nothing rejected is visible.
      assert.equal(b.currentRevision(), 2);
      assert.equal(b.get('/a')?.value, 'a@1');
      assert.equal(b.getLatest('/a')?.modRevision, 1);
      assert.equal(b.getLatest('/c'), undefined);
      assert.deepEqual(
        b.list('').items.map((kv) => kv.key),
        ['/a', '/b'],
      );

      // Creates and updates fail fast, without touching the journal.
      const refused = journal.counts.refused;
      await assert.rejects(
        b.create('/d', (rv) => `d@${rv}`),
        isNoSpace,
      );
      await assert.rejects(
        b.update('/a', (rv) => `a@${rv}`, 1),
        isNoSpace,
      );
      assert.equal(journal.counts.refused, refused);
      // A delete is tried (etcd takes deletes under NOSPACE); on a still-full disk it fails.
      await assert.rejects(b.delete('/b', 2), isNoSpace);
      assert.equal(journal.counts.refused, refused + 1);

      // Space is back: a delete lands at once, the next revision after the durable one.
      journal.fault = undefined;
      const gone = await b.delete('/b', 2);
      assert.equal(gone.modRevision, 3);
      // Other writes once the probe says the disk takes commits again.
      await healthBecomes(b, 'ok');
      const c = await b.create('/c', (rv) => `c@${rv}`);
      assert.deepEqual([c.modRevision, c.value], [4, 'c@4']);
      assert.equal((await b.update('/a', (rv) => `a@${rv}`, 1)).modRevision, 5);

      // Watchers saw every durable revision once, in order, and nothing that was rejected.
      assert.deepEqual(summary(events), [
        ['create', 1, '/a'],
        ['create', 2, '/b'],
        ['delete', 3, '/b'],
        ['create', 4, '/c'],
        ['update', 5, '/a'],
      ]);
      assert.deepEqual(
        changes.map((h) => h.state),
        ['unwritable', 'ok'],
      );
      assert.equal(b.health().unwritableCount, 1);
      assert.ok(journal.counts.resets >= 2, 'the journal was reset after each failure');
    }),
  );

  it(
    'names a read-only disk and an I/O error as such',
    withFaults(run, async (b, journal) => {
      journal.fault = diskError('SQLITE_READONLY', 'attempt to write a readonly database');
      await assert.rejects(
        b.create('/a', (rv) => `a@${rv}`),
        (err: unknown) => {
          assert.ok(err instanceof UnwritableError && err.code === 'ReadOnly', String(err));
          return true;
        },
      );
      journal.fault = undefined;
      await healthBecomes(b, 'ok');
      journal.fault = diskError('SQLITE_IOERR_FSYNC', 'disk I/O error');
      await assert.rejects(
        b.create('/a', (rv) => `a@${rv}`),
        (err: unknown) => {
          assert.ok(err instanceof UnwritableError && err.code === 'DiskIO', String(err));
          return true;
        },
      );
      assert.equal(b.health().unwritableCount, 2);
      journal.fault = undefined;
      await healthBecomes(b, 'ok');
      assert.equal((await b.create('/a', (rv) => `a@${rv}`)).modRevision, 1);
    }),
  );

  it(
    'stops taking writes after a failure that is not a disk condition, still serving reads',
    withFaults(run, async (b, journal) => {
      await b.create('/a', (rv) => `a@${rv}`);
      journal.fault = new Error('UNIQUE constraint failed: log.rev');
      await assert.rejects(
        b.create('/b', (rv) => `b@${rv}`),
        CommitFailedError,
      );
      journal.fault = undefined;
      await assert.rejects(
        b.create('/b', (rv) => `b@${rv}`),
        CommitFailedError,
      );
      await assert.rejects(b.delete('/a', 1), CommitFailedError);
      assert.equal(b.health().state, 'stopped');
      assert.equal(b.get('/a')?.value, 'a@1');
    }),
  );
}
