/**
 * The cluster clock's state shared between `fleetyard up`'s threads (the API server's main
 * thread and the controller thread) in one SharedArrayBuffer, so that both read one time
 * without a message, and the main thread sees what the other has in flight.
 *
 * Time is `base + (wall() - wallBase) * rate`: `rate` is the speed while time runs paced
 * (speed N), 0 while paused or at speed `max` (where time moves only by jumps, `setBase`).
 * Only the main thread writes the three numbers, under a sequence lock (odd while writing), so
 * a reader never combines two different writes.
 *
 * The counters each have one writer: `holds`/`gen` per thread (work in flight; `gen` counts
 * every hold taken, so a look before and after a round trip tells whether anything started in
 * between), `watchSent` (main: events written to the controller thread's watches) and
 * `watchReceived` (controller thread: events it decoded and handed on), `tickPending` (main
 * sets, the controller thread clears once it fired its due timers), `signal` (bumped by the
 * controller thread when it may have gone idle; the main thread waits on it).
 *
 * @module
 */

const I = {
  seq: 0,
  holdsMain: 1,
  holdsPeer: 2,
  genMain: 3,
  genPeer: 4,
  watchSent: 5,
  watchReceived: 6,
  tickPending: 7,
  signal: 8,
  peerTimers: 9,
} as const;
const INT_SLOTS = 16;
const F = { base: 0, wallBase: 1, rate: 2, peerNext: 3 } as const;
const FLOAT_SLOTS = 4;

/** Wall time in ms with sub-ms precision, the same in every thread of the process. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

declare global {
  /** `Atomics.waitAsync` (Node 16+; in TypeScript's ES2024 lib, which this project's ES2023 lacks). */
  interface Atomics {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ): { async: true; value: Promise<string> } | { async: false; value: string };
  }
}

export type CounterName = Exclude<keyof typeof I, 'seq'>;

export class SharedClock {
  readonly buffer: SharedArrayBuffer;
  readonly #ints: Int32Array;
  readonly #floats: Float64Array;
  readonly #wall: () => number;

  constructor(buffer?: SharedArrayBuffer, wall: () => number = wallNow) {
    this.buffer = buffer ?? new SharedArrayBuffer(INT_SLOTS * 4 + FLOAT_SLOTS * 8);
    this.#ints = new Int32Array(this.buffer, 0, INT_SLOTS);
    this.#floats = new Float64Array(this.buffer, INT_SLOTS * 4, FLOAT_SLOTS);
    this.#wall = wall;
    if (buffer === undefined) this.#floats[F.peerNext] = Number.POSITIVE_INFINITY;
  }

  now(): number {
    for (;;) {
      const before = Atomics.load(this.#ints, I.seq);
      if (before % 2 === 0) {
        const base = this.#floats[F.base]!;
        const wallBase = this.#floats[F.wallBase]!;
        const rate = this.#floats[F.rate]!;
        if (Atomics.load(this.#ints, I.seq) === before) {
          // Whole milliseconds, as Date.now() gives (timestamps and event names assume them).
          return rate === 0 ? base : Math.floor(base + (this.#wall() - wallBase) * rate);
        }
      }
    }
  }

  /** Sets the time to `base` from now on, running at `rate` (main thread only). */
  setBase(base: number, rate: number): void {
    Atomics.add(this.#ints, I.seq, 1);
    this.#floats[F.base] = base;
    this.#floats[F.wallBase] = this.#wall();
    this.#floats[F.rate] = rate;
    Atomics.add(this.#ints, I.seq, 1);
  }

  /** Wall ms until virtual time `at` at the current rate (Infinity when time does not run). */
  wallDelayUntil(at: number): number {
    const rate = this.#floats[F.rate]!;
    if (rate === 0) return Number.POSITIVE_INFINITY;
    return Math.max(0, (at - this.now()) / rate);
  }

  get(name: CounterName): number {
    return Atomics.load(this.#ints, I[name]);
  }

  add(name: CounterName, delta: number): number {
    return Atomics.add(this.#ints, I[name], delta) + delta;
  }

  set(name: CounterName, value: number): void {
    Atomics.store(this.#ints, I[name], value);
  }

  /**
   * Marks work in flight on one side until the returned (idempotent) release is called; the
   * release calls `onIdle` when it was that side's last hold.
   */
  hold(side: 'main' | 'peer', onIdle: () => void): () => void {
    const holds = side === 'main' ? 'holdsMain' : 'holdsPeer';
    this.add(side === 'main' ? 'genMain' : 'genPeer', 1);
    this.add(holds, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.add(holds, -1) === 0) onIdle();
    };
  }

  /** Bumps `signal` and wakes a waiter (the main thread's clock). */
  signal(): void {
    Atomics.add(this.#ints, I.signal, 1);
    Atomics.notify(this.#ints, I.signal);
  }

  /** Resolves when `signal` moves past `seen`, or after `timeoutMs`. */
  waitSignal(seen: number, timeoutMs: number): Promise<unknown> {
    const waited = Atomics.waitAsync(this.#ints, I.signal, seen, timeoutMs);
    return waited.async ? waited.value : Promise.resolve(waited.value);
  }

  peerNext(): number {
    return this.#floats[F.peerNext]!;
  }

  setPeerNext(at: number): void {
    this.#floats[F.peerNext] = at;
  }
}
