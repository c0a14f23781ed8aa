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
}

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
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const cancel = this.setTimer(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = () => {
        cancel();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
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
