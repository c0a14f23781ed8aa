/**
 * Storage benchmark: durable write throughput of the SQLite backend against the disk's own
 * fsync limit.
 *
 * - durable writes/s: 60,000 creates of distinct keys with 1 KiB values, 1,024 in flight, on a
 *   fresh store per run; a write counts once its promise resolved (WAL fsynced). Measured with
 *   the default commit worker and, for comparison, with commits on the main thread.
 * - writes per commit: how well group commit amortises the fsync.
 * - raw fsync/s: 1 KiB append + `fs.fsyncSync` in a loop for 1 s, the ceiling for a store
 *   that fsyncs every write on its own.
 * - commits/s ÷ fsyncs/s: how close the backend runs to the disk's fsync rate (below 1:
 *   commits are bigger than 1 KiB and carry insert work; the ratio shows what group commit
 *   spends per fsync).
 *
 * Run alone: `node --import tsx bench/storage.ts`.
 *
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openSqliteBackend } from '../src/storage/sqlite/backend.js';
import { type BenchRow, median } from './lib/report.js';

const RUNS = 3;
const WRITES = 60_000;
const IN_FLIGHT = 1024;
const VALUE_BYTES = 1024;
/** 10× etcd's ~5,700 durable writes/s ceiling on comparable hardware. */
const TARGET_WRITES_PER_SEC = 57_000;

interface WriteRun {
  readonly writesPerSec: number;
  readonly writesPerCommit: number;
  readonly commitsPerSec: number;
}

async function writeRun(dir: string, commitThread: 'worker' | 'main'): Promise<WriteRun> {
  const store = await openSqliteBackend({ path: dir, commitThread });
  // The value is a 1 KiB JSON document whose revision is stamped in, like the API server's.
  const filler = 'x'.repeat(VALUE_BYTES - 40);
  const encode = (rv: number) => `{"resourceVersion":"${rv}","data":"${filler}"}`;
  let next = 0;
  const started = performance.now();
  async function writer(): Promise<void> {
    while (next < WRITES) {
      const key = `/registry/bench/${String(next++).padStart(8, '0')}`;
      await store.create(key, encode);
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
  const seconds = (performance.now() - started) / 1000;
  const { commits, committedWrites } = store.stats();
  await store.close();
  return {
    writesPerSec: committedWrites / seconds,
    writesPerCommit: committedWrites / commits,
    commitsPerSec: commits / seconds,
  };
}

function fsyncRun(dir: string): number {
  const fd = fs.openSync(path.join(dir, 'fsync.bin'), 'a');
  const block = Buffer.alloc(VALUE_BYTES, 0x61);
  let ops = 0;
  const started = performance.now();
  try {
    while (performance.now() - started < 1000) {
      fs.writeSync(fd, block);
      fs.fsyncSync(fd);
      ops++;
    }
  } finally {
    fs.closeSync(fd);
  }
  return ops / ((performance.now() - started) / 1000);
}

/** Measures the SQLite backend and the disk; medians of {@link RUNS} runs each. */
export async function benchStorage(): Promise<BenchRow[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetyard-bench-storage-'));
  try {
    const writes: WriteRun[] = [];
    const sameThread: WriteRun[] = [];
    const fsyncs: number[] = [];
    // Interleaved, so a slow patch of the (shared, virtual) disk hits every figure alike.
    for (let i = 0; i < RUNS; i++) {
      const dir = fs.mkdtempSync(path.join(root, 'run-'));
      writes.push(await writeRun(path.join(dir, 'worker.db'), 'worker'));
      sameThread.push(await writeRun(path.join(dir, 'main.db'), 'main'));
      fsyncs.push(fsyncRun(dir));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const writesPerSec = writes.map((w) => w.writesPerSec);
    const perCommit = writes.map((w) => w.writesPerCommit);
    const ratio = writes.map((w, i) => w.commitsPerSec / fsyncs[i]!);
    const rate = median(writesPerSec);
    const sameThreadRates = sameThread.map((w) => w.writesPerSec);
    return [
      {
        name: 'durable writes/s (sqlite backend, 1 KiB values)',
        value: Math.round(rate),
        unit: 'writes/s',
        runs: writesPerSec.map(Math.round),
        target: `>= ${TARGET_WRITES_PER_SEC}`,
        met: rate >= TARGET_WRITES_PER_SEC,
        note: `${WRITES} creates, ${IN_FLIGHT} in flight, synchronous=FULL, commit worker`,
      },
      {
        name: 'durable writes/s (sqlite backend, commits on the main thread)',
        value: Math.round(median(sameThreadRates)),
        unit: 'writes/s',
        runs: sameThreadRates.map(Math.round),
        note: "commitThread: 'main', for comparison",
      },
      {
        name: 'writes per commit (sqlite backend, commit worker)',
        value: Math.round(median(perCommit)),
        unit: 'writes',
        runs: perCommit.map(Math.round),
      },
      {
        name: 'raw fsync/s (1 KiB append + fsync)',
        value: Math.round(median(fsyncs)),
        unit: 'ops/s',
        runs: fsyncs.map(Math.round),
      },
      {
        name: 'commits/s ÷ raw fsyncs/s (commit worker)',
        value: Number(median(ratio).toFixed(3)),
        unit: 'ratio',
        runs: ratio.map((r) => Number(r.toFixed(3))),
      },
    ];
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchStorage()) console.log(JSON.stringify(row));
}
