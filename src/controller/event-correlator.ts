/**
 * client-go's `EventCorrelator` (`tools/record/events_cache.go`): what the event recorder does
 * with each event before writing it. Aggregation of similar events (10 distinct messages with
 * the same source, object, type and reason in 10 minutes become one "(combined from similar
 * events)" event), deduplication of identical ones (a PATCH of `count` and `lastTimestamp`),
 * and the spam filter (25 per source and object, then 1 per 5 minutes). Pure but for the clock.
 *
 * @module
 */

import type { Event, EventSource, ObjectMeta } from '../api/model/index.js';
import { formatTime } from '../api/time.js';
import type { Clock } from '../util/clock.js';

/** A core `v1` Event as this recorder writes it: the fields it always fills are required. */
export type CoreEvent = Event & {
  metadata: ObjectMeta & { name: string; namespace: string };
  reason: string;
  message: string;
  type: string;
  source: EventSource & { component: string };
  reportingComponent: string;
  reportingInstance: string;
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
};

/** The fields upstream's correlator patches on a repeat. */
export interface EventPatch {
  readonly count: number;
  readonly lastTimestamp: string;
  readonly message: string;
}

/** What to write for an observed event; `dropped` when the spam filter refused it. */
export type CorrelateResult =
  | { readonly dropped: true }
  | { readonly dropped: false; readonly event: CoreEvent; readonly patch?: EventPatch };

/** Upstream's `maxLruCacheEntries`: each cache forgets its least recently used key beyond. */
const CACHE_SIZE = 4096;
/** 10 distinct messages within 10 minutes (`defaultAggregateMaxEvents`, `…IntervalInSeconds`). */
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
/** 25 events per source and object, then 1 per 5 minutes (`defaultSpamBurst`, `…QPS`). */
const SPAM_BURST = 25;
const SPAM_REFILL_MS = 300_000;

/** A Map used as an LRU cache: a read moves the key to the end; the oldest goes first. */
class Lru<V> {
  readonly #map = new Map<string, V>();
  readonly #size: number;
  constructor(size: number) {
    this.#size = size;
  }
  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.#map.delete(key);
    this.#map.set(key, v);
    const oldest = this.#map.keys().next();
    if (this.#map.size > this.#size && !oldest.done) this.#map.delete(oldest.value);
  }
}

function objectKey(e: Event): string[] {
  const o = e.involvedObject;
  const source = e.source ?? {};
  return [source.component ?? '', source.host ?? '', o.kind ?? '', o.namespace ?? '', o.name ?? ''];
}

/** Upstream `getSpamKey`: source and object. */
function spamKey(e: Event): string {
  const o = e.involvedObject;
  return JSON.stringify([...objectKey(e), o.uid ?? '', o.apiVersion ?? '']);
}

/** Upstream `EventAggregatorByReasonFunc`: everything but the message. */
function aggregateKey(e: Event): string {
  const o = e.involvedObject;
  return JSON.stringify([
    ...objectKey(e),
    o.uid ?? '',
    o.apiVersion ?? '',
    e.type,
    e.reason,
    e.reportingComponent,
    e.reportingInstance,
  ]);
}

/** Upstream `getEventKey`: source, object, type, reason and message. */
function eventKey(e: Event): string {
  const o = e.involvedObject;
  return JSON.stringify([
    ...objectKey(e),
    o.uid ?? '',
    o.apiVersion ?? '',
    e.type,
    e.reason,
    e.message,
  ]);
}

interface Observation {
  readonly count: number;
  readonly firstTimestamp: string;
  readonly name: string;
  readonly resourceVersion: string | undefined;
}

/**
 * Upstream's `EventCorrelator`: aggregate similar events, count identical ones, filter spam.
 * Pure apart from its caches and the clock; {@link updateState} feeds back the server's copy.
 */
export class EventCorrelator {
  readonly #clock: Clock;
  readonly #aggregates = new Lru<{ messages: Set<string>; last: number }>(CACHE_SIZE);
  readonly #observed = new Lru<Observation>(CACHE_SIZE);
  readonly #buckets = new Lru<{ tokens: number; at: number }>(CACHE_SIZE);

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  correlate(input: CoreEvent): CorrelateResult {
    const { event, key } = this.#aggregate(input);
    const observed = this.#observe(event, key);
    if (!this.#allow(spamKey(observed.event))) return { dropped: true };
    return { dropped: false, ...observed };
  }

  /**
   * Records the server's copy (name, resourceVersion, count) under its identical-event key. The
   * copy has every field the recorder wrote; the fallbacks only type what it could lack.
   */
  updateState(event: Event): void {
    this.#observed.set(eventKey(event), {
      count: event.count ?? 0,
      firstTimestamp: event.firstTimestamp ?? '',
      name: event.metadata.name ?? '',
      resourceVersion: event.metadata.resourceVersion,
    });
  }

  #aggregate(event: CoreEvent): { event: CoreEvent; key: string } {
    const now = this.#clock.now();
    const key = aggregateKey(event);
    let record = this.#aggregates.get(key);
    if (record === undefined || now - record.last > AGGREGATE_INTERVAL_MS) {
      record = { messages: new Set(), last: now };
    }
    record.messages.add(event.message);
    record.last = now;
    this.#aggregates.set(key, record);
    if (record.messages.size < AGGREGATE_MAX_EVENTS) return { event, key: eventKey(event) };
    // Keep the set at its maximum (upstream pops any one key).
    const first = record.messages.values().next();
    if (!first.done) record.messages.delete(first.value);
    const at = formatTime(now);
    const combined: CoreEvent = {
      ...event,
      metadata: { name: event.metadata.name, namespace: event.metadata.namespace },
      message: `(combined from similar events): ${event.message}`,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    };
    // The aggregate key (no message) is the cache key, so later ones count up on this event.
    return { event: combined, key };
  }

  #observe(input: CoreEvent, key: string): { event: CoreEvent; patch?: EventPatch } {
    const last = this.#observed.get(key);
    const event = { ...input, metadata: { ...input.metadata } };
    let patch: EventPatch | undefined;
    if (last !== undefined && last.count > 0) {
      event.metadata.name = last.name;
      if (last.resourceVersion !== undefined) event.metadata.resourceVersion = last.resourceVersion;
      event.firstTimestamp = last.firstTimestamp;
      event.count = last.count + 1;
      patch = { count: event.count, lastTimestamp: event.lastTimestamp, message: event.message };
    }
    this.#observed.set(key, {
      count: event.count,
      firstTimestamp: event.firstTimestamp,
      name: event.metadata.name,
      resourceVersion: event.metadata.resourceVersion,
    });
    return patch === undefined ? { event } : { event, patch };
  }

  /** A token bucket per source and object (upstream's passive token bucket). */
  #allow(key: string): boolean {
    const now = this.#clock.now();
    const bucket = this.#buckets.get(key) ?? { tokens: SPAM_BURST, at: now };
    bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + (now - bucket.at) / SPAM_REFILL_MS);
    bucket.at = now;
    const ok = bucket.tokens >= 1;
    if (ok) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    return ok;
  }
}
