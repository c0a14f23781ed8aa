/**
 * Controller expectations (upstream `controller_utils.go: ControllerExpectations`,
 * `UIDTrackingControllerExpectations`; docs/design/controller-machinery.md §2).
 *
 * A controller that has just issued N creates (or deletes) must not act again on a cache that has
 * not yet seen them, or it would create N more. It records "expect N adds" under its key, counts
 * observations down as the informer delivers them, and skips syncs until the counts reach zero —
 * or until the record is older than {@link EXPECTATIONS_TIMEOUT_MS} (5 min), so a lost watch event
 * can stall a controller for at most that long.
 *
 * Counts may go negative (an observation without an expectation); `≤ 0` counts as fulfilled.
 *
 * @module
 */
import type { Clock } from '../util/clock.js';

/** Upstream `ExpectationsTimeout`: 5 minutes. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

/** One controller's pending adds/deletes and when they were set (clock milliseconds). */
export interface ExpectationRecord {
  readonly add: number;
  readonly del: number;
  readonly timestamp: number;
}

export interface ExpectationsOptions {
  readonly clock: Clock;
  /** Age after which an unfulfilled record no longer blocks syncs. Default 5 min. */
  readonly ttlMs?: number;
}

/** Upstream `ControllerExpectations`, keyed by controller key (`<namespace>/<name>`). */
export class Expectations {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #records = new Map<string, ExpectationRecord>();

  constructor(options: ExpectationsOptions) {
    this.#clock = options.clock;
    this.#ttlMs = options.ttlMs ?? EXPECTATIONS_TIMEOUT_MS;
  }

  /** The record for `key`, if any. */
  get(key: string): ExpectationRecord | undefined {
    return this.#records.get(key);
  }

  /** Replaces the record for `key` and stamps it with the current time. */
  set(key: string, add: number, del: number): void {
    this.#records.set(key, { add, del, timestamp: this.#clock.now() });
  }

  /** Expect `n` creations; replaces (not adds to) any record, resetting deletions to 0. */
  expectCreations(key: string, n: number): void {
    this.set(key, n, 0);
  }

  /** Expect `n` deletions; replaces (not adds to) any record, resetting creations to 0. */
  expectDeletions(key: string, n: number): void {
    this.set(key, 0, n);
  }

  /** Adds to the counts of an existing record (no-op without one); keeps its timestamp. */
  raise(key: string, add: number, del: number): void {
    const r = this.#records.get(key);
    if (r !== undefined) this.#records.set(key, { ...r, add: r.add + add, del: r.del + del });
  }

  /** Subtracts from the counts of an existing record (no-op without one); keeps its timestamp. */
  lower(key: string, add: number, del: number): void {
    this.raise(key, -add, -del);
  }

  /** One expected creation was seen (or will never happen: a skipped or failed create). */
  creationObserved(key: string): void {
    this.lower(key, 1, 0);
  }

  /** One expected deletion was seen (or will never happen). */
  deletionObserved(key: string): void {
    this.lower(key, 0, 1);
  }

  /**
   * Upstream `SatisfiedExpectations`: true when there is no record, when both counts are ≤ 0,
   * or when the record is strictly older than the TTL (expired records are kept, not deleted).
   */
  satisfied(key: string): boolean {
    const r = this.#records.get(key);
    if (r === undefined) return true;
    if (r.add <= 0 && r.del <= 0) return true;
    return this.#clock.now() - r.timestamp > this.#ttlMs;
  }

  /** Forgets `key` (the controller object was deleted or not found). */
  delete(key: string): void {
    this.#records.delete(key);
  }
}

/**
 * Upstream `UIDTrackingControllerExpectations`: deletions are expected by pod key
 * (`<namespace>/<name>`), and a deletion is counted only the first time its key is observed.
 * A pod first seen with a deletionTimestamp and later actually removed is thus counted once.
 */
export class UIDTrackingExpectations {
  readonly #counts: Expectations;
  readonly #deleteKeys = new Map<string, Set<string>>();

  constructor(options: ExpectationsOptions) {
    this.#counts = new Expectations(options);
  }

  get(key: string): ExpectationRecord | undefined {
    return this.#counts.get(key);
  }

  /** Pod keys still expected to be deleted for `key`. */
  deleteKeys(key: string): ReadonlySet<string> {
    return this.#deleteKeys.get(key) ?? new Set();
  }

  expectCreations(key: string, n: number): void {
    this.#counts.expectCreations(key, n);
  }

  creationObserved(key: string): void {
    this.#counts.creationObserved(key);
  }

  /**
   * Expect the deletion of exactly these pods. Replaces the record (creations reset to 0) and
   * any previous key set, as upstream does (it only logs the clobbering).
   */
  expectDeletions(key: string, podKeys: readonly string[]): void {
    const keys = new Set(podKeys);
    this.#deleteKeys.set(key, keys);
    this.#counts.expectDeletions(key, keys.size);
  }

  /** Counts the deletion of `podKey` once, and only if it was expected. */
  deletionObserved(key: string, podKey: string): void {
    const keys = this.#deleteKeys.get(key);
    if (keys?.delete(podKey)) this.#counts.deletionObserved(key);
  }

  satisfied(key: string): boolean {
    return this.#counts.satisfied(key);
  }

  /** Forgets both the counts and the expected pod keys. */
  delete(key: string): void {
    this.#counts.delete(key);
    this.#deleteKeys.delete(key);
  }
}
