/**
 * The {@link EventRecorder} that writes core `v1` Events through the API, after client-go's
 * `tools/record` (`event.go` + `events_cache.go`).
 *
 * `event()` builds the Event at once (timestamps of the call, name `<object>.<hex unix nanos>`,
 * namespace of the object or `default` for cluster-scoped ones) and puts it on a bounded
 * queue (1,000, upstream's `maxQueuedEvents`; overflow is dropped with a log line). One
 * worker takes events in order and passes each through the {@link EventCorrelator}:
 *
 * - **aggregation**: the 10th distinct message with the same source, object, type and reason
 *   within 10 minutes becomes one event "(combined from similar events): <message>", and
 *   later ones count up on it;
 * - **deduplication**: an event identical to one already written (same source, object, type,
 *   reason, message) PATCHes `count`, `lastTimestamp` and `message` of the existing Event
 *   instead of creating one (a 404 falls back to a create, as upstream);
 * - **spam filter**: per source and object a token bucket of 25, refilled 1 per 5 minutes;
 *   what exceeds it is dropped.
 *
 * A write that fails without an answer from the server (connection refused, timeout) is
 * retried, 6 tries 5 s apart, the first wait jittered (client-go: 12 tries 10 s apart; one
 * process with its own in-memory server needs less, and shutdown should not wait two
 * minutes). A Status error answer is not retried, as upstream: the request itself is bad.
 *
 * @module
 */

import { asKind, type Event, type ObjectReference } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { formatTime } from '../api/time.js';
import { type ApiClient, isNotFound } from '../client/api-client.js';
import { StatusCodeError } from '../client/lister-watcher.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { RESOURCES } from './context.js';
import { type CoreEvent, EventCorrelator, type EventPatch } from './event-correlator.js';
import type { EventHostOf, EventRecorder, EventType } from './events.js';

/** The writes the recorder makes; an {@link ApiClient} fits (tests inject failures). */
export type EventSink = Pick<ApiClient, 'create' | 'patch'>;

export interface EventRecorderFactoryOptions {
  readonly client: EventSink;
  readonly clock: Clock;
  readonly log: Logger;
  /** `source.host` and `reportingInstance` of every Event. */
  readonly host?: string;
  /** Queued events beyond this are dropped. @default 1000 */
  readonly queueSize?: number;
  /** Tries of a write that got no answer. @default 6 */
  readonly maxTries?: number;
  /** Wait between tries (the first one jittered below it). @default 5000 */
  readonly retryDelayMs?: number;
  /** Jitter and the sub-millisecond part of Event names. @default Math.random */
  readonly random?: () => number;
}

/** How long `close` keeps writing queued events. */
export const CLOSE_GRACE_MS = 1000;

/** Hands out recorders that share one queue, one correlator and one writer. */
export interface EventRecorderFactory {
  (component: string, hostOf?: EventHostOf): EventRecorder;
  /** Resolves once every queued event is written (or given up). */
  flush(): Promise<void>;
  /**
   * Stops accepting events, cancels retry waits and writes what is queued for at most
   * {@link CLOSE_GRACE_MS}; then drops the rest and aborts the write in flight, so a shutdown
   * under load is not held up by a thousand queued events.
   */
  close(): Promise<void>;
}

export function createEventRecorderFactory(
  options: EventRecorderFactoryOptions,
): EventRecorderFactory {
  const writer = new EventWriter(options);
  const factory = (component: string, hostOf?: EventHostOf): EventRecorder => ({
    event: (object, type, reason, message) =>
      writer.enqueue(component, object, type, reason, message, hostOf?.(object)),
  });
  return Object.assign(factory, {
    flush: () => writer.flush(),
    close: () => writer.close(),
  });
}

/** Upstream `v1.Event` namespace rule: the object's, or `default` for cluster-scoped ones. */
function referenceOf(object: KubeObject): ObjectReference {
  const m = object.metadata ?? {};
  const ref: ObjectReference = {};
  const fields: [keyof ObjectReference, string | undefined][] = [
    ['kind', object.kind],
    ['namespace', m.namespace],
    ['name', m.name],
    ['uid', m.uid],
    ['apiVersion', object.apiVersion],
    ['resourceVersion', m.resourceVersion],
  ];
  for (const [k, v] of fields) if (v) ref[k] = v;
  return ref;
}

class EventWriter {
  readonly #options: EventRecorderFactoryOptions;
  readonly #correlator: EventCorrelator;
  readonly #queue: CoreEvent[] = [];
  readonly #idle: (() => void)[] = [];
  readonly #closing = new AbortController();
  /** Aborts the write in flight once the close grace has passed. */
  readonly #abandon = new AbortController();
  #running = false;
  #lastNanos = 0n;

  constructor(options: EventRecorderFactoryOptions) {
    this.#options = options;
    this.#correlator = new EventCorrelator(options.clock);
  }

  /** Events dropped since the queue was last found full. */
  #dropped = 0;

  enqueue(
    component: string,
    object: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    host?: string,
  ) {
    const { log } = this.#options;
    if (this.#closing.signal.aborted) return;
    const name = object.metadata?.name;
    if (!name) {
      log.error({ reason }, 'cannot record an event about an object without a name');
      return;
    }
    if (this.#queue.length >= (this.#options.queueSize ?? 1000)) {
      // One line per burst, not per event: a burst drops thousands, and a log line each
      // would cost more than the events themselves.
      if (this.#dropped++ === 0) {
        log.warn({ reason, object: name }, 'event queue full, dropping events');
      }
      return;
    }
    if (this.#dropped > 0) {
      log.warn({ dropped: this.#dropped }, 'event queue has room again');
      this.#dropped = 0;
    }
    this.#queue.push(this.#build(component, object, type, reason, message, host));
    if (!this.#running) {
      this.#running = true;
      // Started on a microtask so events recorded in one burst queue first.
      queueMicrotask(() => void this.#drain());
    }
  }

  flush(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  close(): Promise<void> {
    this.#closing.abort();
    const cancel = this.#options.clock.setTimer(CLOSE_GRACE_MS, () => {
      if (this.#queue.length > 0) {
        this.#options.log.warn({ dropped: this.#queue.length }, 'shutting down: events dropped');
      }
      this.#queue.length = 0;
      this.#abandon.abort();
    });
    return this.flush().finally(cancel);
  }

  #build(
    component: string,
    object: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    hostOverride: string | undefined,
  ) {
    const now = this.#options.clock.now();
    // Upstream names Events `<object>.<hex UnixNano>`; from a millisecond clock the nanoseconds
    // are drawn at random (two recorders, e.g. a kubelet's and the taint-eviction controller's,
    // naming Events for one pod in one millisecond collided and the second was lost to a 409),
    // then bumped to stay increasing within this recorder.
    const random = this.#options.random ?? Math.random;
    let nanos = BigInt(now) * 1_000_000n + BigInt(Math.floor(random() * 1_000_000));
    if (nanos <= this.#lastNanos) nanos = this.#lastNanos + 1n;
    this.#lastNanos = nanos;
    const ref = referenceOf(object);
    const host = hostOverride ?? this.#options.host ?? '';
    const at = formatTime(now);
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${ref.name}.${nanos.toString(16)}`,
        namespace: ref.namespace ?? 'default',
      },
      involvedObject: ref,
      reason,
      message,
      type,
      source: host ? { component, host } : { component },
      reportingComponent: component,
      reportingInstance: host,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    };
    return event;
  }

  async #drain(): Promise<void> {
    for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) {
      try {
        await this.#record(next);
      } catch (err) {
        this.#options.log.error({ err }, 'event recording failed');
      }
    }
    this.#running = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #record(input: CoreEvent): Promise<void> {
    const result = this.#correlator.correlate(input);
    if (result.dropped) return;
    const { log, maxTries = 6, retryDelayMs = 5000, random = Math.random } = this.#options;
    for (let tries = 1; ; tries++) {
      try {
        this.#correlator.updateState(await this.#write(result.event, result.patch));
        return;
      } catch (err) {
        const fields = { err, reason: input.reason, event: result.event.metadata.name };
        if (err instanceof StatusCodeError) {
          log.warn(fields, 'server rejected event (will not retry)');
          return;
        }
        if (tries >= maxTries || this.#closing.signal.aborted) {
          log.error(fields, 'unable to write event (retry limit exceeded)');
          return;
        }
        log.warn(fields, 'unable to write event (will retry)');
        const wait = tries === 1 ? retryDelayMs * random() : retryDelayMs;
        try {
          await this.#options.clock.sleep(wait, this.#closing.signal);
        } catch {
          log.error(fields, 'unable to write event (shutting down)');
          return;
        }
      }
    }
  }

  async #write(event: CoreEvent, patch: EventPatch | undefined): Promise<Event> {
    const { client } = this.#options;
    const ref = { ...RESOURCES.events, namespace: event.metadata.namespace };
    if (patch !== undefined) {
      try {
        const patched = await client.patch(
          { ...ref, name: event.metadata.name },
          patch,
          'strategic',
          {
            signal: this.#abandon.signal,
          },
        );
        return asKind(patched, 'Event');
      } catch (err) {
        // The event was deleted (TTL, by hand): create it again, as upstream.
        if (!isNotFound(err)) throw err;
      }
    }
    const { resourceVersion: _rv, ...metadata } = event.metadata;
    const created = await client.create(
      ref,
      { ...event, metadata },
      { signal: this.#abandon.signal },
    );
    return asKind(created, 'Event');
  }
}
