/**
 * The storage layer's public entry point: the {@link Backend} contract, both backends, and
 * {@link openBackend} to pick one from configuration.
 *
 * @module
 */
import type { Backend, CommitObserver } from './backend.js';
import { createMemoryBackend } from './memory/backend.js';

export * from './backend.js';
export { DEFAULT_HISTORY_LIMIT, StorageEngine } from './engine/engine.js';
export { CommitFailedError } from './engine/group-commit.js';
export type { Journal, JournalPipeline, RecoveredState } from './engine/journal.js';
export { createMemoryBackend, type MemoryBackendOptions } from './memory/backend.js';
export type { SqliteBackendOptions } from './sqlite/backend.js';

export interface OpenBackendOptions {
  readonly kind: 'memory' | 'sqlite';
  /** Required for `sqlite`: the database file or a directory to hold it. */
  readonly path?: string | undefined;
  /** Events kept for watch resume. @default 10_000 */
  readonly historyLimit?: number | undefined;
  /** Called after every commit with its batch size and duration (for metrics). */
  readonly onCommit?: CommitObserver | undefined;
}

/**
 * Opens the configured backend.
 *
 * @example
 * ```ts
 * const store = await openBackend({ kind: 'sqlite', path: dataDir });
 * ```
 */
export async function openBackend(options: OpenBackendOptions): Promise<Backend> {
  const { historyLimit, onCommit } = options;
  if (options.kind === 'memory') return createMemoryBackend({ historyLimit, onCommit });
  if (!options.path) throw new Error('storage: the sqlite backend needs a path');
  // Loaded on use, so an `--ephemeral` start does not pay for the native module (~15 ms).
  const sqlite = await import('./sqlite/backend.js');
  return sqlite.openSqliteBackend({ path: options.path, historyLimit, onCommit });
}
