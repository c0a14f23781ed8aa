/**
 * The on-disk layout of the SQLite backend, in kine's style: one log row per revision, plus a
 * small meta table.
 *
 * A delete is a row too (a tombstone). Schema 1 wrote `deleted = 1` with the whole final
 * value of the delete event; schema 2 writes `deleted = 2` with that value as a small edit of
 * the previous version (`delete-delta.ts`), so deleting objects on a nearly full disk costs
 * tens of bytes each. Both kinds are read back, so a schema 1 store opens as it is: the
 * migration only raises `user_version`, which keeps an older fleetyard (that would misread
 * `deleted = 2`) from opening it. `prev_rev` names the row an update or
 * delete superseded (0 for a create); compaction uses it to find superseded rows by primary
 * key without any secondary index. Compare-and-swap happens in memory before a write reaches
 * the log (one process owns the file: the connection holds an exclusive lock), so the log
 * needs no unique `(key, prev_rev)` index to referee conflicting writers.
 *
 * @module
 */
import type Database from 'better-sqlite3';

/** Bumped on any incompatible change; stored in `PRAGMA user_version`. */
export const SCHEMA_VERSION = 2;

/** `deleted` of a schema 1 tombstone: `value` is the whole final value. */
export const DELETED_FULL = 1;
/** `deleted` of a schema 2 tombstone: `value` is an edit of the previous version's value. */
export const DELETED_DELTA = 2;

const DDL = `
CREATE TABLE IF NOT EXISTS log (
  rev        INTEGER PRIMARY KEY,
  key        TEXT    NOT NULL,
  value      TEXT    NOT NULL,
  create_rev INTEGER NOT NULL,
  prev_rev   INTEGER NOT NULL,
  deleted    INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT    PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

/** One log row as read back. */
export interface LogRow {
  readonly rev: number;
  readonly key: string;
  readonly value: string;
  readonly create_rev: number;
  readonly prev_rev: number;
  readonly deleted: number;
}

/** WAL pages after which a commit checkpoints (SQLite's default, 1,000 pages of 4 KiB). */
export const WAL_AUTOCHECKPOINT_PAGES = 1000;
/**
 * Bytes a restarted WAL is truncated to. Twice the autocheckpoint threshold (~4 MiB of frames):
 * steady writing reuses the file without truncating and regrowing it each cycle, and a larger
 * one-off transaction gives its surplus back at the next checkpoint.
 */
export const WAL_SIZE_LIMIT = 8 * 1024 * 1024;

/** Meta entry: history at or below this revision has been removed from the log. */
export const META_COMPACT_REV = 'compact_rev';
/** Meta entry written by the disk probe of an unwritable store (the time, in ms). */
export const META_PROBE = 'probe';

/**
 * Configures a fresh connection and creates the tables.
 *
 * - `locking_mode = EXCLUSIVE` before the first WAL access: no `-shm` file, and a second
 *   process opening the same store fails instead of interleaving revisions.
 * - `journal_mode = WAL`: a commit appends frames to one file; a torn tail after a crash is
 *   discarded by the frame checksums, so a batch survives whole or not at all.
 * - `synchronous = FULL`: every commit fsyncs the WAL before returning, which is what lets a
 *   write be acknowledged.
 * - `wal_autocheckpoint = 1000` (SQLite's default, stated): a commit that takes the WAL past
 *   1,000 pages (~4 MiB) copies it into the database. A checkpoint only falls short when another
 *   connection reads an older snapshot; the exclusive lock leaves none, so each one completes
 *   and the next commit writes the WAL from its start again.
 * - `journal_size_limit` ({@link WAL_SIZE_LIMIT}): a restarted WAL longer than this is
 *   truncated to it, so one big transaction (a batch of large objects) does not leave its
 *   high-water mark on disk for the life of the store.
 * - `auto_vacuum = INCREMENTAL` on a new file (it cannot be switched on later without a full
 *   VACUUM): pages freed by compaction are reused first, and `log-store.ts` gives a large
 *   surplus back to the file system (see docs/storage-maintenance.md).
 */
export function prepareDatabase(db: Database.Database): void {
  db.pragma('locking_mode = EXCLUSIVE');
  // Before the first table exists, so before WAL mode writes anything: only then does the
  // setting take without a VACUUM. An existing store keeps its mode (freelist reuse only).
  if (Number(db.pragma('page_count', { simple: true })) === 0) {
    db.pragma('auto_vacuum = INCREMENTAL');
  }
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`storage: sqlite refused WAL mode (got ${String(mode)})`);
  db.pragma('synchronous = FULL');
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `storage: database schema ${version} is newer than supported ${SCHEMA_VERSION}`,
    );
  }
  db.exec(DDL);
  if (version < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

/** Reads an integer meta entry (0 when absent). */
export function readMeta(db: Database.Database, name: string): number {
  const row = db.prepare('SELECT value FROM meta WHERE name = ?').get(name) as
    | { value: number }
    | undefined;
  return row?.value ?? 0;
}
