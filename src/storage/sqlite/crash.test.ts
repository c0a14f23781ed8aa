import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { DEFAULT_DB_FILE, openSqliteBackend } from './backend.js';
import { applyDeleteDelta } from './delete-delta.js';
import { DELETED_DELTA, type LogRow, META_COMPACT_REV } from './schema.js';
import { digest, makeValue, verifyValue } from './testing/crash-value.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const childScript = path.join(here, 'testing', 'crash-child.ts');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetyard-crash-test-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** 12 rounds of ~0.5 s (child start-up under tsx plus 30–250 ms of writing). */
const ROUNDS = 12;

interface Ack {
  readonly rev: number;
  readonly type: string;
  readonly key: string;
  readonly digest: string;
}

/** Runs the child, SIGKILLs it `delayMs` after it is ready, and returns what it acknowledged. */
function runAndKill(
  dir: string,
  seed: number,
  delayMs: number,
  mode: string,
  maxPad = 1500,
): Promise<Ack[]> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', childScript, dir, String(seed), mode, String(maxPad)];
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!killed && out.includes('READY')) {
        killed = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      if (signal !== 'SIGKILL') {
        reject(new Error(`child exited on its own (signal ${signal}): ${err}`));
        return;
      }
      const acks = out
        .split('\n')
        .filter((line) => line.startsWith('ACK '))
        .map((line) => {
          const [, rev, type, key, sum] = line.split(' ');
          return { rev: Number(rev), type: type!, key: key!, digest: sum! };
        });
      resolve(acks);
    });
  });
}

interface LogState {
  readonly rows: Map<number, LogRow>;
  readonly compactRev: number;
  readonly maxRev: number;
}

/** Reads the raw log (opening it also replays the WAL left by the kill). */
function readLog(dir: string): LogState {
  const db = new Database(path.join(dir, DEFAULT_DB_FILE));
  try {
    const rows = new Map<number, LogRow>();
    for (const row of db.prepare('SELECT * FROM log ORDER BY rev').all() as LogRow[]) {
      // A schema 2 tombstone holds its final value as an edit of the row it superseded.
      const prev = rows.get(row.prev_rev);
      const value =
        row.deleted === DELETED_DELTA ? applyDeleteDelta(prev?.value ?? '', row.value) : row.value;
      rows.set(row.rev, { ...row, value });
    }
    const meta = db.prepare('SELECT value FROM meta WHERE name = ?').get(META_COMPACT_REV) as
      | { value: number }
      | undefined;
    const compactRev = meta?.value ?? 0;
    return { rows, compactRev, maxRev: Math.max(compactRev, ...rows.keys()) };
  } finally {
    db.close();
  }
}

/** Every row is whole and self-consistent; no revision above the compact mark is missing. */
function checkLog({ rows, compactRev, maxRev }: LogState): void {
  for (const row of rows.values()) {
    verifyValue(row.value, row.key, row.rev);
    if (row.create_rev === row.rev) assert.equal(row.prev_rev, 0, `create ${row.rev}`);
    else if (row.rev > compactRev) {
      assert.equal(rows.get(row.prev_rev)?.key, row.key, `row ${row.rev} supersedes its key`);
    }
  }
  for (let rev = compactRev + 1; rev <= maxRev; rev++) {
    assert.ok(rows.has(rev), `revision ${rev} missing above compact revision ${compactRev}`);
  }
}

/** Each acknowledged write is in the log as acknowledged, or was compacted after being superseded. */
function checkAcks(log: LogState, acks: readonly Ack[]): void {
  for (const ack of acks) {
    const row = log.rows.get(ack.rev);
    if (!row) {
      assert.ok(ack.rev <= log.compactRev, `acknowledged ${ack.type} @${ack.rev} was lost`);
      continue;
    }
    assert.equal(row.key, ack.key, `@${ack.rev}`);
    assert.equal(digest(row.value), ack.digest, `@${ack.rev} value`);
    const type = row.deleted ? 'delete' : row.create_rev === row.rev ? 'create' : 'update';
    assert.equal(type, ack.type, `@${ack.rev} type`);
  }
}

/**
 * `rounds` runs of the child on one store, each SIGKILLed at a random moment; after each, the
 * raw log, every acknowledged write and SQLite's own integrity check must hold, and the store
 * must open and go on at the next revision.
 */
async function killRounds(rounds: number, maxPad: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(root, 'store-'));
  const seed = Date.now() % 1_000_000;
  let random = seed || 1;
  let lastRevision = 0;
  let totalAcks = 0;
  for (let round = 0; round < rounds; round++) {
    random = (random * 48271) % 2147483647;
    const delayMs = 30 + (random % 220);
    // Alternate the commit thread: both variants must survive the same store's crashes.
    const mode = round % 2 === 0 ? 'worker' : 'main';
    const context = `seed ${seed}, round ${round} (${mode}, pad ≤ ${maxPad}), kill after ${delayMs} ms`;
    const acks = await runAndKill(dir, random, delayMs, mode, maxPad);
    totalAcks += acks.length;
    const log = readLog(dir);
    try {
      checkLog(log);
      checkAcks(log, acks);
      assert.ok(log.maxRev >= Math.max(lastRevision, ...acks.map((a) => a.rev)));
      assert.equal(integrity(dir), 'ok');
    } catch (err) {
      throw new Error(`${context}: ${(err as Error).message}`, { cause: err });
    }
    const store = await openSqliteBackend({ path: dir });
    try {
      assert.equal(store.currentRevision(), log.maxRev, context);
      for (const [key, kv] of latestPerKey(log)) assert.deepEqual(store.get(key), kv, context);
      const key = `/after/${round}`;
      const next = await store.create(key, (rv) => makeValue(key, rv, 10));
      assert.equal(next.modRevision, log.maxRev + 1, context);
      lastRevision = next.modRevision;
    } finally {
      await store.close();
    }
  }
  assert.ok(totalAcks > rounds, `only ${totalAcks} writes were acknowledged`);
}

/** SQLite's `integrity_check` of the store (b-trees, freelist, pointer maps). */
function integrity(dir: string): string {
  const db = new Database(path.join(dir, DEFAULT_DB_FILE));
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

describe('sqlite: crash safety', () => {
  it(`keeps every acknowledged write across ${ROUNDS} SIGKILLs at random moments`, () =>
    killRounds(ROUNDS, 1500));

  // Values up to 20 KB: each compaction frees megabytes, so the kills also land inside
  // incremental vacuum steps (`log-store.ts`), which must leave a consistent file.
  it('keeps every write and a consistent file across SIGKILLs during vacuum', () =>
    killRounds(ROUNDS / 2, 20_000));
});

/** The current version of every live key according to the raw log. */
function latestPerKey(log: LogState): Map<string, unknown> {
  const live = new Map<string, unknown>();
  for (const row of log.rows.values()) {
    if (row.deleted) live.delete(row.key);
    else {
      live.set(row.key, {
        key: row.key,
        value: row.value,
        createRevision: row.create_rev,
        modRevision: row.rev,
      });
    }
  }
  return live;
}
