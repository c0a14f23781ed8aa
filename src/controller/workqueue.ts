/**
 * The keyed work queue between event handlers and reconcilers, after client-go's
 * `util/workqueue` (queue.go + delaying_queue.go + rate_limiting_queue.go in one class).
 *
 * Guarantees:
 * - **Dedup.** A key added while it waits is queued once (`dirty` set).
 * - **One worker per key.** A key handed out by {@link WorkQueue.get} is `processing` until
 *   {@link WorkQueue.done}; adding it meanwhile marks it dirty and it is queued again only at
 *   `done`, so two workers never reconcile the same key at once and the later add is not lost.
 * - **FIFO** among ready keys.
 * - **Delays on the injected clock.** {@link WorkQueue.addAfter} parks a key until its time;
 *   a second `addAfter` for a parked key keeps the earlier time.
 *
 * Keys are compared with SameValueZero (Set/Map semantics): use strings such as
 * `namespace/name`, not objects. `undefined` is not a key: {@link WorkQueue.get} uses it to
 * say the queue has shut down.
 *
 * @module
 */
import { type Clock, holdClock, type TurnGate } from '../util/clock.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/** Hooks for queue metrics (client-go's workqueue_* series); all optional, no prom-client. */
export interface WorkQueueMetrics {
  /** Number of keys ready to be handed out, after every change. */
  depth?(queue: string, depth: number): void;
  /** A key became dirty (an add that was not deduplicated or ignored). */
  add?(queue: string): void;
  /** An {@link WorkQueue.addRateLimited} call. */
  retry?(queue: string): void;
  /** Ms a key waited between becoming ready and being handed to a worker. */
  latency?(queue: string, ms: number): void;
}

/** Options of {@link WorkQueue}. */
export interface WorkQueueOptions<K> {
  readonly clock: Clock;
  /** Name used in metrics hooks. @default 'workqueue' */
  readonly name?: string;
  /** Decides {@link WorkQueue.addRateLimited} delays. @default defaultControllerRateLimiter(clock) */
  readonly rateLimiter?: RateLimiter<K>;
  readonly metrics?: WorkQueueMetrics;
}

interface Parked {
  readonly at: number;
  readonly cancel: () => void;
}

/** A deduplicating, delaying, rate-limiting queue of keys. */
export class WorkQueue<K = string> {
  readonly #clock: Clock;
  readonly #name: string;
  readonly #limiter: RateLimiter<K>;
  readonly #metrics: WorkQueueMetrics;
  /** Ready keys in FIFO order (a Map iterates in insertion order), each with its ready time. */
  readonly #ready = new Map<K, number>();
  /** Keys that need processing: the ready ones plus those re-added while processing. */
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #parked = new Map<K, Parked>();
  readonly #waiters: ((key: K | undefined) => void)[] = [];
  readonly #drainers: (() => void)[] = [];
  #shuttingDown = false;
  /**
   * Open while a key is ready or processing: a jumping clock waits for the queue to drain.
   * Serial (`clock.turns`), only while processing: a ready key waits for its turn instead.
   */
  #release: (() => void) | undefined;
  readonly #turns: TurnGate | undefined;
  readonly #unregister: (() => void) | undefined;

  constructor(options: WorkQueueOptions<K>) {
    this.#clock = options.clock;
    this.#name = options.name ?? 'workqueue';
    this.#limiter = options.rateLimiter ?? defaultControllerRateLimiter<K>(options.clock);
    this.#metrics = options.metrics ?? {};
    this.#turns = options.clock.turns;
    this.#unregister = this.#turns?.register(this.#name, {
      ready: () => this.#ready.size > 0 && this.#waiters.length > 0,
      run: () => this.#grant(),
    });
  }

  /** Marks `key` as needing work. Ignored after shutdown; a no-op if it is already dirty. */
  add(key: K): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#turns === undefined) this.#release ??= holdClock(this.#clock);
    this.#metrics.add?.(this.#name);
    // A key being processed is queued again by done(), never handed to a second worker.
    if (this.#processing.has(key)) return;
    this.#pushReady(key);
  }

  /**
   * Adds `key` after `ms` of clock time (immediately when `ms <= 0`). While it is parked, a
   * later `addAfter` with an earlier time moves it forward; one with a later time is ignored.
   * Parking does not look at the ready queue: a key both ready and parked runs twice.
   */
  addAfter(key: K, ms: number): void {
    if (this.#shuttingDown) return;
    if (!(ms > 0)) {
      this.add(key);
      return;
    }
    const at = this.#clock.now() + ms;
    const parked = this.#parked.get(key);
    if (parked !== undefined) {
      if (parked.at <= at) return;
      parked.cancel();
    }
    const cancel = this.#clock.setTimer(ms, () => {
      this.#parked.delete(key);
      this.add(key);
    });
    this.#parked.set(key, { at, cancel });
  }

  /** Adds `key` after the delay its rate limiter gives (which counts one more requeue). */
  addRateLimited(key: K): void {
    if (this.#shuttingDown) return;
    this.#metrics.retry?.(this.#name);
    this.addAfter(key, this.#limiter.when(key));
  }

  /** Resets `key`'s backoff: call when it was processed successfully. */
  forget(key: K): void {
    this.#limiter.forget(key);
  }

  /** How many rate-limited requeues `key` has had since it was last forgotten. */
  numRequeues(key: K): number {
    return this.#limiter.numRequeues(key);
  }

  /**
   * Resolves with the next ready key, which is then processing until {@link done}; waits while
   * none is ready. Resolves `undefined` once the queue is shut down (keys still waiting then
   * are dropped: the controller that owns them is stopping and will relist on start).
   */
  get(): Promise<K | undefined> {
    if (this.#shuttingDown) return Promise.resolve(undefined);
    // Serial: every key is handed out by a turn (#grant), in key order.
    const key = this.#turns === undefined ? this.#takeReady() : undefined;
    if (key !== undefined) return Promise.resolve(key);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Ends processing of `key`; if it was added meanwhile it is queued again now. */
  done(key: K): void {
    this.#processing.delete(key);
    if (this.#shuttingDown) {
      if (this.#processing.size === 0) this.#releaseDrainers();
      this.#releaseIfIdle();
      return;
    }
    if (this.#dirty.has(key)) this.#pushReady(key);
    this.#releaseIfIdle();
  }

  #releaseIfIdle(): void {
    if (this.#processing.size > 0) return;
    if (this.#dirty.size > 0 && this.#turns === undefined) return;
    this.#release?.();
    this.#release = undefined;
  }

  /** One turn (serial): the smallest ready key goes to a waiting worker. */
  #grant(): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) return;
    let key: K | undefined;
    for (const k of this.#ready.keys()) {
      if (key === undefined || String(k) < String(key)) key = k;
    }
    if (key === undefined) return;
    this.#ready.delete(key);
    this.#dirty.delete(key);
    this.#processing.add(key);
    this.#release ??= holdClock(this.#clock);
    this.#metrics.depth?.(this.#name, this.#ready.size);
    waiter(key);
  }

  /** Number of keys ready to be handed out (not counting processing or parked ones). */
  len(): number {
    return this.#ready.size;
  }

  /** True once {@link shutdown} or {@link shutdownWithDrain} was called. */
  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /**
   * Stops the queue: adds are ignored, parked keys are cancelled, waiting and future
   * {@link get} calls resolve `undefined`. Keys already processing may still call `done`.
   */
  shutdown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    for (const parked of this.#parked.values()) parked.cancel();
    this.#parked.clear();
    this.#ready.clear();
    this.#dirty.clear();
    this.#metrics.depth?.(this.#name, 0);
    for (const resolve of this.#waiters.splice(0)) resolve(undefined);
    if (this.#processing.size === 0) this.#releaseDrainers();
    this.#releaseIfIdle();
    this.#unregister?.();
  }

  /** {@link shutdown}, then resolves once every processing key has been {@link done}. */
  shutdownWithDrain(): Promise<void> {
    const drained = new Promise<void>((resolve) => this.#drainers.push(resolve));
    this.shutdown();
    if (this.#processing.size === 0) this.#releaseDrainers();
    return drained;
  }

  #pushReady(key: K): void {
    const waiter = this.#turns === undefined ? this.#waiters.shift() : undefined;
    if (waiter !== undefined) {
      // Hand the key straight to an idle worker; it never sits in the ready queue.
      this.#dirty.delete(key);
      this.#processing.add(key);
      this.#metrics.latency?.(this.#name, 0);
      waiter(key);
      return;
    }
    this.#ready.set(key, this.#clock.now());
    this.#metrics.depth?.(this.#name, this.#ready.size);
  }

  #takeReady(): K | undefined {
    for (const [key, since] of this.#ready) {
      this.#ready.delete(key);
      this.#dirty.delete(key);
      this.#processing.add(key);
      this.#metrics.depth?.(this.#name, this.#ready.size);
      this.#metrics.latency?.(this.#name, this.#clock.now() - since);
      return key;
    }
    return undefined;
  }

  #releaseDrainers(): void {
    for (const resolve of this.#drainers.splice(0)) resolve();
  }
}
