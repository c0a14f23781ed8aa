/**
 * Startup recovery: one pass over the log in revision order rebuilds the current state (the
 * newest row per key, unless it is a tombstone) and the events above the compact revision.
 *
 * The revision counter is `max(newest row, compact revision)`: compaction may delete the
 * newest row (a trailing tombstone), but it never goes past the current revision and it
 * records how far it went, so the counter never moves backwards across a restart.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import type { KeyValue, StorageEvent } from '../backend.js';
import type { RecoveredState } from '../engine/journal.js';
import { applyDeleteDelta } from './delete-delta.js';
import { DELETED_DELTA, type LogRow, META_COMPACT_REV, readMeta } from './schema.js';

function toEvent(row: LogRow, kv: KeyValue, prev: KeyValue | undefined): StorageEvent {
  if (row.deleted) {
    // A schema 2 tombstone holds its final value as an edit of the previous version, which
    // compaction keeps as long as the tombstone (see schema.ts).
    const value = row.deleted === DELETED_DELTA ? finalValue(row, prev) : row.value;
    return { type: 'delete', revision: row.rev, kv: { ...kv, value }, prevKv: prev };
  }
  if (row.create_rev === row.rev) return { type: 'create', revision: row.rev, kv };
  return { type: 'update', revision: row.rev, kv, prevKv: prev };
}

/** A schema 2 tombstone's final value; the previous value if the record cannot be applied. */
function finalValue(row: LogRow, prev: KeyValue | undefined): string {
  try {
    return applyDeleteDelta(prev?.value ?? '', row.value);
  } catch {
    // Only a damaged log gets here; a DELETED event with the last stored state beats a store
    // that cannot open.
    return prev?.value ?? '';
  }
}

/**
 * Reads the store. Keeps at most `2 × historyLimit` events in memory while scanning (the
 * engine keeps the newest `historyLimit`); older ones only raise the history floor.
 */
export function recoverState(db: Database.Database, historyLimit: number): RecoveredState {
  const compactRevision = readMeta(db, META_COMPACT_REV);
  const state = new Map<string, KeyValue>();
  let history: StorageEvent[] = [];
  let floor = compactRevision;
  let newest = 0;
  const rows = db
    .prepare<[], LogRow>(
      'SELECT rev, key, value, create_rev, prev_rev, deleted FROM log ORDER BY rev',
    )
    .iterate();
  for (const row of rows) {
    const kv: KeyValue = {
      key: row.key,
      value: row.value,
      createRevision: row.create_rev,
      modRevision: row.rev,
    };
    if (row.rev > compactRevision) {
      history.push(toEvent(row, kv, state.get(row.key)));
      if (history.length >= 2 * historyLimit) {
        const cut = history.length - historyLimit;
        floor = history[cut - 1]!.revision;
        history = history.slice(cut);
      }
    }
    if (row.deleted) state.delete(row.key);
    else state.set(row.key, kv);
    newest = row.rev;
  }
  return {
    revision: Math.max(newest, compactRevision),
    compactRevision,
    historyFloor: floor,
    keys: state.values(),
    history,
  };
}
