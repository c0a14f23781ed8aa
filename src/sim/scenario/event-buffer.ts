/**
 * Puts the events of several watch streams back into the order the cluster committed them.
 * Each kind has its own stream, so a Node event and the Pod event it caused can arrive in
 * either order; the API server's resourceVersions are one counter for every kind (as etcd's
 * revision), so sorting a batch by resourceVersion restores the commit order. The runner
 * flushes after every movement of time and every step, so invariants see the events of one
 * batch in commit order and the timeline and JSON log read the same in every run.
 *
 * Times are made non-decreasing in that order (an event that arrived late keeps the time
 * of the one before it).
 *
 * @module
 */
import type { WatchedEvent } from './watchers.js';

export class EventBuffer {
  readonly #deliver: (e: WatchedEvent) => void;
  #pending: WatchedEvent[] = [];
  #lastTime = Number.NEGATIVE_INFINITY;

  constructor(deliver: (e: WatchedEvent) => void) {
    this.#deliver = deliver;
  }

  push(e: WatchedEvent): void {
    this.#pending.push(e);
  }

  /** Delivers the pending events in resourceVersion order. */
  flush(): void {
    const batch = this.#pending;
    this.#pending = [];
    // Array.prototype.sort is stable: events without a numeric resourceVersion keep their place.
    batch.sort((a, b) => compareVersions(rv(a), rv(b)));
    for (const e of batch) {
      this.#lastTime = Math.max(this.#lastTime, e.time);
      this.#deliver(e.time === this.#lastTime ? e : { ...e, time: this.#lastTime });
    }
  }
}

function rv(e: WatchedEvent): bigint | undefined {
  const text = e.object.metadata?.resourceVersion;
  return text !== undefined && /^\d+$/.test(text) ? BigInt(text) : undefined;
}

function compareVersions(a: bigint | undefined, b: bigint | undefined): number {
  if (a === undefined || b === undefined) return 0;
  return a < b ? -1 : a > b ? 1 : 0;
}
