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
import { DEFAULT_HISTORY_LIMIT, StorageEngine } from '../engine/engine.js';
import type { Journal, RecoveredState } from '../engine/journal.js';
import { SqliteJournal } from './journal.js';
import { recoverState } from './recover.js';
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
  const { recovered, journal } =
    options.commitThread === 'main'
      ? openHere(file, historyLimit)
      : await openInWorker(file, historyLimit);
  return new StorageEngine({
    name: 'sqlite',
    journal,
    historyLimit,
    onCommit: options.onCommit,
    recovered,
  });
}

interface Opened {
  readonly recovered: RecoveredState;
  readonly journal: Journal;
}

/** Opens the file on this thread; recovery and commits share the connection. */
function openHere(file: string, historyLimit: number): Opened {
  const db = connect(file);
  try {
    return { recovered: recoverState(db, historyLimit), journal: new SqliteJournal(db) };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Recovers on this thread, then hands the file to a commit worker. */
async function openInWorker(file: string, historyLimit: number): Promise<Opened> {
  const db = connect(file);
  let recovered: RecoveredState;
  try {
    recovered = recoverState(db, historyLimit);
  } finally {
    db.close();
  }
  return { recovered, journal: await WorkerJournal.open(file) };
}

function connect(file: string): Database.Database {
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
}
