/**
 * The SQLite journal, worker variant: batches are posted to the commit worker, which inserts
 * and fsyncs them while the main thread keeps sequencing and applying writes.
 *
 * Up to {@link PIPELINE}.depth batches of at most {@link PIPELINE}.maxBatch writes are in
 * flight. With one batch at a time the two threads would only alternate: on the 2-core
 * development machine, with the disk taken out of the picture (tmpfs), one 1,024-write batch
 * at a time reached ~69,000 writes/s (median of 6), 4 × 256 ~91,000 and 8 × 128 ~94,000.
 * Smaller batches mean more fsyncs, so 4 × 256 is the middle ground.
 *
 * @module
 */
import type { StorageEvent } from '../backend.js';
import type { DiskUsage, Journal, JournalPipeline } from '../engine/journal.js';
import { type CommitThread, commitThread } from './commit-thread.js';
import { toRows } from './log-store.js';
import { DEFAULT_RESERVE_BYTES } from './reserve.js';
import { diskUsage } from './space.js';

export const PIPELINE: JournalPipeline = Object.freeze({ depth: 4, maxBatch: 256 });

export class WorkerJournal implements Journal {
  readonly pipeline = PIPELINE;
  readonly #thread: CommitThread;
  readonly #store: number;
  readonly #file: string;

  private constructor(thread: CommitThread, store: number, file: string) {
    this.#thread = thread;
    this.#store = store;
    this.#file = file;
  }

  /** Opens `file` on the commit worker (its space reserve, `reserve.ts`, already written). */
  static async open(file: string, reserveBytes = DEFAULT_RESERVE_BYTES): Promise<WorkerJournal> {
    const { thread, store } = commitThread();
    await thread.request(store, { op: 'open', file, reserveBytes });
    return new WorkerJournal(thread, store, file);
  }

  async append(events: readonly StorageEvent[]): Promise<void> {
    await this.#thread.request(this.#store, { op: 'append', cells: toRows(events) });
  }

  async reset(): Promise<void> {
    await this.#thread.request(this.#store, { op: 'reset' });
  }

  async probe(): Promise<boolean> {
    return (await this.#thread.request(this.#store, { op: 'probe' })) === true;
  }

  async compact(revision: number): Promise<void> {
    await this.#thread.request(this.#store, { op: 'compact', revision });
  }

  diskUsage(): DiskUsage {
    return diskUsage(this.#file);
  }

  async close(): Promise<void> {
    if (!this.#thread.dead) await this.#thread.request(this.#store, { op: 'close' });
  }
}
