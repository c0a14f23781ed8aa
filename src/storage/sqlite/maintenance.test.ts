/**
 * The store's own maintenance, measured on real files: compaction bounds the log table, the
 * WAL is checkpointed and truncated, and free pages are reused or given back, across long
 * churns of the same keys and across restarts. Bounds come from the settings they test
 * (`schema.ts`, `log-store.ts`, the engine's compaction trigger), not from timings.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Backend } from '../backend.js';
import { DEFAULT_DB_FILE, openSqliteBackend } from './backend.js';
import { WAL_SIZE_LIMIT } from './schema.js';
import { makeValue, verifyValue } from './testing/crash-value.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetyard-maintenance-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const reserveBytes = 64 * 1024;
let n = 0;
function freshDir(): string {
  const dir = path.join(root, String(++n));
  fs.mkdirSync(dir);
  return dir;
}

function fileSize(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

interface LogFacts {
  readonly rows: number;
  readonly pages: number;
  readonly free: number;
  readonly autoVacuum: number;
  readonly integrity: string;
}

/** Reads the closed store directly. */
function logFacts(dir: string): LogFacts {
  const db = new Database(path.join(dir, DEFAULT_DB_FILE), { readonly: true });
  try {
    const { rows } = db.prepare('SELECT count(*) AS rows FROM log').get() as { rows: number };
    return {
      rows,
      pages: Number(db.pragma('page_count', { simple: true })),
      free: Number(db.pragma('freelist_count', { simple: true })),
      autoVacuum: Number(db.pragma('auto_vacuum', { simple: true })),
      integrity: String(db.pragma('integrity_check', { simple: true })),
    };
  } finally {
    db.close();
  }
}

/** Writes `count` creates-or-updates over `keys` keys, 64 in flight, each `pad` bytes. */
async function churn(
  store: Backend,
  prefix: string,
  keys: number,
  count: number,
  pad: number,
): Promise<void> {
  for (let i = 0; i < count; i += 64) {
    const batch: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(count, i + 64); j++) {
      const key = `${prefix}${j % keys}`;
      const encode = (rv: number) => makeValue(key, rv, pad);
      const latest = store.getLatest(key);
      batch.push(
        latest ? store.update(key, encode, latest.modRevision) : store.create(key, encode),
      );
    }
    await Promise.all(batch);
  }
}

/** Deletes every key under `prefix`. */
async function deleteAll(store: Backend, prefix: string): Promise<void> {
  const items = store.list(prefix).items;
  await Promise.all(items.map((kv) => store.delete(kv.key, kv.modRevision)));
}

const KEYS = 200;
const HISTORY = 500;
/** The engine's trigger: journal compaction once the floor moved max(1,000, limit/4). */
const COMPACT_EVERY = 1000;

for (const commitThread of ['worker', 'main'] as const) {
  describe(`sqlite maintenance (${commitThread} commits)`, () => {
    it('keeps the log table within live keys + history window + one compaction step', async () => {
      const dir = freshDir();
      const bound = KEYS + HISTORY + COMPACT_EVERY;
      const rowsSeen: number[] = [];
      for (let phase = 0; phase < 3; phase++) {
        const store = await openSqliteBackend({
          path: dir,
          commitThread,
          historyLimit: HISTORY,
          reserveBytes,
        });
        await churn(store, '/churn/', KEYS, 6000, 200);
        await store.close();
        const facts = logFacts(dir);
        rowsSeen.push(facts.rows);
        assert.equal(facts.integrity, 'ok');
      }
      // 18,000 writes of 200 keys: without compaction the log would hold all of them.
      for (const rows of rowsSeen) assert.ok(rows <= bound, `log rows ${rowsSeen} > ${bound}`);
      const store = await openSqliteBackend({ path: dir, commitThread, reserveBytes });
      try {
        assert.equal(store.count('/churn/'), KEYS);
        for (const kv of store.list('/churn/').items) verifyValue(kv.value, kv.key, kv.modRevision);
      } finally {
        await store.close();
      }
    });

    it('truncates the WAL after a large transaction, and checkpoints it under churn', async () => {
      const dir = freshDir();
      const file = path.join(dir, DEFAULT_DB_FILE);
      const store = await openSqliteBackend({
        path: dir,
        commitThread,
        historyLimit: HISTORY,
        reserveBytes,
      });
      try {
        // 48 writes of 512 KiB sent together commit in a few batches of several MiB each.
        await churn(store, '/big/', 48, 48, 512 * 1024);
        const peak = fileSize(`${file}-wal`);
        assert.ok(peak > WAL_SIZE_LIMIT, `precondition: WAL reached ${peak} bytes`);
        // Small writes take the WAL past 1,000 pages: it is checkpointed, restarted, truncated.
        let highWater = 0;
        for (let round = 0; round < 10; round++) {
          await churn(store, '/small/', KEYS, 1000, 1000);
          highWater = Math.max(highWater, fileSize(`${file}-wal`));
        }
        const after = fileSize(`${file}-wal`);
        // What the metrics read: the same sizes, from stats().
        const stats = store.stats();
        assert.deepEqual([stats.fileBytes, stats.walBytes], [fileSize(file), after]);
        assert.ok(after <= WAL_SIZE_LIMIT, `WAL ${after} bytes after churn (peak ${peak})`);
        // The churn alone never holds more than the autocheckpoint threshold and one batch.
        assert.ok(highWater <= WAL_SIZE_LIMIT, `WAL high-water ${highWater} under churn`);
      } finally {
        await store.close();
      }
      assert.equal(fileSize(`${file}-wal`), 0, 'a clean close checkpoints and removes the WAL');
    });

    it('reuses freed pages under churn and gives a spike back', async () => {
      const dir = freshDir();
      const file = path.join(dir, DEFAULT_DB_FILE);
      const open = () =>
        openSqliteBackend({ path: dir, commitThread, historyLimit: HISTORY, reserveBytes });
      let store = await open();
      await churn(store, '/churn/', KEYS, 6000, 1000);
      await store.close();
      const first = fileSize(file);
      store = await open();
      try {
        // Steady churn: the file stays where the first phase left it.
        await churn(store, '/churn/', KEYS, 12_000, 1000);
        // A spike of 3,000 2 KiB objects (several times the steady file), then all deleted,
        // then enough churn for compaction to pass the tombstones.
        await churn(store, '/spike/', 3000, 3000, 2000);
        await deleteAll(store, '/spike/');
        await churn(store, '/churn/', KEYS, 6000, 1000);
      } finally {
        await store.close();
      }
      const facts = logFacts(dir);
      assert.equal(facts.integrity, 'ok');
      assert.equal(facts.autoVacuum, 2, 'a new store is auto_vacuum = INCREMENTAL');
      const last = fileSize(file);
      assert.ok(last <= 2 * first, `db ${last} bytes > 2 × ${first} after the first phase`);
      assert.ok(facts.free <= Math.max(1024, facts.pages / 4), `free pages ${facts.free}`);
    });
  });
}

describe('sqlite maintenance: stores made before auto_vacuum', () => {
  it('keeps an existing store as it is and still reuses its free pages', async () => {
    const dir = freshDir();
    const file = path.join(dir, DEFAULT_DB_FILE);
    // An older fleetyard created its file without auto_vacuum.
    const legacy = new Database(file);
    legacy.pragma('journal_mode = WAL');
    legacy.exec('CREATE TABLE t (x INTEGER)');
    legacy.exec('DROP TABLE t');
    legacy.close();
    const open = () => openSqliteBackend({ path: dir, historyLimit: HISTORY, reserveBytes });
    let store = await open();
    await churn(store, '/churn/', KEYS, 6000, 1000);
    await store.close();
    const first = fileSize(file);
    store = await open();
    await churn(store, '/churn/', KEYS, 12_000, 1000);
    await store.close();
    const facts = logFacts(dir);
    assert.equal(facts.autoVacuum, 0);
    assert.equal(facts.integrity, 'ok');
    assert.ok(fileSize(file) <= 2 * first, `db ${fileSize(file)} > 2 × ${first}`);
  });
});
