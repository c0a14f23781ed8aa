/**
 * One injected clock for the whole process. Components take a {@link Clock} in their options;
 * tests pass a {@link FakeClock} and step it instead of sleeping on wall time.
 *
 * @module
 */

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Runs `fn` after `ms`; returns a cancel function. */
  setTimer(ms: number, fn: () => void): () => void;
  /**
   * Marks work in flight until the returned function is called. A clock that jumps (the
   * virtual clock at speed `max`, `src/sim/clock/`) does not move while any hold is open, so work
   * started at one time finishes at that time. Clocks that do not jump leave it out.
   */
  hold?(): () => void;
  /**
   * Counts watch events between the process's API server (which adds those it writes to an
   * in-process watcher) and that watcher (which subtracts those it handled), so the virtual
   * clock knows when none is in flight. A stream that ends retracts its own count.
   */
  watchEvents?(delta: number): void;
  /**
   * Present when the cluster runs serially for a deterministic run (`--seed` with the
   * virtual clock, `src/sim/clock/turns.ts`): work queues, the scheduler and informers hand their
   * work to it instead of running it at once, and clients send requests through it.
   */
  readonly turns?: TurnGate;
}

/** What components see of serial execution (`src/sim/clock/turns.ts`). */
export interface TurnGate {
  /** Adds a source of work; it runs one item per turn it is given. */
  register(name: string, source: { ready(): boolean; run(): void }): () => void;
  /** Keeps an informer event until the next turn applies events (in resourceVersion order). */
  deliver(resourceVersion: string, apply: () => void): void;
  /** Sends requests one at a time, in the order they were issued. */
  serialize<T>(send: () => Promise<T>): Promise<T>;
}

/** `Clock.sleep` for a clock that has `setTimer`: resolves after `ms`, rejects on abort. */
export function sleepOnTimer(
  setTimer: Clock['setTimer'],
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Takes a hold on `clock` if it has them; the release is idempotent. */
export function holdClock(clock: Pick<Clock, 'hold'> | undefined): () => void {
  return clock?.hold?.() ?? noRelease;
}

const noRelease = (): void => undefined;

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  setTimer: (ms, fn) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return () => clearTimeout(t);
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that moves only when told to. Timers fire in time order during {@link step}. */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: PendingTimer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOnTimer((t, fn) => this.setTimer(t, fn), ms, signal);
  }

  /** Number of timers waiting to fire. */
  pending(): number {
    return this.#timers.length;
  }

  /** Advances time by `ms`, firing due timers in order (and letting promise callbacks run). */
  async step(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers[0];
      if (next === undefined || next.at > target) break;
      this.#timers.shift();
      this.#now = next.at;
      next.fn();
      await settle();
    }
    this.#now = target;
    await settle();
  }
}

/** Lets queued microtasks and immediate callbacks run. */
async function settle(): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
}
