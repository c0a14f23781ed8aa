/**
 * The run's change log for the dashboard's timeline: every stored object's changes since the
 * recorder started, stamped with the cluster clock's time, so the page can replay the cluster
 * as it was at any moment of the run and show each change on one time axis.
 *
 * It is fed by one storage watch over every key, and keeps the stored JSON text as it is (no
 * parse per change: a 1,000-replica rollout is ~10,000 writes), less `metadata.managedFields`
 * (half of a pod's text, and hidden by kubectl too). Left out: Secrets (their
 * values do not belong in a browser's memory) and Leases (a node's heartbeat every 10 s is
 * churn, not history: 100 nodes would be 36,000 entries an hour).
 *
 * Bounded: past {@link RecorderLimits.maxBytes} of object text, the oldest changes are folded
 * into the base (the state at the new start of history), so memory stays at the base (one
 * version of each live object) plus the window. The default 64 MB holds a 1,000-replica
 * rollout's ~10,000 changes of ~3 KB about twice.
 *
 * @module
 */
import type { Backend, StorageEvent, Watcher } from '../../storage/backend.js';
import type { Clock } from '../../util/clock.js';
import { type ObjectKeyParts, objectKey, parseObjectKey } from '../store/keys.js';
import { withoutManagedFields } from './strip-managed-fields.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One recorded change. */
export interface Change {
  readonly seq: number;
  /** Cluster time of the change, ms since the epoch. */
  readonly time: number;
  readonly type: ChangeType;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  /** The object's stored JSON text without managed fields (for a deletion, its last state). */
  readonly json: string;
}

export interface RecorderLimits {
  /** Object text kept in the window; older changes fold into the base. @default 64 MiB */
  readonly maxBytes?: number;
}

export type ChangeListener = (change: Change) => void;

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Storage prefixes never recorded (see the module comment). */
const SKIPPED_PREFIXES = ['/core/secrets/', '/coordination.k8s.io/leases/'];

/** The key's parts when the dashboard records it (not a Secret, not a Lease). */
export function keyParts(key: string): ObjectKeyParts | undefined {
  if (SKIPPED_PREFIXES.some((p) => key.startsWith(p))) return undefined;
  return parseObjectKey(key);
}

export class ChangeRecorder {
  readonly #backend: Backend;
  readonly #clock: Clock;
  readonly #maxBytes: number;
  /** State at {@link start}: the live objects when recording began, or the folded window. */
  readonly #base = new Map<string, Change>();
  /** The current state, by storage key. */
  readonly #current = new Map<string, Change>();
  #window: Change[] = [];
  /** Index of the window's first live entry (folded entries are spliced away in batches). */
  #head = 0;
  #windowBytes = 0;
  #seq = 0;
  #start = 0;
  #watcher: Watcher | undefined;
  readonly #listeners = new Set<ChangeListener>();

  constructor(backend: Backend, clock: Clock, limits: RecorderLimits = {}) {
    this.#backend = backend;
    this.#clock = clock;
    this.#maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /** Records the current state as the base, then every change from here on. */
  start(): void {
    if (this.#watcher !== undefined) return;
    this.#start = this.#clock.now();
    const listed = this.#backend.list('/', { filter: (kv) => keyParts(kv.key) !== undefined });
    for (const kv of listed.items) {
      const change = this.#change('ADDED', kv.key, kv.value, this.#start);
      if (change === undefined) continue;
      this.#base.set(kv.key, change);
      this.#current.set(kv.key, change);
    }
    this.#watcher = this.#backend.watch('/', listed.revision, (events) => this.#onEvents(events));
  }

  stop(): void {
    this.#watcher?.stop();
    this.#watcher = undefined;
    this.#listeners.clear();
  }

  /** Calls `listener` with each change after this call, until the returned function is called. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The latest sequence number (0 before the first change). */
  get seq(): number {
    return this.#seq;
  }

  /** Cluster time history starts at, ms. */
  get startTime(): number {
    return this.#start;
  }

  /** The live objects, one ADDED-shaped change each. */
  current(): Iterable<Change> {
    return this.#current.values();
  }

  /** The state at {@link startTime}, as ADDED changes, then every change since, in order. */
  history(): { readonly base: readonly Change[]; readonly changes: readonly Change[] } {
    return { base: [...this.#base.values()], changes: this.#window.slice(this.#head) };
  }

  /** Object text held in the window (tests, the benchmark). */
  get windowBytes(): number {
    return this.#windowBytes;
  }

  #onEvents(events: readonly StorageEvent[]): void {
    const time = this.#clock.now();
    for (const e of events) {
      const type = e.type === 'create' ? 'ADDED' : e.type === 'update' ? 'MODIFIED' : 'DELETED';
      const change = this.#change(type, e.kv.key, e.kv.value, time);
      if (change === undefined) continue;
      if (type === 'DELETED') this.#current.delete(e.kv.key);
      else this.#current.set(e.kv.key, change);
      this.#window.push(change);
      this.#windowBytes += change.json.length;
      for (const listener of this.#listeners) listener(change);
    }
    this.#fold();
  }

  /** Folds the oldest changes into the base until the window fits its budget. */
  #fold(): void {
    while (this.#windowBytes > this.#maxBytes && this.#head < this.#window.length) {
      const oldest = this.#window[this.#head++]!;
      this.#windowBytes -= oldest.json.length;
      const key = storageKeyOf(oldest);
      if (oldest.type === 'DELETED') this.#base.delete(key);
      else this.#base.set(key, { ...oldest, type: 'ADDED' });
      this.#start = oldest.time;
    }
    // Drop the folded prefix in one splice once it is a large share of the array.
    if (this.#head > 1024 && this.#head * 2 > this.#window.length) {
      this.#window = this.#window.slice(this.#head);
      this.#head = 0;
    }
  }

  #change(type: ChangeType, key: string, json: string, time: number): Change | undefined {
    const parts = keyParts(key);
    if (parts === undefined) return undefined;
    return { seq: ++this.#seq, time, type, ...parts, json: withoutManagedFields(json) };
  }
}

function storageKeyOf(c: Change): string {
  const def = { group: c.group, plural: c.resource, namespaced: c.namespace !== '' };
  return objectKey(def, c.namespace, c.name);
}
