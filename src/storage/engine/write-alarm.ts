/**
 * The store's health, after etcd's NOSPACE alarm: raised when the disk refuses a commit,
 * cleared when a probe of the disk succeeds.
 *
 * While raised, reads and watches are served, deletes are still tried (a delete record is a
 * small tombstone, and the SQLite journal gives back a reserve of space for them, as etcd
 * takes deletes under NOSPACE), and every other write is refused at once with the error that
 * raised it, without touching the disk. The probe runs every `probeIntervalMs` (1 s by
 * default: one small commit and a `statfs` per second while the disk is full is noise, and a
 * freed disk takes writes again within a second).
 *
 * @module
 */
import {
  type HealthListener,
  type StorageError,
  type StorageHealth,
  type StorageHealthState,
  UnwritableError,
} from '../backend.js';

/** How often a raised alarm probes the disk. */
export const DEFAULT_PROBE_INTERVAL_MS = 1000;

export interface WriteAlarmOptions {
  /** Answers whether a commit can land now; a rejection counts as no. */
  readonly probe: () => Promise<boolean>;
  readonly probeIntervalMs?: number | undefined;
  readonly now?: () => number;
}

export class WriteAlarm {
  readonly #probe: () => Promise<boolean>;
  readonly #interval: number;
  readonly #now: () => number;
  readonly #listeners = new Set<HealthListener>();
  #health: StorageHealth;
  #timer: NodeJS.Timeout | undefined;
  #probing = false;

  constructor(options: WriteAlarmOptions) {
    this.#probe = options.probe;
    this.#interval = Math.max(1, options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS);
    this.#now = options.now ?? Date.now;
    this.#health = { state: 'ok', since: this.#now(), unwritableCount: 0 };
  }

  get health(): StorageHealth {
    return this.#health;
  }

  /** The error that refuses writes other than deletes while raised. */
  get raised(): UnwritableError | undefined {
    const { state, error } = this.#health;
    // Only `raise` makes the state unwritable, and it always sets an UnwritableError.
    return state === 'unwritable' && error instanceof UnwritableError ? error : undefined;
  }

  subscribe(listener: HealthListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The disk refused a commit: refuse writes until a probe succeeds. */
  raise(error: UnwritableError): void {
    if (this.#health.state === 'unwritable') {
      // Still unwritable (a delete failed too): keep `since`, report the newest reason.
      this.#health = { ...this.#health, error };
    } else if (this.#health.state === 'ok') {
      this.#set('unwritable', error, this.#health.unwritableCount + 1);
    }
    this.#schedule();
  }

  /** The store stopped for good, or closed: no more probes. */
  end(state: Extract<StorageHealthState, 'stopped' | 'closed'>, error?: StorageError): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#health.state === 'closed') return;
    if (this.#health.state === 'stopped' && state === 'closed') return;
    this.#set(state, error, this.#health.unwritableCount);
  }

  /**
   * Probes once now (tests, and the engine right after the journal was reset when the
   * journal has no probe of its own).
   */
  async probeNow(): Promise<void> {
    if (this.#health.state !== 'unwritable' || this.#probing) return;
    this.#probing = true;
    let writable = false;
    try {
      writable = await this.#probe();
    } catch {
      writable = false;
    } finally {
      this.#probing = false;
    }
    if (this.#health.state !== 'unwritable') return;
    if (writable) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#set('ok', undefined, this.#health.unwritableCount);
    } else {
      this.#schedule();
    }
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.probeNow();
    }, this.#interval);
    // A store waiting for its disk must not keep the process alive on its own.
    this.#timer.unref();
  }

  #set(state: StorageHealthState, error: StorageError | undefined, count: number): void {
    this.#health = {
      state,
      ...(error ? { error } : {}),
      since: this.#now(),
      unwritableCount: count,
    };
    const health = this.#health;
    for (const listener of [...this.#listeners]) {
      try {
        listener(health);
      } catch (err) {
        // A listener that throws must not wedge the store; keep the bug loud.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
