/**
 * What a SQLite journal does about a full disk, on whichever thread owns the connection: give
 * the reserve back when a commit fails for lack of space, and answer the engine's probe; and
 * how much disk the store takes.
 *
 * @module
 */
import fs from 'node:fs';
import { isNoSpace } from '../engine/disk-errors.js';
import type { DiskUsage } from '../engine/journal.js';
import type { LogStore } from './log-store.js';
import type { SpaceReserve } from './reserve.js';

/** A commit failed with `err`: on a full disk, free the reserve for deletes and compaction. */
export function afterFailedAppend(reserve: SpaceReserve, err: unknown): void {
  if (!isNoSpace(err)) return;
  try {
    reserve.release();
  } catch {
    // Nothing to give back, or a disk that refuses even that: the probe will tell.
  }
}

/**
 * Whether the store may take writes again: the reserve is taken back (with a margin beyond
 * it) and one tiny commit lands, which a read-only or failing disk refuses.
 */
export function probeDisk(reserve: SpaceReserve, log: LogStore): boolean {
  try {
    reserve.acquire(true);
    log.probe();
    return true;
  } catch {
    return false;
  }
}

/**
 * The bytes of the database file and its WAL (`<file>-wal`), read with `stat` from any thread
 * (the exclusive lock keeps other connections out, not `stat`). What `stats()` reports.
 */
export function diskUsage(file: string): DiskUsage {
  const size = (f: string) => fs.statSync(f, { throwIfNoEntry: false })?.size ?? 0;
  return { fileBytes: size(file), walBytes: size(`${file}-wal`) };
}
