/**
 * A journal wrapper that fails appends on demand, like a disk that fills up and is freed again:
 * while a fault is set every append rejects with it (before reaching the wrapped journal) and
 * the probe answers false. It keeps the journal contract: after a failed append it refuses
 * every append until `reset`.
 *
 * @module
 */
import type { Journal } from '../engine/journal.js';

/** An Error with a code, as better-sqlite3 or a Node file call throws it. */
export function diskError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** `SQLITE_FULL`, as better-sqlite3 reports a full disk. */
export const sqliteFull = (): Error => diskError('SQLITE_FULL', 'database or disk is full');

export interface FaultyJournal extends Journal {
  /** The error appends fail with from now on (undefined: the disk works). */
  fault: Error | undefined;
  /** Appends that reached the wrapped journal, and appends refused. */
  readonly counts: { appended: number; refused: number; resets: number; probes: number };
}

export function faultyJournal(inner: Journal): FaultyJournal {
  let failed: Error | undefined;
  const counts = { appended: 0, refused: 0, resets: 0, probes: 0 };
  const journal: FaultyJournal = {
    fault: undefined,
    counts,
    pipeline: inner.pipeline,
    append: (events) => {
      const err = failed ?? journal.fault;
      if (err) {
        failed = err;
        counts.refused++;
        return Promise.reject(err);
      }
      counts.appended++;
      return inner.append(events);
    },
    reset: async () => {
      counts.resets++;
      failed = undefined;
      await inner.reset?.();
    },
    probe: async () => {
      counts.probes++;
      if (journal.fault) return false;
      return inner.probe ? inner.probe() : true;
    },
    compact: (revision) => inner.compact(revision),
    close: () => inner.close(),
  };
  return journal;
}
