/**
 * The revisioned storage engine shared by every backend: current state in memory, write
 * sequencing with compare-and-swap against the latest (pending) state, group commit through a
 * {@link Journal}, a bounded history window, snapshots at past revisions, and watch fan-out.
 *
 * Three revisions move forward independently:
 * - `sequenced`: handed to the last accepted write (what compare-and-swap sees, via the
 *   pending overlay);
 * - `durable`: the last journalled and applied write (what `get`, `list` and watchers see);
 * - `compacted`: history at or below it is gone (trimmed to `historyLimit` or `compact()`).
 *
 * When the journal fails a batch, `sequenced` goes back to `durable`: the failed writes and
 * every write sequenced after them are rejected (none was acknowledged or visible), so the
 * next write reuses the first rejected revision and durable revisions stay gapless. A disk
 * condition (full, read-only, I/O error) raises the {@link WriteAlarm} and the store goes on
 * serving reads; anything else stops writes until a restart.
 *
 * @module
 */
import {
  type Backend,
  ClosedError,
  type CommitObserver,
  CompactedError,
  type Encoder,
  FutureRevisionError,
  type HealthListener,
  KeyExistsError,
  KeyNotFoundError,
  type KeyValue,
  type ListOptions,
  type ListResult,
  RevisionMismatchError,
  type StorageError,
  type StorageEvent,
  type StorageHealth,
  type StorageStats,
  type Watcher,
  type WatchListener,
} from '../backend.js';
import { unwritableCause } from './disk-errors.js';
import { CommitFailedError, type FailureVerdict, GroupCommitter } from './group-commit.js';
import { History } from './history.js';
import type { Journal, RecoveredState } from './journal.js';
import { type ListSource, listAt, listCurrent } from './list.js';
import { SortedKeys } from './sorted-keys.js';
import { WatcherSet } from './watchers.js';
import { WriteAlarm } from './write-alarm.js';

/** Events kept for watch resume when no limit is given. */
export const DEFAULT_HISTORY_LIMIT = 10_000;

export interface EngineOptions {
  /** Backend name for logs and benchmarks. */
  readonly name: string;
  readonly journal: Journal;
  /** Events kept for watch resume and past lists. @default 10_000 */
  readonly historyLimit?: number | undefined;
  /** Called after every durable batch with its size and append latency. */
  readonly onCommit?: CommitObserver | undefined;
  /** State found by the journal on startup. @default an empty store */
  readonly recovered?: RecoveredState | undefined;
  /**
   * Background journal compaction runs once memory's history floor moved this many revisions
   * past the last one. @default a quarter of `historyLimit`, at least 1,000 (so a SQLite
   * store holds at most ~1.25 × historyLimit superseded rows between runs)
   */
  readonly journalCompactEvery?: number | undefined;
  /** How often an unwritable store probes its disk. @default 1,000 ms */
  readonly probeIntervalMs?: number | undefined;
}

const noop = (): void => {};

function checkRevisionArg(revision: number): void {
  if (!Number.isSafeInteger(revision) || revision < 0) {
    throw new RangeError(`storage: revision must be a non-negative integer, got ${revision}`);
  }
}

/** A {@link Backend} over a {@link Journal}. */
export class StorageEngine implements Backend {
  readonly name: string;
  readonly #journal: Journal;
  readonly #historyLimit: number;
  readonly #journalCompactEvery: number;
  readonly #state = new Map<string, KeyValue>();
  readonly #order = new SortedKeys();
  readonly #source: ListSource = { state: this.#state, order: this.#order };
  readonly #history = new History();
  readonly #watchers = new WatcherSet();
  /** The newest sequenced, not yet durable event per key. */
  readonly #overlay = new Map<string, StorageEvent>();
  readonly #committer: GroupCommitter;
  readonly #alarm: WriteAlarm;
  /** The journal is being reset after a failure; the pipeline is held. */
  #resetting = false;
  #sequenced = 0;
  #durable = 0;
  #compacted = 0;
  #journalCompacted = 0;
  #journalTail: Promise<void> = Promise.resolve();
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(options: EngineOptions) {
    this.name = options.name;
    this.#journal = options.journal;
    this.#historyLimit = Math.max(1, options.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    this.#journalCompactEvery =
      options.journalCompactEvery ?? Math.max(1000, Math.floor(this.#historyLimit / 4));
    this.#committer = new GroupCommitter(this.#journal, {
      durable: (events) => this.#apply(events),
      failed: (cause, broken) => this.#failed(cause, broken),
      onCommit: options.onCommit,
    });
    this.#alarm = new WriteAlarm({
      probe: () => this.#probe(),
      probeIntervalMs: options.probeIntervalMs,
    });
    if (options.recovered) this.#restore(options.recovered);
  }

  currentRevision(): number {
    return this.#durable;
  }

  compactedRevision(): number {
    return this.#compacted;
  }

  get(key: string): KeyValue | undefined {
    return this.#state.get(key);
  }

  getLatest(key: string): KeyValue | undefined {
    const pending = this.#overlay.get(key);
    if (pending) return pending.type === 'delete' ? undefined : pending.kv;
    return this.#state.get(key);
  }

  list(prefix: string, options: ListOptions = {}): ListResult {
    const revision = options.revision ?? 0;
    if (revision === 0 || revision === this.#durable) {
      return listCurrent(this.#source, prefix, options, this.#durable);
    }
    this.#checkWindow(revision);
    return listAt(this.#source, prefix, options, revision, this.#history.after(revision));
  }

  count(prefix: string): number {
    return prefix === '' ? this.#state.size : this.#order.countPrefix(prefix);
  }

  async create(key: string, encode: Encoder): Promise<KeyValue> {
    this.#checkWritable('create');
    if (this.getLatest(key)) throw new KeyExistsError(key);
    const revision = this.#sequenced + 1;
    const kv: KeyValue = {
      key,
      value: encode(revision),
      createRevision: revision,
      modRevision: revision,
    };
    return this.#sequence({ type: 'create', revision, kv });
  }

  async update(key: string, encode: Encoder, expectedRevision: number): Promise<KeyValue> {
    const prevKv = this.#latestMatching(key, expectedRevision, 'update');
    const revision = this.#sequenced + 1;
    const kv: KeyValue = {
      key,
      value: encode(revision),
      createRevision: prevKv.createRevision,
      modRevision: revision,
    };
    return this.#sequence({ type: 'update', revision, kv, prevKv });
  }

  async delete(key: string, expectedRevision: number, encode?: Encoder): Promise<KeyValue> {
    const prevKv = this.#latestMatching(key, expectedRevision, 'delete');
    const revision = this.#sequenced + 1;
    const kv: KeyValue = {
      key,
      value: encode ? encode(revision) : prevKv.value,
      createRevision: prevKv.createRevision,
      modRevision: revision,
    };
    return this.#sequence({ type: 'delete', revision, kv, prevKv });
  }

  watch(prefix: string, afterRevision: number, listener: WatchListener): Watcher {
    if (this.#closed) throw new ClosedError();
    this.#checkWindow(afterRevision);
    const catchUp: StorageEvent[] = [];
    for (const e of this.#history.after(afterRevision)) {
      if (e.kv.key.startsWith(prefix)) catchUp.push(e);
    }
    return this.#watchers.add(prefix, listener, catchUp);
  }

  async compact(revision: number): Promise<void> {
    checkRevisionArg(revision);
    if (this.#closed) throw new ClosedError();
    const target = Math.min(revision, this.#durable);
    if (target > this.#compacted) {
      this.#compacted = target;
      this.#history.dropThrough(target);
    }
    await this.#compactJournal(this.#compacted);
  }

  stats(): StorageStats {
    return {
      historySize: this.#history.size,
      commits: this.#committer.commits,
      committedWrites: this.#committer.committedWrites,
      keys: this.#state.size,
      ...this.#journal.diskUsage?.(),
    };
  }

  health(): StorageHealth {
    return this.#alarm.health;
  }

  onHealthChange(listener: HealthListener): () => void {
    return this.#alarm.subscribe(listener);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closed = true;
    await this.#committer.drained();
    await this.#journalTail;
    this.#alarm.end('closed');
    this.#watchers.clear();
    await this.#journal.close();
  }

  /**
   * Throws unless a write of this kind is accepted now. While the alarm is raised only
   * deletes go on to the journal (etcd takes deletes under NOSPACE); while a failed batch's
   * followers settle, nothing does.
   */
  #checkWritable(kind: 'create' | 'update' | 'delete'): void {
    if (this.#closed) throw new ClosedError();
    const failure = this.#committer.failure;
    if (failure) throw failure;
    const halted = this.#committer.halted;
    if (halted !== undefined) throw unwritableCause(halted) ?? new CommitFailedError(halted);
    const raised = this.#alarm.raised;
    if (raised && kind !== 'delete') throw raised;
  }

  /**
   * A batch failed and everything sent after it settled: forget the unacknowledged overlay
   * and decide whether the store goes on (a disk condition) or stops.
   */
  #failed(cause: unknown, broken: boolean): FailureVerdict {
    this.#overlay.clear();
    this.#sequenced = this.#durable;
    const unwritable = broken ? undefined : unwritableCause(cause);
    if (!unwritable) {
      const error: StorageError = new CommitFailedError(cause);
      this.#alarm.end('stopped', error);
      return { error, recoverable: false };
    }
    this.#alarm.raise(unwritable);
    this.#resetJournal();
    return { error: unwritable, recoverable: true };
  }

  /** Lets the journal take appends again, then resumes the held pipeline. */
  #resetJournal(): void {
    this.#resetting = true;
    const reset = this.#journal.reset ? this.#journal.reset() : Promise.resolve();
    reset.then(
      () => {
        this.#resetting = false;
        this.#committer.resume();
        // Without a probe of its own, the next commit is the probe.
        if (!this.#journal.probe) void this.#alarm.probeNow();
      },
      (err: unknown) => {
        this.#resetting = false;
        const error = new CommitFailedError(err);
        this.#committer.stop(error);
        this.#alarm.end('stopped', error);
      },
    );
  }

  /** Whether the alarm may clear: the pipeline runs again and the disk takes a commit. */
  async #probe(): Promise<boolean> {
    if (this.#closed || this.#resetting || this.#committer.halted !== undefined) return false;
    return this.#journal.probe ? this.#journal.probe() : true;
  }

  /** The latest version of `key`, if its modRevision is `expected`; throws otherwise. */
  #latestMatching(key: string, expected: number, kind: 'update' | 'delete'): KeyValue {
    this.#checkWritable(kind);
    const latest = this.getLatest(key);
    if (!latest) throw new KeyNotFoundError(key);
    if (latest.modRevision !== expected) {
      throw new RevisionMismatchError(key, expected, latest.modRevision);
    }
    return latest;
  }

  /** Throws unless `revision` lies inside the history window [compacted, durable]. */
  #checkWindow(revision: number): void {
    checkRevisionArg(revision);
    if (revision > this.#durable) throw new FutureRevisionError(revision, this.#durable);
    if (revision < this.#compacted) throw new CompactedError(revision, this.#compacted);
  }

  /** Claims the next revision for `event` (encoders already ran without throwing). */
  #sequence(event: StorageEvent): Promise<KeyValue> {
    if (event.revision !== this.#sequenced + 1) {
      throw new Error('storage: an encoder wrote to the backend it is encoding for');
    }
    this.#sequenced = event.revision;
    this.#overlay.set(event.kv.key, event);
    return this.#committer.enqueue(event);
  }

  /** Makes a durable batch visible: state, history, watchers (then the committer acks). */
  #apply(events: readonly StorageEvent[]): void {
    for (const e of events) {
      const key = e.kv.key;
      if (e.type === 'delete') {
        this.#state.delete(key);
        this.#order.delete(key);
      } else {
        if (e.type === 'create') this.#order.add(key);
        this.#state.set(key, e.kv);
      }
      if (this.#overlay.get(key) === e) this.#overlay.delete(key);
    }
    this.#durable = events.at(-1)!.revision;
    this.#history.push(events);
    const dropped = this.#history.trimTo(this.#historyLimit);
    if (dropped > this.#compacted) this.#compacted = dropped;
    this.#watchers.deliver(events);
    if (this.#compacted - this.#journalCompacted >= this.#journalCompactEvery) {
      // Background work: a failed run leaves rows behind but loses nothing above the floor;
      // the next run retries from the journal's own persisted progress.
      this.#compactJournal(this.#compacted).catch(noop);
    }
  }

  /** Queues journal compaction behind any running one. */
  #compactJournal(revision: number): Promise<void> {
    this.#journalCompacted = Math.max(this.#journalCompacted, revision);
    const run = this.#journalTail.then(() => this.#journal.compact(revision));
    this.#journalTail = run.then(noop, noop);
    return run;
  }

  #restore(recovered: RecoveredState): void {
    for (const kv of recovered.keys) this.#state.set(kv.key, kv);
    // Sorted first, every add appends to the last block: no splices in the middle.
    for (const key of [...this.#state.keys()].sort()) this.#order.add(key);
    this.#history.push(recovered.history);
    this.#sequenced = this.#durable = recovered.revision;
    // The journal may hold more history than memory will: the first apply after the floor
    // moved `journalCompactEvery` past the journal's own mark compacts it.
    this.#journalCompacted = recovered.compactRevision;
    const floor = Math.max(recovered.compactRevision, recovered.historyFloor ?? 0);
    this.#compacted = Math.max(floor, this.#history.trimTo(this.#historyLimit));
  }
}
