/**
 * The SQLite backend: the storage engine over a WAL-mode SQLite log (better-sqlite3).
 *
 * Opening reads the whole log once on the calling thread (`recover.ts`: current state, the
 * revision counter, the newest `historyLimit` events), then hands the file to the journal
 * that commits batches: by default the process's shared commit worker (`commit-thread.ts`,
 * `commit-worker.ts`), or the main thread itself. Layout and pragmas: `schema.ts`.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Backend, CommitObserver } from '../backend.js';
import { unwritableCause } from '../engine/disk-errors.js';
import { DEFAULT_HISTORY_LIMIT, StorageEngine } from '../engine/engine.js';
import type { Journal, RecoveredState } from '../engine/journal.js';
import { SqliteJournal } from './journal.js';
import { recoverState } from './recover.js';
import { DEFAULT_RESERVE_BYTES, SpaceReserve } from './reserve.js';
import { prepareDatabase } from './schema.js';
import { WorkerJournal } from './worker-journal.js';

/** The file name used when `path` names a directory. */
export const DEFAULT_DB_FILE = 'fleetyard.db';

export interface SqliteBackendOptions {
  /** The database file, or an existing directory to hold `fleetyard.db`. */
  readonly path: string;
  /** Events kept for watch resume and past lists. @default 10_000 */
  readonly historyLimit?: number | undefined;
  /** Called after every commit with its batch size and duration (including fsync). */
  readonly onCommit?: CommitObserver | undefined;
  /**
   * Where commits run: a dedicated worker thread (overlaps inserts and fsync with the main
   * thread's work) or the main thread (simpler; blocks the event loop for each commit).
   * @default 'worker'
   */
  readonly commitThread?: 'worker' | 'main' | undefined;
  /**
   * Disk space kept aside (`<db>-reserve`) and given back to deletes and compaction when the
   * disk fills up (`reserve.ts`). 0 keeps none. @default 2 MiB
   */
  readonly reserveBytes?: number | undefined;
  /** How often an unwritable store probes its disk. @default 1,000 ms */
  readonly probeIntervalMs?: number | undefined;
  /** Test seam: wraps the journal (fault injection in the conformance suite). */
  readonly wrapJournal?: ((journal: Journal) => Journal) | undefined;
}

function resolveFile(p: string): string {
  const isDir = fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return isDir ? path.join(p, DEFAULT_DB_FILE) : p;
}

/**
 * Opens (or creates) a store and recovers its state, revision counter and history window.
 *
 * @example
 * ```ts
 * const store = await openSqliteBackend({ path: '.fleetyard/state.db' });
 * ```
 */
export async function openSqliteBackend(options: SqliteBackendOptions): Promise<Backend> {
  const historyLimit = Math.max(1, options.historyLimit ?? DEFAULT_HISTORY_LIMIT);
  const file = resolveFile(options.path);
  const reserve = new SpaceReserve(file, options.reserveBytes ?? DEFAULT_RESERVE_BYTES);
  // First, so a full or read-only disk fails the open with a clear message before SQLite
  // creates a file it could not grow.
  writable(file, () => reserve.acquire());
  const { recovered, journal } =
    options.commitThread === 'main'
      ? openHere(file, historyLimit, reserve)
      : await openInWorker(file, historyLimit, reserve);
  return new StorageEngine({
    name: 'sqlite',
    journal: options.wrapJournal ? options.wrapJournal(journal) : journal,
    historyLimit,
    onCommit: options.onCommit,
    recovered,
    probeIntervalMs: options.probeIntervalMs,
  });
}

/**
 * Runs `open`, turning a disk condition into "storage: cannot write <file>: <reason>": a start
 * on a full or read-only disk fails at once and says why.
 */
function writable<T>(file: string, open: () => T): T {
  try {
    return open();
  } catch (err) {
    const cause = unwritableCause(err);
    if (!cause) throw err;
    const reason = {
      NoSpace: 'no space left on device',
      ReadOnly: 'read-only file system',
      DiskIO: 'disk I/O error',
    }[cause.code];
    const detail = err instanceof Error ? err.message : String(err);
    throw new Error(`storage: cannot write ${file}: ${reason} (${detail})`, { cause: err });
  }
}

interface Opened {
  readonly recovered: RecoveredState;
  readonly journal: Journal;
}

/** Opens the file on this thread; recovery and commits share the connection. */
function openHere(file: string, historyLimit: number, reserve: SpaceReserve): Opened {
  const db = connect(file);
  try {
    return { recovered: recoverState(db, historyLimit), journal: new SqliteJournal(db, reserve) };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Recovers on this thread, then hands the file to a commit worker. */
async function openInWorker(
  file: string,
  historyLimit: number,
  reserve: SpaceReserve,
): Promise<Opened> {
  const db = connect(file);
  let recovered: RecoveredState;
  try {
    recovered = recoverState(db, historyLimit);
  } finally {
    db.close();
  }
  return { recovered, journal: await WorkerJournal.open(file, reserve.bytes) };
}

function connect(file: string): Database.Database {
  return writable(file, () => {
    // No busy wait: the only other holder of the lock can be another live process owning the
    // store, and waiting for it would not help.
    const db = new Database(file, { timeout: 0 });
    try {
      prepareDatabase(db);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  });
}
