import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { StorageEvent } from '../backend.js';
import { StorageEngine } from '../engine/engine.js';
import { CommitFailedError } from '../engine/group-commit.js';
import { enc, settle } from '../testing/conformance.js';
import { WorkerJournal } from './worker-journal.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetyard-worker-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshFile = () => path.join(root, `${++n}.db`);

function created(revision: number): StorageEvent {
  const kv = { key: `/k${revision}`, value: 'v', createRevision: revision, modRevision: revision };
  return { type: 'create', revision, kv };
}

describe('sqlite commit worker', () => {
  it('refuses every append after a failed one, even a valid one', async () => {
    const journal = await WorkerJournal.open(freshFile());
    try {
      await journal.append([created(1)]);
      await assert.rejects(journal.append([created(2), created(1)]), /UNIQUE|PRIMARY KEY/);
      await assert.rejects(journal.append([created(3)]), /an earlier append failed/);
    } finally {
      await journal.close();
    }
  });

  it('fails the engine without a gap when a pipelined batch fails', async () => {
    const file = freshFile();
    const seed = await WorkerJournal.open(file);
    await seed.append([created(300)]);
    await seed.close();
    // The engine believes the store is empty, so revision 300 collides inside the 2nd batch.
    const engine = new StorageEngine({ name: 't', journal: await WorkerJournal.open(file) });
    const writes = Array.from({ length: 600 }, (_, i) => engine.create(`/w/${i}`, enc('w')));
    const results = await Promise.allSettled(writes);
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    assert.equal(ok, 256, 'only the first batch (256 writes) is durable');
    for (const r of results.slice(256)) {
      assert.ok(r.status === 'rejected' && r.reason instanceof CommitFailedError);
    }
    assert.equal(engine.currentRevision(), 256);
    await assert.rejects(engine.create('/later', enc('x')), CommitFailedError);
    await settle();
    await engine.close();
  });

  it('opens a missing directory path with a clear error', async () => {
    await assert.rejects(WorkerJournal.open(path.join(root, 'no', 'such', 'dir.db')), /sqlite/);
  });
});
