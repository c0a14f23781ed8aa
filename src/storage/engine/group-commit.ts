/**
 * Group commit: writes sequenced during one tick of the event loop share one journal append.
 *
 * The first write of a tick schedules a flush with `setImmediate`, which runs after the
 * current task and its microtasks, so every write issued by callers reacting to the previous
 * acknowledgement (those run as microtasks) joins the same batch: 1,024 writers in flight
 * share one fsync instead of paying 1,024. At most one batch is with the journal at a time,
 * unless the journal declares a pipeline (see {@link Journal.pipeline}; the SQLite commit
 * worker takes 4 batches of up to 256); either way batches are applied and acknowledged
 * strictly in revision order.
 *
 * A failed append is fatal: the revisions of its batch were promised to later writes (a
 * compare-and-swap may already have built on them), so the failed batch, everything queued
 * behind it and every later write are rejected rather than leaving a gap.
 *
 * @module
 */
import { type CommitObserver, type KeyValue, StorageError, type StorageEvent } from '../backend.js';
import type { Journal } from './journal.js';

/** A journal append failed; the backend rejects all further writes. */
export class CommitFailedError extends StorageError {
  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super('CommitFailed', `storage: commit failed, backend stopped: ${detail}`);
    this.cause = cause;
  }
}

interface Pending {
  readonly event: StorageEvent;
  readonly resolve: (kv: KeyValue) => void;
  readonly reject: (err: unknown) => void;
}

/** A batch handed to the journal, waiting for its turn to be applied. */
interface Flight {
  readonly batch: readonly Pending[];
  readonly events: readonly StorageEvent[];
  readonly started: number;
  outcome: 'pending' | 'ok' | 'failed';
  error?: unknown;
}

export interface GroupCommitHooks {
  /** Applies a durable batch (state, history, watchers) before its writes are acknowledged. */
  readonly durable: (events: readonly StorageEvent[]) => void;
  /** The journal failed; the engine forgets its unacknowledged overlay. */
  readonly failed: () => void;
  readonly onCommit?: CommitObserver | undefined;
}

export class GroupCommitter {
  readonly #journal: Journal;
  readonly #hooks: GroupCommitHooks;
  readonly #depth: number;
  readonly #maxBatch: number;
  #queue: Pending[] = [];
  /** Batches with the journal, oldest first; applied strictly in this order. */
  #inFlight: Flight[] = [];
  #scheduled = false;
  #failure: CommitFailedError | undefined;
  #idle: (() => void)[] = [];
  #commits = 0;
  #committedWrites = 0;

  constructor(journal: Journal, hooks: GroupCommitHooks) {
    this.#journal = journal;
    this.#hooks = hooks;
    this.#depth = Math.max(1, journal.pipeline?.depth ?? 1);
    this.#maxBatch = Math.max(1, journal.pipeline?.maxBatch ?? Number.POSITIVE_INFINITY);
  }

  /** Set once an append failed; every later write rejects with it. */
  get failure(): CommitFailedError | undefined {
    return this.#failure;
  }

  get commits(): number {
    return this.#commits;
  }

  get committedWrites(): number {
    return this.#committedWrites;
  }

  /** Queues a sequenced write; resolves with its `kv` once durable and applied. */
  enqueue(event: StorageEvent): Promise<KeyValue> {
    return new Promise<KeyValue>((resolve, reject) => {
      this.#queue.push({ event, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once nothing is queued or in flight. */
  drained(): Promise<void> {
    if (this.#inFlight.length === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0 || this.#inFlight.length >= this.#depth) {
      return;
    }
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    while (this.#queue.length > 0 && this.#inFlight.length < this.#depth && !this.#failure) {
      let batch: Pending[];
      if (this.#queue.length <= this.#maxBatch) {
        batch = this.#queue;
        this.#queue = [];
      } else {
        batch = this.#queue.splice(0, this.#maxBatch);
      }
      this.#send(batch);
    }
  }

  #send(batch: readonly Pending[]): void {
    const events = batch.map((p) => p.event);
    const flight: Flight = { batch, events, started: performance.now(), outcome: 'pending' };
    this.#inFlight.push(flight);
    let appended: Promise<void>;
    try {
      appended = this.#journal.append(events);
    } catch (err) {
      appended = Promise.reject(err);
    }
    appended.then(
      () => {
        flight.outcome = 'ok';
        this.#settle();
      },
      (err: unknown) => {
        flight.outcome = 'failed';
        flight.error = err;
        this.#settle();
      },
    );
  }

  /** Applies settled batches from the oldest on; stops at the first one still pending. */
  #settle(): void {
    let head = this.#inFlight[0];
    while (head && head.outcome !== 'pending') {
      if (head.outcome === 'failed') {
        this.#fail(head.error);
        break;
      }
      this.#inFlight.shift();
      this.#apply(head);
      head = this.#inFlight[0];
    }
    if (this.#queue.length > 0) this.#schedule();
    else if (this.#inFlight.length === 0) {
      const idle = this.#idle;
      this.#idle = [];
      for (const resolve of idle) resolve();
    }
  }

  #apply(flight: Flight): void {
    this.#commits++;
    this.#committedWrites += flight.batch.length;
    this.#hooks.durable(flight.events);
    for (const p of flight.batch) p.resolve(p.event.kv);
    try {
      this.#hooks.onCommit?.(flight.batch.length, (performance.now() - flight.started) / 1000);
    } catch {
      // A metrics observer must not stall or fail the pipeline.
    }
  }

  /** Rejects every batch from the failed one on, and everything queued behind them. */
  #fail(cause: unknown): void {
    this.#failure = new CommitFailedError(cause);
    this.#hooks.failed();
    const flights = this.#inFlight;
    const queued = this.#queue;
    this.#inFlight = [];
    this.#queue = [];
    for (const f of flights) for (const p of f.batch) p.reject(this.#failure);
    for (const p of queued) p.reject(this.#failure);
  }
}
