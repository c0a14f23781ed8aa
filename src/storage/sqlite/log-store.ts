/**
 * Synchronous access to the log table: append a batch as one transaction, compact in chunks.
 * Runs on the thread that owns the connection: the commit worker, or the main thread with
 * `commitThread: 'main'`.
 *
 * @module
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type { StorageEvent } from '../backend.js';
import { encodeDeleteDelta } from './delete-delta.js';
import { DELETED_DELTA, META_COMPACT_REV, META_PROBE, readMeta } from './schema.js';

/** One log row, flattened: rev, key, value, create_rev, prev_rev, deleted. */
export const ROW_WIDTH = 6;
export type RowCell = string | number;

/**
 * Flattens events into log rows (one flat array: cheap to post to a worker). A delete is a
 * tombstone whose value is its final value as an edit of the previous one (`delete-delta.ts`).
 */
export function toRows(events: readonly StorageEvent[]): RowCell[] {
  const cells: RowCell[] = new Array(events.length * ROW_WIDTH);
  let i = 0;
  for (const e of events) {
    const deleted = e.type === 'delete';
    cells[i++] = e.revision;
    cells[i++] = e.kv.key;
    cells[i++] = deleted ? encodeDeleteDelta(e.prevKv?.value ?? '', e.kv.value) : e.kv.value;
    cells[i++] = e.kv.createRevision;
    cells[i++] = e.type === 'create' ? 0 : (e.prevKv?.modRevision ?? 0);
    cells[i++] = deleted ? DELETED_DELTA : 0;
  }
  return cells;
}

/**
 * Revisions handled per compaction transaction. A chunk deletes at most two rows per revision
 * (the superseded row and a tombstone). On the development machine a chunk of 2,000 1 KiB
 * updates took ~6 ms including its fsync (~20 ms when a WAL checkpoint landed in it), so
 * appends queued behind a chunk wait that long at most.
 */
const COMPACT_CHUNK = 2000;

/**
 * Free pages (4 KiB) a store may hold before compaction gives the surplus back to the file
 * system: at least 1,024 (4 MiB), or a quarter of the file. Below that, freed pages are simply
 * reused by the next inserts: in a steady churn one compaction run frees about what the next
 * run's appends take (measured in maintenance.test.ts), so giving them back would only make
 * the file shrink and regrow. Above it (after a spike of creates then deletes), the file is
 * truncated until half the threshold is left free: 2 MiB, or an eighth of the file.
 */
const VACUUM_MIN_FREE_PAGES = 1024;
/** Pages moved per `incremental_vacuum` step: ~4 MiB of WAL, a few ms, then a yield. */
const VACUUM_STEP_PAGES = 1024;

/** `PRAGMA auto_vacuum` value of INCREMENTAL. */
const AUTO_VACUUM_INCREMENTAL = 2;

/** Pages of the database file, and how many of them are free (on the freelist). */
export interface PageUse {
  readonly pages: number;
  readonly free: number;
}

/** Rows per INSERT statement: one statement call per 64 rows instead of per row. */
const ROWS_PER_INSERT = 64;

function insertSql(rows: number): string {
  const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
  return `INSERT INTO log (rev, key, value, create_rev, prev_rev, deleted) VALUES ${values}`;
}

export class LogStore {
  readonly #append: (cells: readonly RowCell[]) => void;
  readonly #compactChunk: (from: number, to: number) => void;
  readonly #probe: () => void;
  readonly #db: Database.Database;
  /** New stores are INCREMENTAL (`schema.ts`); older ones only reuse their free pages. */
  readonly #vacuumable: boolean;
  #compactRev: number;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#vacuumable =
      Number(db.pragma('auto_vacuum', { simple: true })) === AUTO_VACUUM_INCREMENTAL;
    this.#compactRev = readMeta(db, META_COMPACT_REV);
    const insertOne = db.prepare(insertSql(1));
    const insertMany = db.prepare(insertSql(ROWS_PER_INSERT));
    const step = ROWS_PER_INSERT * ROW_WIDTH;
    this.#append = db.transaction((cells: readonly RowCell[]) => {
      let i = 0;
      for (; i + step <= cells.length; i += step) insertMany.run(cells.slice(i, i + step));
      for (; i < cells.length; i += ROW_WIDTH) insertOne.run(cells.slice(i, i + ROW_WIDTH));
    });
    // The rows superseded by the chunk's rows, then the chunk's tombstones, then the progress
    // mark, in one transaction: a crash mid-compaction resumes from the last finished chunk.
    const deleteSuperseded = db.prepare(
      'DELETE FROM log WHERE rev IN (SELECT prev_rev FROM log WHERE rev > ? AND rev <= ? AND prev_rev > 0)',
    );
    const deleteTombstones = db.prepare(
      'DELETE FROM log WHERE rev > ? AND rev <= ? AND deleted <> 0',
    );
    const setCompactRev = db.prepare(
      'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    );
    // One row of one page: the smallest commit (with its fsync) that proves the disk takes writes.
    this.#probe = () => {
      setCompactRev.run(META_PROBE, Date.now());
    };
    this.#compactChunk = db.transaction((from: number, to: number) => {
      deleteSuperseded.run(from, to);
      deleteTombstones.run(from, to);
      setCompactRev.run(META_COMPACT_REV, to);
    });
  }

  /** How far the log has been compacted (persisted). */
  get compactRevision(): number {
    return this.#compactRev;
  }

  /** Appends rows from {@link toRows} in one transaction; returns once it is fsynced. */
  append(cells: readonly RowCell[]): void {
    this.#append(cells);
  }

  /** Commits one tiny write; throws what the disk answers (SQLITE_FULL, SQLITE_READONLY…). */
  probe(): void {
    this.#probe();
  }

  /** The file's pages and free pages (read on the connection: includes the WAL's view). */
  pageUse(): PageUse {
    return {
      pages: Number(this.#db.pragma('page_count', { simple: true })),
      free: Number(this.#db.pragma('freelist_count', { simple: true })),
    };
  }

  /**
   * Removes rows superseded at or below `revision` and tombstones at or below it, one chunk
   * per transaction, yielding to the event loop between chunks, then gives a large surplus of
   * free pages back ({@link VACUUM_MIN_FREE_PAGES}). Stops early when `stop()`.
   */
  async compact(revision: number, stop: () => boolean): Promise<void> {
    const start = this.#compactRev;
    while (!stop() && this.#compactRev < revision) {
      const to = Math.min(revision, this.#compactRev + COMPACT_CHUNK);
      this.#compactChunk(this.#compactRev, to);
      this.#compactRev = to;
      if (to < revision) await nextTurn();
    }
    if (this.#compactRev > start) await this.#vacuum(stop);
  }

  /**
   * Truncates free pages off the file, one step per transaction, once they exceed a quarter
   * of it (and 4 MiB); keeps half that threshold as slack for the next inserts.
   */
  async #vacuum(stop: () => boolean): Promise<void> {
    if (!this.#vacuumable) return;
    const use = this.pageUse();
    const threshold = Math.max(VACUUM_MIN_FREE_PAGES, Math.floor(use.pages / 4));
    if (use.free <= threshold) return;
    const keep = Math.floor(threshold / 2);
    let free = use.free;
    while (!stop() && free > keep) {
      await nextTurn();
      if (stop()) return;
      this.#db.pragma(`incremental_vacuum(${Math.min(VACUUM_STEP_PAGES, free - keep)})`);
      free = this.pageUse().free;
    }
  }
}
