/**
 * The memory backend: the storage engine over a journal that keeps nothing. Writes are still
 * acknowledged asynchronously and in groups, exactly like the SQLite backend, so code and
 * tests written against one behave the same on the other.
 *
 * @module
 */
import type { Backend, CommitObserver } from '../backend.js';
import { StorageEngine } from '../engine/engine.js';
import { createNullJournal } from '../engine/journal.js';

export interface MemoryBackendOptions {
  /** Events kept for watch resume and past lists. @default 10_000 */
  readonly historyLimit?: number | undefined;
  /** Called after every batch with its size and latency. */
  readonly onCommit?: CommitObserver | undefined;
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
    journal: createNullJournal(),
    historyLimit: options.historyLimit,
    onCommit: options.onCommit,
  });
}
