/**
 * The SQLite journal, same-thread variant: each batch is one transaction committed
 * synchronously (better-sqlite3), fsync included, before `append` returns.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { StorageEvent } from '../backend.js';
import type { DiskUsage, Journal } from '../engine/journal.js';
import { LogStore, toRows } from './log-store.js';
import type { SpaceReserve } from './reserve.js';
import { afterFailedAppend, diskUsage, probeDisk } from './space.js';

export class SqliteJournal implements Journal {
  readonly #db: Database.Database;
  readonly #log: LogStore;
  readonly #reserve: SpaceReserve;
  #closed = false;

  constructor(db: Database.Database, reserve: SpaceReserve) {
    this.#db = db;
    this.#log = new LogStore(db);
    this.#reserve = reserve;
  }

  get compactRevision(): number {
    return this.#log.compactRevision;
  }

  append(events: readonly StorageEvent[]): Promise<void> {
    try {
      this.#log.append(toRows(events));
      return Promise.resolve();
    } catch (err) {
      afterFailedAppend(this.#reserve, err);
      return Promise.reject(err);
    }
  }

  /** Commits run one at a time on this thread: no append can be in flight behind a failed one. */
  reset(): Promise<void> {
    return Promise.resolve();
  }

  probe(): Promise<boolean> {
    return Promise.resolve(probeDisk(this.#reserve, this.#log));
  }

  compact(revision: number): Promise<void> {
    return this.#log.compact(revision, () => this.#closed);
  }

  diskUsage(): DiskUsage {
    return diskUsage(this.#db.name);
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#db.close();
    return Promise.resolve();
  }
}
