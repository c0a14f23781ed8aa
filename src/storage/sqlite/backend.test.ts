import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { CompactedError, type StorageEvent } from '../backend.js';
import { openBackend } from '../index.js';
import { collect, enc, runBackendConformance } from '../testing/conformance.js';
import { DEFAULT_DB_FILE, openSqliteBackend } from './backend.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetyard-sqlite-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A fresh, empty directory under the suite's temp root. */
function freshDir(): string {
  const dir = path.join(root, String(++n));
  fs.mkdirSync(dir);
  return dir;
}

/** A small space reserve: hundreds of stores are opened here, and 2 MiB each adds up. */
const reserveBytes = 64 * 1024;
runBackendConformance('sqlite', (options) =>
  openSqliteBackend({ ...options, path: freshDir(), reserveBytes }),
);
runBackendConformance('sqlite (main-thread commits)', (options) =>
  openSqliteBackend({ ...options, path: freshDir(), commitThread: 'main', reserveBytes }),
);

/** Revisions of the rows left in the log (read directly, after the backend closed). */
function logRevisions(dir: string): number[] {
  const db = new Database(path.join(dir, DEFAULT_DB_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT rev FROM log ORDER BY rev').all() as { rev: number }[]).map(
      (r) => r.rev,
    );
  } finally {
    db.close();
  }
}

for (const commitThread of ['worker', 'main'] as const) {
  describe(`sqlite: restarts (${commitThread} commits)`, () => restartCases(commitThread));
}

function restartCases(commitThread: 'worker' | 'main'): void {
  it('recovers state, the revision counter and resumable history', async () => {
    const dir = freshDir();
    const first = await openSqliteBackend({ path: dir, commitThread });
    await first.create('/p/a', enc('a1')); // 1
    await first.create('/p/b', enc('b1')); // 2
    await first.update('/p/a', enc('a2'), 1); // 3
    await first.delete('/p/b', 2, (rv) => `final@${rv}`); // 4
    await first.create('/q/c', enc('c1')); // 5
    const before: StorageEvent[] = collect(first, '', 0).events;
    const listed = first.list('');
    await first.close();

    const second = await openSqliteBackend({ path: dir, commitThread });
    try {
      assert.equal(second.currentRevision(), 5);
      assert.deepEqual(second.list(''), listed);
      assert.deepEqual(collect(second, '', 0).events, before);
      assert.deepEqual(
        collect(second, '/p/', 2).events.map((e) => [e.type, e.revision, e.kv.value]),
        [
          ['update', 3, enc('a2')(3)],
          ['delete', 4, 'final@4'],
        ],
      );
      assert.deepEqual(second.list('/p/', { revision: 2 }).items.length, 2);
      assert.equal((await second.update('/p/a', enc('a3'), 3)).modRevision, 6);
    } finally {
      await second.close();
    }
  });

  it('keeps compaction, and never moves the revision counter back', async () => {
    const dir = freshDir();
    const first = await openSqliteBackend({ path: dir, commitThread });
    await first.create('/k', enc('k1')); // 1
    await first.update('/k', enc('k2'), 1); // 2
    await first.create('/gone', enc('g')); // 3
    await first.update('/k', enc('k3'), 2); // 4
    await first.delete('/gone', 3); // 5
    await first.compact(5);
    await first.close();
    // Row 1, 2 are superseded by 2, 4; 3 by the tombstone 5, which is itself compacted away.
    assert.deepEqual(logRevisions(dir), [4]);

    const second = await openSqliteBackend({ path: dir, commitThread });
    try {
      assert.equal(second.currentRevision(), 5);
      assert.equal(second.compactedRevision(), 5);
      assert.throws(() => second.watch('', 4, () => {}), CompactedError);
      assert.deepEqual(
        second.list('').items.map((kv) => [kv.key, kv.modRevision]),
        [['/k', 4]],
      );
      assert.equal((await second.create('/new', enc('n'))).modRevision, 6);
    } finally {
      await second.close();
    }
  });

  it('reloads only the newest historyLimit events', async () => {
    const dir = freshDir();
    const first = await openSqliteBackend({ path: dir, historyLimit: 1000, commitThread });
    for (let i = 0; i < 50; i++) await first.create(`/k/${i}`, enc(String(i)));
    await first.close();
    const second = await openSqliteBackend({ path: dir, historyLimit: 10, commitThread });
    try {
      assert.equal(second.stats().historySize, 10);
      assert.equal(second.compactedRevision(), 40);
      assert.deepEqual(
        collect(second, '', 40).events.map((e) => e.revision),
        [41, 42, 43, 44, 45, 46, 47, 48, 49, 50],
      );
      assert.equal(second.count('/k/'), 50);
    } finally {
      await second.close();
    }
  });

  it('compacts the log automatically as history outgrows its limit', async () => {
    const dir = freshDir();
    const b = await openSqliteBackend({ path: dir, historyLimit: 10, commitThread });
    let rev = (await b.create('/hot', enc('0'))).modRevision;
    // 1,200 updates of one key: the floor passes 1,000 (the minimum compaction step) once.
    for (let i = 0; i < 1200; i++) rev = (await b.update('/hot', enc(String(i)), rev)).modRevision;
    await b.close();
    // The floor reached 1,000 at revision 1,010: rows 1..999 were superseded at or below it.
    assert.deepEqual(
      logRevisions(dir),
      Array.from({ length: 202 }, (_, i) => 1000 + i),
    );
    const reopened = await openSqliteBackend({ path: dir, historyLimit: 10, commitThread });
    try {
      assert.equal(reopened.get('/hot')?.modRevision, 1201);
      assert.equal(reopened.compactedRevision(), 1191);
    } finally {
      await reopened.close();
    }
  });
}

describe('sqlite: files', () => {
  it('puts fleetyard.db in a directory path, or uses a file path as given', async () => {
    const dir = freshDir();
    await (await openSqliteBackend({ path: dir })).close();
    const file = path.join(dir, 'custom.db');
    await (await openSqliteBackend({ path: file })).close();
    const names = fs.readdirSync(dir).sort();
    assert.ok(names.includes(DEFAULT_DB_FILE) && names.includes('custom.db'), names.join());
    assert.ok(!names.some((f) => f.endsWith('-shm')), 'exclusive locking needs no shm file');
  });

  it('is what openBackend opens for kind sqlite, reporting commits', async () => {
    const commits: number[] = [];
    const file = path.join(freshDir(), 'state.db');
    const b = await openBackend({ kind: 'sqlite', path: file, onCommit: (n) => commits.push(n) });
    try {
      await Promise.all([b.create('/a', enc('a')), b.create('/b', enc('b'))]);
      assert.equal(b.name, 'sqlite');
      assert.deepEqual(commits, [2]);
      assert.ok(fs.existsSync(file));
    } finally {
      await b.close();
    }
  });

  it('refuses a second process-level opener while the store is open', async () => {
    const dir = freshDir();
    const b = await openSqliteBackend({ path: dir });
    try {
      await b.create('/k', enc('k'));
      await assert.rejects(openSqliteBackend({ path: dir }), /locked/);
    } finally {
      await b.close();
    }
  });
});

describe('sqlite: delete records', () => {
  it('stores a delete as a small tombstone and replays its final value after a restart', async () => {
    const dir = freshDir();
    const big = 'x'.repeat(10_000);
    const first = await openSqliteBackend({ path: dir, reserveBytes });
    await first.create('/k', (rv) => JSON.stringify({ rv, big })); // 1
    await first.delete('/k', 1, (rv) => JSON.stringify({ rv, big })); // 2
    const before = collect(first, '', 0).events;
    await first.close();
    const db = new Database(path.join(dir, DEFAULT_DB_FILE), { readonly: true });
    const row = db.prepare('SELECT value, deleted FROM log WHERE rev = 2').get() as {
      value: string;
      deleted: number;
    };
    db.close();
    assert.equal(row.deleted, 2);
    assert.ok(row.value.length < 20, `a ${row.value.length}-character tombstone`);
    const second = await openSqliteBackend({ path: dir, reserveBytes });
    try {
      assert.deepEqual(collect(second, '', 0).events, before);
      assert.equal(before[1]?.kv.value, JSON.stringify({ rv: 2, big }));
    } finally {
      await second.close();
    }
  });

  it('opens a schema 1 store (whole-value tombstones) and migrates it to schema 2', async () => {
    const dir = freshDir();
    const file = path.join(dir, DEFAULT_DB_FILE);
    const v1 = new Database(file);
    v1.exec(`CREATE TABLE log (rev INTEGER PRIMARY KEY, key TEXT NOT NULL, value TEXT NOT NULL,
      create_rev INTEGER NOT NULL, prev_rev INTEGER NOT NULL, deleted INTEGER NOT NULL) STRICT;
      CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT, WITHOUT ROWID;`);
    const insert = v1.prepare('INSERT INTO log VALUES (?, ?, ?, ?, ?, ?)');
    insert.run(1, '/a', 'a@1', 1, 0, 0);
    insert.run(2, '/a', 'final-a@2', 1, 1, 1);
    insert.run(3, '/b', 'b@3', 3, 0, 0);
    v1.pragma('user_version = 1');
    v1.close();
    const b = await openSqliteBackend({ path: dir, reserveBytes });
    try {
      assert.deepEqual(
        collect(b, '', 0).events.map((e) => [e.type, e.revision, e.kv.value, e.prevKv?.value]),
        [
          ['create', 1, 'a@1', undefined],
          ['delete', 2, 'final-a@2', 'a@1'],
          ['create', 3, 'b@3', undefined],
        ],
      );
      assert.equal((await b.delete('/b', 3, (rv) => `final-b@${rv}`)).modRevision, 4);
    } finally {
      await b.close();
    }
    const migrated = new Database(file, { readonly: true });
    assert.equal(migrated.pragma('user_version', { simple: true }), 2);
    migrated.close();
    const reopened = await openSqliteBackend({ path: dir, reserveBytes });
    try {
      const deletes = collect(reopened, '', 0).events.filter((e) => e.type === 'delete');
      assert.deepEqual(
        deletes.map((e) => e.kv.value),
        ['final-a@2', 'final-b@4'],
      );
    } finally {
      await reopened.close();
    }
  });

  it('fails to open with a clear error when the reserve cannot be written', async () => {
    const dir = freshDir();
    await assert.rejects(
      openSqliteBackend({ path: dir, reserveBytes: Number.MAX_SAFE_INTEGER }),
      /^Error: storage: cannot write .*fleetyard\.db: no space left on device/,
    );
  });
});
