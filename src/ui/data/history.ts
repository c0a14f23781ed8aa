/**
 * The cluster as it was at a past time, from `/ui/api/history` (every recorded change since
 * `up` started, the state at start as ADDED entries).
 *
 * Scrubbing asks for a new time on every slider move, so replaying 20,000 entries from the
 * start each time (tens of ms) would stutter. Instead a checkpoint (a copy of the store) is
 * kept every `interval` entries; a time then costs one copy plus at most `interval` entries.
 * Copies share the (never mutated) objects, so a checkpoint costs one map entry per object:
 * 20 checkpoints of 6,000 objects ≈ 120,000 entries, a few MB.
 *
 * Entries appended later (live changes after the history was fetched) extend it.
 *
 * @module
 */
import type { Change } from './json.js';
import { ObjectStore } from './store.js';

export interface HistoryDocument {
  readonly start: string;
  readonly seq: number;
  readonly entries: readonly Change[];
}

export class HistoryReplay {
  readonly startMs: number;
  private readonly entries: Change[] = [];
  private readonly times: number[] = [];
  /** checkpoints[i] is the store after entries[0 .. (i+1)*interval). */
  private readonly checkpoints: ObjectStore[] = [];
  private head = new ObjectStore();
  private cache: { index: number; store: ObjectStore } | undefined;
  private readonly interval: number;

  constructor(doc: HistoryDocument, interval = 1000) {
    this.interval = interval;
    this.startMs = Date.parse(doc.start);
    this.append(doc.entries);
  }

  get length(): number {
    return this.entries.length;
  }

  get lastSeq(): number {
    return this.entries[this.entries.length - 1]?.seq ?? 0;
  }

  get lastMs(): number {
    return this.times[this.times.length - 1] ?? this.startMs;
  }

  /** Every entry, oldest first (read-only view). */
  all(): readonly Change[] {
    return this.entries;
  }

  timeOf(index: number): number {
    return this.times[index] ?? this.startMs;
  }

  /** Adds changes newer than the last one (older or repeated seqs are ignored). */
  append(changes: readonly Change[]): void {
    for (const change of changes) {
      if (this.entries.length > 0 && change.seq <= this.lastSeq) continue;
      const t = Date.parse(change.time);
      // Cluster time never goes back; a clock sample out of order is pinned to the previous.
      this.times.push(Math.max(Number.isNaN(t) ? this.lastMs : t, this.lastMs));
      this.entries.push(change);
      this.head.apply(change);
      if (this.entries.length % this.interval === 0) this.checkpoints.push(this.head.clone());
    }
  }

  /** Number of entries at or before `ms` (binary search over the sorted times). */
  countAt(ms: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.times[mid] ?? 0) <= ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The store after the first `count` entries. The result must not be mutated. */
  storeAfter(count: number): ObjectStore {
    const n = Math.max(0, Math.min(count, this.entries.length));
    if (this.cache?.index === n) return this.cache.store;
    if (n === this.entries.length) {
      // The head keeps changing as entries are appended: hand out a copy.
      this.cache = { index: n, store: this.head.clone() };
      return this.cache.store;
    }
    const cp = Math.floor(n / this.interval);
    const store =
      cp === 0 ? new ObjectStore() : (this.checkpoints[cp - 1]?.clone() ?? new ObjectStore());
    for (let i = cp * this.interval; i < n; i++) {
      const change = this.entries[i];
      if (change !== undefined) store.apply(change);
    }
    this.cache = { index: n, store };
    return store;
  }

  /** The cluster as it was at `ms` (cluster time). */
  storeAt(ms: number): ObjectStore {
    return this.storeAfter(this.countAt(ms));
  }
}
