/**
 * The bounded window of past events that serves watch resume and `list({revision})`.
 *
 * Events arrive in ascending revision order. Lookups binary-search on revision instead of
 * assuming one event per revision, so a window reloaded from disk after compaction needs no
 * special case. Dropping from the front only advances an offset; the array is shifted once
 * the dead prefix is both over 1,024 entries and over half the array, which keeps drops
 * amortised O(1) without a hand-rolled circular buffer.
 *
 * @module
 */
import type { StorageEvent } from '../backend.js';

export class History {
  #events: StorageEvent[] = [];
  #start = 0;

  get size(): number {
    return this.#events.length - this.#start;
  }

  /** Appends events newer than every event held. */
  push(events: readonly StorageEvent[]): void {
    for (const e of events) this.#events.push(e);
  }

  /**
   * Drops the oldest events until at most `limit` remain.
   * @returns the revision of the newest dropped event, or 0 when nothing was dropped.
   */
  trimTo(limit: number): number {
    const excess = this.size - limit;
    if (excess <= 0) return 0;
    this.#start += excess;
    const dropped = this.#events[this.#start - 1]!.revision;
    this.#shrink();
    return dropped;
  }

  /** Drops every event at or below `revision`. */
  dropThrough(revision: number): void {
    this.#start = this.#indexAfter(revision);
    this.#shrink();
  }

  /** Events with revision > `afterRevision`, ascending (a live view: do not hold on to it). */
  *after(afterRevision: number): Generator<StorageEvent, void, undefined> {
    const events = this.#events;
    for (let i = this.#indexAfter(afterRevision); i < events.length; i++) yield events[i]!;
  }

  /** Index of the first held event with revision > `revision`. */
  #indexAfter(revision: number): number {
    let lo = this.#start;
    let hi = this.#events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#events[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #shrink(): void {
    if (this.#start > 1024 && this.#start * 2 > this.#events.length) {
      this.#events = this.#events.slice(this.#start);
      this.#start = 0;
    }
  }
}
