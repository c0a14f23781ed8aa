/**
 * The memory backend: the storage engine over a journal that keeps nothing. Writes are still
 * acknowledged asynchronously and in groups, exactly like the SQLite backend, so code and
 * tests written against one behave the same on the other.
 *
 * @module
 */
import type { Backend, CommitObserver } from '../backend.js';
import { StorageEngine } from '../engine/engine.js';
import { createNullJournal, type Journal } from '../engine/journal.js';

export interface MemoryBackendOptions {
  /** Events kept for watch resume and past lists. @default 10_000 */
  readonly historyLimit?: number | undefined;
  /** Called after every batch with its size and latency. */
  readonly onCommit?: CommitObserver | undefined;
  /** How often an unwritable store probes its journal. @default 1,000 ms */
  readonly probeIntervalMs?: number | undefined;
  /** Test seam: wraps the journal (fault injection in the conformance suite). */
  readonly wrapJournal?: ((journal: Journal) => Journal) | undefined;
}

/**
 * Creates an empty in-memory store.
 *
 * @example
 * ```ts
 * const store = createMemoryBackend();
 * const kv = await store.create('/pods/default/a', (rv) => JSON.stringify({ rv }));
 * ```
 */
export function createMemoryBackend(options: MemoryBackendOptions = {}): Backend {
  return new StorageEngine({
    name: 'memory',
    journal: options.wrapJournal ? options.wrapJournal(createNullJournal()) : createNullJournal(),
    historyLimit: options.historyLimit,
    onCommit: options.onCommit,
    probeIntervalMs: options.probeIntervalMs,
  });
}
