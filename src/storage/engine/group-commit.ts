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
 * A failed append rejects its batch and everything sequenced after it (batches in flight
 * behind it and writes still queued): their revisions may build on the failed writes, and none
 * of them was acknowledged. The committer first waits until every batch in flight has settled
 * (the journal refuses them, see {@link Journal.append}), then asks the engine what the failure
 * means: a disk condition holds the pipeline until the engine has reset the journal and calls
 * {@link GroupCommitter.resume}; anything else stops it for good.
 *
 * @module
 */
import { type CommitObserver, type KeyValue, StorageError, type StorageEvent } from '../backend.js';
import type { Journal } from './journal.js';

/** A journal append failed in a way the store cannot recover from; writes are refused. */
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

/** What the engine makes of a failed append. */
export interface FailureVerdict {
  /** Rejects every unacknowledged write. */
  readonly error: StorageError;
  /** Hold the pipeline until {@link GroupCommitter.resume} (true) or stop (false). */
  readonly recoverable: boolean;
}

export interface GroupCommitHooks {
  /** Applies a durable batch (state, history, watchers) before its writes are acknowledged. */
  readonly durable: (events: readonly StorageEvent[]) => void;
  /**
   * An append failed and every batch sent after it has settled: the engine forgets its
   * unacknowledged overlay. `broken` says the journal reported a later batch durable after
   * the failed one, which its contract forbids (the store must stop).
   */
  readonly failed: (cause: unknown, broken: boolean) => FailureVerdict;
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
  /** The cause of a failed append whose followers are still settling. */
  #halt: { readonly cause: unknown } | undefined;
  /** A recoverable failure was handled; nothing is sent until resume(). */
  #held = false;
  #failure: StorageError | undefined;
  #idle: (() => void)[] = [];
  #commits = 0;
  #committedWrites = 0;

  constructor(journal: Journal, hooks: GroupCommitHooks) {
    this.#journal = journal;
    this.#hooks = hooks;
    this.#depth = Math.max(1, journal.pipeline?.depth ?? 1);
    this.#maxBatch = Math.max(1, journal.pipeline?.maxBatch ?? Number.POSITIVE_INFINITY);
  }

  /** Set once the pipeline stopped for good; every later write rejects with it. */
  get failure(): StorageError | undefined {
    return this.#failure;
  }

  /** The cause of a failed append while the batches behind it settle (undefined otherwise). */
  get halted(): unknown {
    return this.#halt?.cause;
  }

  /** Sends queued writes again after a recoverable failure (the journal was reset). */
  resume(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#schedule();
    this.#notifyIdle();
  }

  /** Stops for good: rejects what is queued, and every later write. */
  stop(error: StorageError): void {
    this.#failure ??= error;
    this.#held = false;
    const queued = this.#queue;
    this.#queue = [];
    for (const p of queued) p.reject(this.#failure);
    this.#notifyIdle();
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
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #isIdle(): boolean {
    return this.#inFlight.length === 0 && (this.#queue.length === 0 || this.#failure !== undefined);
  }

  #notifyIdle(): void {
    if (!this.#isIdle()) return;
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  }

  #blocked(): boolean {
    return this.#halt !== undefined || this.#held || this.#failure !== undefined;
  }

  #schedule(): void {
    if (
      this.#scheduled ||
      this.#queue.length === 0 ||
      this.#inFlight.length >= this.#depth ||
      this.#blocked()
    ) {
      return;
    }
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    while (this.#queue.length > 0 && this.#inFlight.length < this.#depth && !this.#blocked()) {
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
    while (!this.#halt && head && head.outcome !== 'pending') {
      if (head.outcome === 'failed') {
        this.#halt = { cause: head.error };
        break;
      }
      this.#inFlight.shift();
      this.#apply(head);
      head = this.#inFlight[0];
    }
    if (this.#halt) this.#drainFailure();
    else if (this.#queue.length > 0) this.#schedule();
    this.#notifyIdle();
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

  /**
   * Once every batch from the failed one on has settled, rejects their writes and everything
   * queued behind them, and lets the engine decide between holding and stopping.
   */
  #drainFailure(): void {
    const halt = this.#halt!;
    if (this.#inFlight.some((f) => f.outcome === 'pending')) return;
    const broken = this.#inFlight.some((f) => f.outcome === 'ok');
    const flights = this.#inFlight;
    const queued = this.#queue;
    this.#inFlight = [];
    this.#queue = [];
    this.#halt = undefined;
    const verdict = this.#hooks.failed(halt.cause, broken);
    if (verdict.recoverable && !broken) this.#held = true;
    else this.#failure ??= verdict.error;
    for (const f of flights) for (const p of f.batch) p.reject(verdict.error);
    for (const p of queued) p.reject(verdict.error);
  }
}
