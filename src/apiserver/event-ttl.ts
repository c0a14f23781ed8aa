/**
 * Events expire: kube-apiserver stores every Event with an etcd lease of `--event-ttl` (1 h by
 * default), renewed by each write of it, so an Event nobody has written for an hour is gone
 * (watchers see it DELETED). Without this, a cluster that runs for days keeps every Event it
 * ever recorded: the soak measured ~790 new Events and ~1.2 MB of database per cluster hour
 * with 100 nodes, for ever.
 *
 * Here the API server remembers when each Event was last written (cluster clock), from a
 * storage watch of the events prefix, and deletes those older than the TTL, as etcd's lease
 * expiry would: a storage delete, with no admission and no finalizers (Events have none). At
 * start, an Event's last write is taken as the newest of its timestamps (`lastTimestamp`,
 * `series.lastObservedTime`, `eventTime`, `metadata.creationTimestamp`), since etcd's leases
 * outlive a restart and those stamps are what every recorder writes. Expiry is checked every
 * `SWEEP_INTERVAL_MS` of cluster time, so an Event lives up to that much past its TTL (etcd
 * checks its leases every 500 ms; a minute's slack against a one-hour TTL keeps the sweep rare).
 *
 * @module
 */
import { isJsonObject } from '../api/object.js';
import type { Backend, StorageEvent, Watcher } from '../storage/backend.js';
import type { Clock } from '../util/clock.js';
import { listPrefix } from './store/keys.js';

/** kube-apiserver's `--event-ttl` default. */
export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;
/** How often expired Events are looked for, in cluster time. */
export const SWEEP_INTERVAL_MS = 60 * 1000;

/** core/v1 and events.k8s.io/v1 Events share this storage. */
const EVENTS = { group: '', plural: 'events', namespaced: true } as const;

export interface EventExpiryOptions {
  readonly backend: Backend;
  readonly clock: Clock;
  readonly ttlMs: number;
  readonly onError?: (message: string, error: unknown) => void;
}

export class EventExpiry {
  readonly #o: EventExpiryOptions;
  /** Storage key → cluster time (ms) of its last write. */
  readonly #lastWrite = new Map<string, number>();
  #watcher: Watcher | undefined;
  #cancelTimer: (() => void) | undefined;
  #stopped = false;

  constructor(options: EventExpiryOptions) {
    this.#o = options;
  }

  start(): void {
    const prefix = listPrefix(EVENTS, '');
    const now = this.#o.clock.now();
    const current = this.#o.backend.list(prefix);
    for (const kv of current.items) this.#lastWrite.set(kv.key, lastStamp(kv.value) ?? now);
    this.#watcher = this.#o.backend.watch(prefix, current.revision, (events) =>
      this.#observe(events),
    );
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    this.#watcher?.stop();
    this.#cancelTimer?.();
  }

  /** Events remembered (tests, diagnostics). */
  get tracked(): number {
    return this.#lastWrite.size;
  }

  #observe(events: readonly StorageEvent[]): void {
    const now = this.#o.clock.now();
    for (const ev of events) {
      if (ev.type === 'delete') this.#lastWrite.delete(ev.kv.key);
      else this.#lastWrite.set(ev.kv.key, now);
    }
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#cancelTimer = this.#o.clock.setTimer(SWEEP_INTERVAL_MS, () => {
      void this.sweep()
        .catch((e: unknown) => this.#o.onError?.('event expiry failed', e))
        .finally(() => this.#schedule());
    });
  }

  /** Deletes every Event last written at least the TTL ago; resolves when they are gone. */
  async sweep(): Promise<void> {
    const deadline = this.#o.clock.now() - this.#o.ttlMs;
    const expired = [...this.#lastWrite].filter(([, at]) => at <= deadline).map(([key]) => key);
    for (const key of expired) {
      if (this.#stopped) return;
      const kv = this.#o.backend.get(key);
      if (kv === undefined) {
        this.#lastWrite.delete(key);
        continue;
      }
      try {
        // Against the revision just read: an Event written meanwhile is kept (its lease renewed).
        await this.#o.backend.delete(key, kv.modRevision);
      } catch (e) {
        if (this.#o.backend.get(key)?.modRevision === kv.modRevision) {
          this.#o.onError?.(`event ${key}: expiry failed`, e);
        }
      }
    }
  }
}

/** The newest timestamp an Event carries, in ms; undefined when it has none that parses. */
function lastStamp(text: string): number | undefined {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(obj)) return undefined;
  const meta = isJsonObject(obj.metadata) ? obj.metadata : {};
  const series = isJsonObject(obj.series) ? obj.series : {};
  const stamps = [
    obj.lastTimestamp,
    obj.deprecatedLastTimestamp,
    series.lastObservedTime,
    obj.eventTime,
    meta.creationTimestamp,
  ]
    .map((s) => (typeof s === 'string' ? Date.parse(s) : Number.NaN))
    .filter((t) => Number.isFinite(t));
  return stamps.length === 0 ? undefined : Math.max(...stamps);
}
