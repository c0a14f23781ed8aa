/**
 * The pending timers of one thread, earliest first; equal times fire in the order they were
 * set (`seq`), as Node's timer lists do. A binary heap: a cluster keeps a few thousand timers
 * (a watch's timeout, a queue's retries, each pod's probes), and the clock looks at the
 * earliest after every change.
 *
 * Cancelled timers are dropped lazily, when they reach the top.
 *
 * @module
 */

export interface PendingTimer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

export class TimerHeap {
  readonly #items: PendingTimer[] = [];
  #seq = 0;
  #live = 0;

  /** Live (not cancelled) timers. */
  get size(): number {
    return this.#live;
  }

  push(at: number, fn: () => void): PendingTimer {
    const timer: PendingTimer = { at, seq: this.#seq++, fn, cancelled: false };
    this.#items.push(timer);
    this.#up(this.#items.length - 1);
    this.#live++;
    return timer;
  }

  cancel(timer: PendingTimer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    this.#live--;
  }

  /** The earliest live timer's time, or Infinity. */
  nextAt(): number {
    this.#dropCancelled();
    return this.#items[0]?.at ?? Number.POSITIVE_INFINITY;
  }

  /** Removes and returns the earliest live timer if it is due at `now`. */
  popDue(now: number): PendingTimer | undefined {
    this.#dropCancelled();
    const top = this.#items[0];
    if (top === undefined || top.at > now) return undefined;
    this.#pop();
    top.cancelled = true;
    this.#live--;
    return top;
  }

  #dropCancelled(): void {
    while (this.#items[0]?.cancelled) this.#pop();
  }

  #pop(): void {
    const last = this.#items.pop();
    if (last === undefined || this.#items.length === 0) return;
    this.#items[0] = last;
    this.#down(0);
  }

  #before(a: PendingTimer, b: PendingTimer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #up(i: number): void {
    const items = this.#items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#before(items[i]!, items[parent]!)) return;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  #down(i: number): void {
    const items = this.#items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < items.length && this.#before(items[l]!, items[best]!)) best = l;
      if (r < items.length && this.#before(items[r]!, items[best]!)) best = r;
      if (best === i) return;
      [items[i], items[best]] = [items[best]!, items[i]!];
      i = best;
    }
  }
}

/** Runs a timer's callback; a throw surfaces as an uncaught error, as from Node's own timers. */
export function runTimer(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    queueMicrotask(() => {
      throw err;
    });
  }
}
