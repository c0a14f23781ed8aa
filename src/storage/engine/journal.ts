/**
 * The persistence seam of the storage engine. The engine sequences writes, gathers the ones
 * sequenced in the same tick into a batch, and hands each batch to a {@link Journal}. Only
 * after `append` resolves does the engine make the batch visible and acknowledge it.
 *
 * @module
 */
import type { KeyValue, StorageEvent } from '../backend.js';

/** How many batches a journal accepts at once, and how big each may be. */
export interface JournalPipeline {
  /** Batches in flight at once. @default 1 */
  readonly depth: number;
  /** Writes per batch at most. @default unlimited */
  readonly maxBatch: number;
}

/** What a durable journal occupies on disk. */
export interface DiskUsage {
  readonly fileBytes: number;
  readonly walBytes: number;
}

/** Persists batches of events, in revision order. */
export interface Journal {
  /**
   * Lets the engine hand over the next batch before the previous one settled (a journal that
   * commits on another thread overlaps its fsync with the engine's work). Absent: one batch
   * at a time, of any size.
   */
  readonly pipeline?: JournalPipeline | undefined;
  /**
   * Makes `events` durable as one atomic unit (all or none survive a crash). Batches arrive in
   * revision order; a journal with a pipeline must make them durable in that order and must
   * never make a batch durable after an earlier one failed: it refuses every append until
   * {@link reset}. A rejection rejects that batch and every batch and write sequenced after
   * it; the engine then rolls back to the last durable revision and, when the rejection is a
   * disk condition (see `disk-errors.ts`), resets the journal and goes on, reusing the
   * rejected revisions; otherwise it stops.
   */
  append(events: readonly StorageEvent[]): Promise<void>;
  /**
   * Accepts appends again after a failed one. Called once every append sent before it has
   * settled; the next batch starts right after the last durable revision. Absent: the
   * journal keeps no failure state.
   */
  reset?(): Promise<void>;
  /**
   * Whether a commit can land now (the disk has room and is writable). The engine asks it
   * while the store is unwritable and takes writes again once it answers true. Absent: the
   * engine takes writes again at once, and the next failing commit turns it back.
   */
  probe?(): Promise<boolean>;
  /**
   * Forgets history at or below `revision` (already dropped from memory). Optional work: a
   * journal may lag, but it must never lose a revision above `revision`.
   */
  compact(revision: number): Promise<void>;
  /** The bytes the journal holds on disk (file and write-ahead log). Absent: none. */
  diskUsage?(): DiskUsage;
  /** Releases resources. Called once, after the last `append` settled. */
  close(): Promise<void>;
}

/** What a journal found on disk; the engine starts from it. */
export interface RecoveredState {
  /** The newest durable revision (never below `compactRevision`). */
  readonly revision: number;
  /** The journal holds no history at or below this revision. */
  readonly compactRevision: number;
  /**
   * The oldest revision of `history` minus one, when the journal skipped older events it
   * still holds (to bound memory while loading). @default compactRevision
   */
  readonly historyFloor?: number | undefined;
  /** The current version of every live key, in any order. */
  readonly keys: Iterable<KeyValue>;
  /** Events above `historyFloor`, ascending; the engine keeps the newest `historyLimit`. */
  readonly history: readonly StorageEvent[];
}

/** A journal that keeps nothing: the memory backend. Acknowledgement stays asynchronous. */
export function createNullJournal(): Journal {
  return {
    append: () => Promise.resolve(),
    compact: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
