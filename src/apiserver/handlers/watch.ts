/**
 * WATCH: a chunked stream of newline-delimited JSON events.
 *
 * - Start: no resourceVersion (or "0") sends the current state as ADDED events first; a
 *   revision N streams every later event from history, or one ERROR event with a 410 Expired
 *   Status followed by the end of the stream when N is older than the history window (the
 *   upstream shape: HTTP 200, then the error as an event).
 * - Selectors are judged on the old and the new object, so an object that starts matching
 *   arrives as ADDED and one that stops matching as DELETED (upstream `cacheWatcher`).
 * - Bookmarks (only when `allowWatchBookmarks=true`) every 60 s and just before a timeout
 *   close, carrying the revision up to which this watcher has seen everything.
 * - Lifetime: `timeoutSeconds`, else a random time in [min, 2×min) with min the server's
 *   `--min-request-timeout` (1800 s, so a `kubectl get -w` session stays open for 30+ minutes).
 * - A client that stops reading is cut off once 16 MiB of events are buffered for it (see
 *   `MAX_BUFFERED_BYTES`), instead of holding memory for ever; it resumes from its last
 *   revision like after any close.
 *
 * @module
 */

import { goStatus, resourceExpired, type StatusError } from '../../api/errors.js';
import { stringifyJson } from '../../api/int64-json.js';
import { goHtmlSafe } from '../../api/managed-fields/go-json.js';
import type { KubeObject } from '../../api/object.js';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import {
  CompactedError,
  FutureRevisionError,
  type KeyValue,
  type StorageEvent,
  type Watcher,
} from '../../storage/backend.js';
import { realClock } from '../../util/clock.js';
import { auditOf } from '../audit/auditor.js';
import { isInternal } from '../http/internal-requests.js';
import { queryFlag } from '../http/query-bool.js';
import { parseRequestSelector, type RequestSelector } from '../selectors.js';
import { attributesOf } from '../store/attributes.js';
import { servedKeyValue } from '../store/conversion.js';
import { listPrefix } from '../store/keys.js';
import { decodeObjectJson } from '../store/object-json.js';
import type { ApiServices, ResourceCall } from './context.js';
import { parseResourceVersion, tooLargeFor } from './resource-version.js';
import { servedValue } from './served-version.js';
import { type TableRequest, tableJson, tableRequest } from './table.js';
import {
  BatchBytes,
  type EventType,
  freshBatchBytes,
  type LineEncoder,
  sharedEventLine,
  watchLineFor,
} from './watch-encoding.js';

const BOOKMARK_INTERVAL_MS = 60_000;
/**
 * A watcher whose client leaves this many bytes of events unread is closed. Upstream's cacher
 * gives each watcher a buffered channel (10 to 1,000 events by resource) and, when one stays
 * full past a short time budget, terminates it: "Forcing <resource> watcher close due to
 * unresponsiveness". Here the buffer is the socket's unsent output and is bounded in bytes:
 * 16 MiB is ~1,000 events of 16 KiB, or 10 of the largest objects (1.5 MiB). The initial
 * ADDED events of a watch without a revision are not counted while they drain (a state larger
 * than this is no fault of the client), nor is the first write of a watch from a revision (its
 * catch-up from history); everything written after that is.
 */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/**
 * After an unresponsive watcher's stream is ended, how long its unread bytes may stay queued
 * before the socket is destroyed to free them (a client that is merely slow gets a clean end).
 */
const UNRESPONSIVE_DRAIN_MS = 5000;

export async function handleWatch(api: ApiServices, call: ResourceCall): Promise<void> {
  const { def, query, res, req } = call;
  const selector = parseRequestSelector(def, query);
  const prefix = listPrefix(def, call.info.namespace);
  const rv = parseResourceVersion(query.get('resourceVersion'));
  if (rv !== undefined && rv > api.backend.currentRevision()) {
    throw tooLargeFor(rv, api.backend.currentRevision());
  }
  const bookmarks = queryFlag(query, 'allowWatchBookmarks');
  const timeoutMs = watchTimeoutMs(query.get('timeoutSeconds'), api.minRequestTimeoutSeconds);

  const table = await tableRequest(call);
  auditOf(req).responseStarted(200);
  res.writeHead(200, {
    'Content-Type': table?.contentType ?? 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();

  const stream = new WatchStream(api, def, selector, call, table);
  let start = rv;
  if (start === undefined) {
    const initial = api.backend.list(prefix);
    for (const kv of initial.items) stream.sendInitial(kv);
    start = initial.revision;
    if (queryFlag(query, 'sendInitialEvents') && bookmarks) stream.sendBookmark(start, true);
  }
  try {
    stream.attach(
      api.backend.watch(prefix, start, (events) => stream.deliver(events)),
      start,
    );
  } catch (e) {
    if (e instanceof CompactedError) {
      stream.fail(resourceExpired(`too old resource version: ${e.requested} (${e.compacted})`));
      return;
    }
    if (e instanceof FutureRevisionError) {
      stream.fail(tooLargeFor(e.requested, e.current));
      return;
    }
    throw e;
  }
  stream.startTimers(bookmarks, timeoutMs);
  req.on('close', () => stream.close());
  api.shutdownSignal.addEventListener('abort', () => stream.close(), { once: true });
}

function watchTimeoutMs(text: string | null, minSeconds: number): number {
  const n = Number(text ?? '');
  if (text !== null && text !== '' && Number.isFinite(n) && n > 0) return n * 1000;
  return (minSeconds + Math.random() * minSeconds) * 1000;
}

/**
 * Streams with lines waiting to be written. A client's stream is written at most once per
 * FLUSH_INTERVAL_MS (right away when the last such flush is older than that): 100 watchers of
 * a 1,000 writes/s stream would otherwise make up to 100,000 TLS writes a second, and those
 * writes were 40 % of the event loop. 5 ms is below what a person watching notices and cuts
 * the writes to at most 200 per watcher per second.
 *
 * The controller thread's streams (`urgent`: a Unix socket in this process, no TLS) are
 * written at the end of the event loop's turn instead, apart from the others. Controllers
 * react to each other through these streams: an OrderedReady StatefulSet member is ~11 such
 * hops (claim, provisioning, binding, pod, status …), and behind busy client streams each hop
 * waited up to 5 ms, most of the 60 ms a member took. Under `--clock virtual` at speed `max`
 * the cluster also waits for those events before time moves.
 */
const FLUSH_INTERVAL_MS = 5;
const dirty = new Set<WatchStream>();
const dirtyUrgent = new Set<WatchStream>();
let immediateScheduled = false;
let timerScheduled = false;
let lastFlush = 0;

function scheduleFlush(stream: WatchStream, urgent: boolean): void {
  if (urgent) {
    dirtyUrgent.add(stream);
    if (immediateScheduled) return;
    immediateScheduled = true;
    setImmediate(flushUrgent);
    return;
  }
  dirty.add(stream);
  if (timerScheduled) return;
  timerScheduled = true;
  const wait = lastFlush + FLUSH_INTERVAL_MS - performance.now();
  if (wait <= 0) setImmediate(flushAll);
  else setTimeout(flushAll, wait);
}

function flushUrgent(): void {
  immediateScheduled = false;
  flushRound(dirtyUrgent);
}

function flushAll(): void {
  timerScheduled = false;
  lastFlush = performance.now();
  flushRound(dirty);
}

function flushRound(set: Set<WatchStream>): void {
  const streams = [...set];
  set.clear();
  // Watchers fed the same events share one encoding of them (watch-encoding.ts).
  const round = new BatchBytes();
  for (const s of streams) s.flush(round);
}

class WatchStream implements LineEncoder {
  readonly #api: ApiServices;
  readonly #def: ResourceDefinition;
  readonly #selector: RequestSelector;
  readonly #call: ResourceCall;
  #watcher: Watcher | undefined;
  #cancelTimers: Array<() => void> = [];
  #lastRevision = 0;
  #closed = false;
  #pending: string[] = [];
  /** Bytes handed to the response so far (every write is a Buffer). */
  #written = 0;
  /** `#written` after the first write (initial events or catch-up); -1 before it. */
  #initialEnd = -1;
  /** Set when the client asked for Tables: events carry one-row Tables. */
  readonly #table: TableRequest | undefined;
  #sentColumns = false;
  /** The controller thread's watch: written at the end of the turn (see scheduleFlush). */
  readonly #internal: boolean;
  /** Its events are also counted for the virtual clock (`Clock.watchEvents`). */
  readonly #countsForClock: boolean;
  #counted = 0;
  readonly #matchesFn = (kv: KeyValue): boolean => this.#matches(kv);

  constructor(
    api: ApiServices,
    def: ResourceDefinition,
    selector: RequestSelector,
    call: ResourceCall,
    table?: TableRequest,
  ) {
    this.#table = table;
    this.#api = api;
    this.#def = def;
    this.#selector = selector;
    this.#call = call;
    this.#internal = isInternal(call.req);
    this.#countsForClock = this.#internal && api.clock.watchEvents !== undefined;
    api.metrics.watcherOpened(def.plural);
  }

  attach(watcher: Watcher, revision: number): void {
    this.#watcher = watcher;
    this.#lastRevision = Math.max(this.#lastRevision, revision);
    if (this.#closed) watcher.stop();
  }

  sendInitial(kv: KeyValue): void {
    if (this.#matches(kv)) this.#write(this.line('ADDED', kv));
  }

  deliver(events: readonly StorageEvent[]): void {
    for (const ev of events) {
      if (this.#closed) return;
      this.#lastRevision = ev.revision;
      const line = watchLineFor(ev, this.#matchesFn, this);
      if (line !== undefined) this.#write(line);
    }
  }

  sendBookmark(revision: number, initialEventsEnd = false): void {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    if (this.#table) {
      const rv = String(revision);
      const table = tableJson(
        this.#api,
        this.#call,
        this.#table,
        [],
        { resourceVersion: rv },
        false,
      );
      this.#write(`{"type":"BOOKMARK","object":${table}}\n`);
      return;
    }
    const object = { kind: this.#def.kind, apiVersion: apiVersionOf(this.#def), metadata };
    this.#write(`${JSON.stringify({ type: 'BOOKMARK', object })}\n`);
  }

  /** One ERROR event with the Status, then the end of the stream. */
  fail(error: StatusError): void {
    this.#write(
      `${goHtmlSafe(JSON.stringify({ type: 'ERROR', object: goStatus(error.status) }))}\n`,
    );
    this.close();
  }

  startTimers(bookmarks: boolean, timeoutMs: number): void {
    // Transport, not cluster behaviour: a watch's lifetime and bookmarks follow the wall
    // clock, also under `--clock virtual` (a paused cluster still ends its watches).
    const clock = realClock;
    if (bookmarks) {
      const tick = (): void => {
        this.sendBookmark(this.#safeRevision());
        this.#cancelTimers.push(clock.setTimer(BOOKMARK_INTERVAL_MS, tick));
      };
      this.#cancelTimers.push(clock.setTimer(BOOKMARK_INTERVAL_MS, tick));
    }
    this.#cancelTimers.push(
      clock.setTimer(timeoutMs, () => {
        if (bookmarks) this.sendBookmark(this.#safeRevision());
        this.close();
      }),
    );
  }

  /**
   * Writes the gathered lines in one write (one chunk, one TLS record, one syscall), unless
   * the client left too much unread. `round` shares the bytes with the other watchers
   * flushed with this one that gathered the same lines.
   */
  flush(round?: BatchBytes): void {
    if (this.#pending.length === 0) return;
    const res = this.#call.res;
    if (!this.#closed && this.#unreadBacklog() > MAX_BUFFERED_BYTES) {
      this.#closeUnresponsive();
      return;
    }
    const lines = this.#pending;
    this.#pending = [];
    if (res.writableEnded || res.destroyed) return;
    const bytes = round === undefined ? freshBatchBytes(lines) : round.encode(lines);
    res.write(bytes);
    this.#written += bytes.length;
    if (this.#initialEnd < 0) this.#initialEnd = this.#written;
  }

  /**
   * Unread bytes the client owes from earlier writes. Output leaves in order, so the initial
   * events go first: what is unsent beyond the live part is theirs and not counted.
   */
  #unreadBacklog(): number {
    const unsent = this.#call.res.writableLength;
    if (this.#initialEnd < 0) return 0;
    return Math.min(unsent, this.#written - this.#initialEnd);
  }

  /**
   * Upstream's termination of a blocked watcher: the events not yet written are dropped (the
   * client resumes from the last revision it read, so it misses nothing), the stream is ended,
   * and if the client does not read what is queued within UNRESPONSIVE_DRAIN_MS the socket is
   * destroyed, which frees it.
   */
  #closeUnresponsive(): void {
    this.#pending = [];
    const res = this.#call.res;
    this.close();
    if (res.writableFinished || res.destroyed) return;
    const timer = setTimeout(() => res.destroy(), UNRESPONSIVE_DRAIN_MS);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.flush();
    this.#watcher?.stop();
    for (const cancel of this.#cancelTimers) cancel();
    this.#cancelTimers = [];
    this.#api.metrics.watcherClosed(this.#def.plural);
    if (this.#counted > 0) this.#api.clock.watchEvents?.(-this.#counted);
    this.#counted = 0;
    if (!this.#call.res.writableEnded) this.#call.res.end();
  }

  /** Every event up to the backend's current revision has been delivered to this watcher. */
  #safeRevision(): number {
    return Math.max(this.#lastRevision, this.#api.backend.currentRevision());
  }

  #matches(kv: KeyValue): boolean {
    return this.#selector.empty || this.#selector.matches(attributesOf(this.#def, kv));
  }

  /** The object stopped matching: DELETED with its old content and the new revision. */
  left(prev: KeyValue, revision: number): string {
    const obj = decodeObjectJson(this.#def, servedValue(this.#def, prev));
    obj.metadata = { ...obj.metadata, resourceVersion: String(revision) };
    if (this.#table) return this.#tableLine('DELETED', obj);
    return `${stringifyJson({ type: 'DELETED', object: obj })}\n`;
  }

  line(type: EventType, kv: KeyValue): string {
    if (this.#table !== undefined) {
      return this.#tableLine(type, decodeObjectJson(this.#def, servedValue(this.#def, kv)));
    }
    // Converted once per stored version and served version: the line cache is per served one.
    return sharedEventLine(type, servedKeyValue(this.#def, kv));
  }

  /** One event whose object is a one-row Table; only the first carries the column definitions. */
  #tableLine(type: EventType, obj: KubeObject): string {
    const columns = !this.#sentColumns;
    this.#sentColumns = true;
    const rv = obj.metadata?.resourceVersion ?? '';
    const table = tableJson(
      this.#api,
      this.#call,
      this.#table!,
      [obj],
      { resourceVersion: rv },
      columns,
    );
    return `{"type":"${type}","object":${table}}\n`;
  }

  #write(line: string): void {
    if (this.#closed) return;
    if (this.#countsForClock) {
      this.#counted++;
      this.#api.clock.watchEvents?.(1);
    }
    this.#pending.push(line);
    scheduleFlush(this, this.#internal);
  }
}
