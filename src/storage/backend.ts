/**
 * The storage contract every backend implements: a revisioned key-value store.
 *
 * Modelled on kine's `Backend` and etcd's mvcc: every write gets the next value of one
 * global, strictly increasing revision counter (Kubernetes exposes it as
 * `metadata.resourceVersion`). The current state lives in memory, so `get` and `list`
 * never scan history; a bounded window of past events serves `watch` resume, and a start
 * older than that window fails with {@link CompactedError} (the API turns it into 410 Expired).
 *
 * Durability: a write's promise resolves only once the write is durable (for SQLite: WAL
 * committed with fsync). Concurrent writes share one commit ("group commit"). A write is
 * visible to `get`, `list` and watchers only once it is durable, so no reader ever observes
 * a revision that a crash could take back. Writes are sequenced synchronously when called:
 * the order of calls is the order of revisions, and compare-and-swap checks see every write
 * sequenced before them, durable or not.
 *
 * @module
 */

/** One stored version of one key. Objects handed out are never mutated afterwards. */
export interface KeyValue {
  readonly key: string;
  /** The value as stored: for the API server, the object's JSON text. */
  readonly value: string;
  /** Revision at which this key was created (its current incarnation). */
  readonly createRevision: number;
  /** Revision of the write that produced this version. */
  readonly modRevision: number;
}

/**
 * Produces the value to store, given the revision the write was assigned. Lets the caller
 * embed the revision in the value (the API server writes `metadata.resourceVersion`)
 * without a second pass. Called synchronously, exactly once, when the write is sequenced.
 */
export type Encoder = (revision: number) => string;

export type WatchEventType = 'create' | 'update' | 'delete';

/** One change, as delivered to watchers and kept in the history window. */
export interface StorageEvent {
  readonly type: WatchEventType;
  /** The revision of the change (for a delete, the revision of the deletion). */
  readonly revision: number;
  /**
   * The new version. For a delete: the last state of the key, with `modRevision` equal to the
   * deletion revision and `value` as produced by the delete's encoder (or the previous value).
   */
  readonly kv: KeyValue;
  /** The version before the change; absent for a create. */
  readonly prevKv?: KeyValue;
}

export interface ListOptions {
  /**
   * Serve the state as of this revision (a consistent snapshot for paginated lists).
   * Omitted or 0: the current state. Older than the history window: {@link CompactedError}.
   * Newer than the current revision: {@link FutureRevisionError}.
   */
  readonly revision?: number;
  /** Only keys strictly greater than this one (the continue position). */
  readonly startAfter?: string;
  /** At most this many items (0 or omitted: no limit). */
  readonly limit?: number;
  /** Optional filter applied before `limit` counts an item. */
  readonly filter?: (kv: KeyValue) => boolean;
}

export interface ListResult {
  /** Items in ascending key order. */
  readonly items: readonly KeyValue[];
  /** The revision the list reflects (the current revision unless one was requested). */
  readonly revision: number;
  /** True when `limit` cut the list short. */
  readonly more: boolean;
  /** How many matching items remain after the last one returned (known when `more`). */
  readonly remaining: number;
}

/** Receives events in revision order. Must not throw; must not block. */
export type WatchListener = (events: readonly StorageEvent[]) => void;

export interface Watcher {
  /** Stops delivery. Idempotent. */
  stop(): void;
}

export interface StorageStats {
  /** Events currently kept for watch resume. */
  readonly historySize: number;
  /** Committed batches since start, and the writes they carried. */
  readonly commits: number;
  readonly committedWrites: number;
  /** Keys currently stored. */
  readonly keys: number;
  /** Durable stores: the size of the store's file and of its write-ahead log, in bytes. */
  readonly fileBytes?: number | undefined;
  readonly walBytes?: number | undefined;
}

/** Observes commits (for metrics). */
export type CommitObserver = (batchSize: number, seconds: number) => void;

/**
 * Whether the store takes writes, after etcd's NOSPACE alarm:
 * - `ok`: reads and writes are served;
 * - `unwritable`: the disk is full, read-only or failing; reads and watches are served,
 *   deletes are tried, every other write is refused with {@link UnwritableError} until a
 *   probe of the disk succeeds (then back to `ok` without a restart);
 * - `stopped`: the journal failed in a way that is not a disk condition; writes are refused
 *   with `CommitFailedError` until a restart;
 * - `closed`: `close()` was called.
 */
export type StorageHealthState = 'ok' | 'unwritable' | 'stopped' | 'closed';

export interface StorageHealth {
  readonly state: StorageHealthState;
  /** Why writes are refused (absent when `ok`). */
  readonly error?: StorageError | undefined;
  /** When the current state began (milliseconds since the epoch). */
  readonly since: number;
  /** How many times the store turned unwritable since it was opened. */
  readonly unwritableCount: number;
}

/** Called on every change of {@link StorageHealth.state}. Must not throw. */
export type HealthListener = (health: StorageHealth) => void;

export interface Backend {
  /** A short name for logs and benchmarks: `memory` or `sqlite`. */
  readonly name: string;

  /** The newest durable revision (0 for an empty store). */
  currentRevision(): number;
  /** Events at or below this revision are gone from history: watch/list there fail. */
  compactedRevision(): number;

  /** The durable current version of a key. */
  get(key: string): KeyValue | undefined;
  /**
   * The newest version of a key including writes sequenced but not yet durable: use it as
   * the base of a read-modify-write, whose own write will be acknowledged after them.
   */
  getLatest(key: string): KeyValue | undefined;

  /** Keys starting with `prefix`, in ascending key order. */
  list(prefix: string, options?: ListOptions): ListResult;
  /** How many keys start with `prefix` right now (durable state). */
  count(prefix: string): number;

  /** Creates a key. Rejects with {@link KeyExistsError} if it exists. */
  create(key: string, encode: Encoder): Promise<KeyValue>;
  /**
   * Replaces a key's value if its latest modRevision equals `expectedRevision`.
   * Rejects with {@link KeyNotFoundError} if absent, {@link RevisionMismatchError} if changed.
   */
  update(key: string, encode: Encoder, expectedRevision: number): Promise<KeyValue>;
  /**
   * Deletes a key if its latest modRevision equals `expectedRevision`. `encode`, when given,
   * produces the final value carried by the delete event (the API server stamps the deletion
   * revision into it); otherwise the event carries the previous value.
   */
  delete(key: string, expectedRevision: number, encode?: Encoder): Promise<KeyValue>;

  /**
   * Streams every event for keys under `prefix` with revision > `afterRevision`, first from
   * history, then live, in revision order, without gaps or duplicates. `afterRevision` older
   * than the history window throws {@link CompactedError}; newer than the current revision
   * throws {@link FutureRevisionError}. Historical events are delivered synchronously
   * before this returns.
   */
  watch(prefix: string, afterRevision: number, listener: WatchListener): Watcher;

  /** Drops history at or below `revision` (clamped to the current revision). */
  compact(revision: number): Promise<void>;

  stats(): StorageStats;

  /** Whether writes are accepted now, and why not. */
  health(): StorageHealth;
  /** Calls `listener` on every health change; returns the function that unsubscribes. */
  onHealthChange(listener: HealthListener): () => void;

  /** Waits for in-flight writes, then releases files. Further writes reject. */
  close(): Promise<void>;
}

/** Base of every storage failure; `code` is stable for callers to switch on. */
export class StorageError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = 'StorageError';
  }
}

export class KeyExistsError extends StorageError {
  readonly key: string;
  constructor(key: string) {
    super('KeyExists', `storage: key exists: ${key}`);
    this.key = key;
  }
}

export class KeyNotFoundError extends StorageError {
  readonly key: string;
  constructor(key: string) {
    super('KeyNotFound', `storage: key not found: ${key}`);
    this.key = key;
  }
}

export class RevisionMismatchError extends StorageError {
  readonly key: string;
  readonly expected: number;
  readonly actual: number;
  constructor(key: string, expected: number, actual: number) {
    super('RevisionMismatch', `storage: ${key}: expected revision ${expected}, found ${actual}`);
    this.key = key;
    this.expected = expected;
    this.actual = actual;
  }
}

export class CompactedError extends StorageError {
  readonly requested: number;
  readonly compacted: number;
  constructor(requested: number, compacted: number) {
    super('Compacted', `storage: required revision ${requested} has been compacted (${compacted})`);
    this.requested = requested;
    this.compacted = compacted;
  }
}

export class FutureRevisionError extends StorageError {
  readonly requested: number;
  readonly current: number;
  constructor(requested: number, current: number) {
    super('FutureRevision', `storage: revision ${requested} is newer than current ${current}`);
    this.requested = requested;
    this.current = current;
  }
}

export class ClosedError extends StorageError {
  constructor() {
    super('Closed', 'storage: backend is closed');
  }
}

/** What made the disk refuse a commit: no space, a read-only disk, or an I/O error. */
export type UnwritableCode = 'NoSpace' | 'ReadOnly' | 'DiskIO';

/**
 * The disk refused a commit. The writes of that commit and every write queued behind it were
 * rejected (none was acknowledged, none is visible); the store keeps serving reads and
 * accepts writes again once the disk does (see {@link StorageHealth}).
 */
export class UnwritableError extends StorageError {
  declare readonly code: UnwritableCode;
  constructor(code: UnwritableCode, message: string, cause?: unknown) {
    super(code, message);
    if (cause !== undefined) this.cause = cause;
  }
}
