/**
 * The SQLite journal, same-thread variant: each batch is one transaction committed
 * synchronously (better-sqlite3), fsync included, before `append` returns.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { StorageEvent } from '../backend.js';
import type { Journal } from '../engine/journal.js';
import { LogStore, toRows } from './log-store.js';

export class SqliteJournal implements Journal {
  readonly #db: Database.Database;
  readonly #log: LogStore;
  #closed = false;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#log = new LogStore(db);
  }

  get compactRevision(): number {
    return this.#log.compactRevision;
  }

  append(events: readonly StorageEvent[]): Promise<void> {
    try {
      this.#log.append(toRows(events));
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  compact(revision: number): Promise<void> {
    return this.#log.compact(revision, () => this.#closed);
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#db.close();
    return Promise.resolve();
  }
}
