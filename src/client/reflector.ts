/**
 * Keeps a sink in step with the server through list + watch (client-go `reflector.go`
 * `ListAndWatch`), on the injected clock:
 *
 * 1. List in pages of `pageSize` (500) and hand the whole result to `sink.replace`.
 * 2. Watch from the list's resourceVersion with bookmarks on and a server-side timeout drawn
 *    from [300 s, 600 s); every event (bookmarks included) advances the resume point.
 * 3. When a stream ends normally, watch again from the last resourceVersion — no relist.
 * 4. When the watch fails (410 Expired as an ERROR event or HTTP 410, any other error, or a
 *    "very short watch": ended within 1 s with no event), wait for the next backoff delay
 *    (800 ms doubling to 30 s, see {@link ExponentialBackoff}) and go back to 1. A watch that
 *    cannot start because of 429 or a refused connection backs off and retries the watch alone.
 *
 * The relist asks for data at least as new as the last resourceVersion seen (a watch expiry
 * says nothing about whether a list at that version works); only when that list itself is
 * 410 does the reflector list again with `resourceVersion=""` (a consistent read), and keeps
 * doing so until a list succeeds. The very first list sends `"0"`, like client-go.
 *
 * @module
 */
import type { KubeObject } from '../api/object.js';
import { type Clock, holdClock } from '../util/clock.js';
import { type BackoffOptions, ExponentialBackoff } from './backoff.js';
import {
  isExpiredError,
  type ListerWatcher,
  type ListResult,
  StatusCodeError,
  type WatchEvent,
} from './lister-watcher.js';

/** Where the reflector puts what it learns; the informer implements it. */
export interface ReflectorSink<T extends KubeObject> {
  /** The complete state after a (re)list. */
  replace(items: readonly T[], resourceVersion: string): void;
  /** One ADDED, MODIFIED or DELETED event, in stream order. */
  apply(event: WatchEvent<T>): void;
}

/** Fields first, then a constant message; a pino `Logger` fits. */
export interface ReflectorLogger {
  warn(fields: Record<string, unknown>, msg: string): void;
}

export interface ReflectorOptions<T extends KubeObject> {
  readonly listerWatcher: ListerWatcher<T>;
  readonly sink: ReflectorSink<T>;
  readonly clock: Clock;
  /** Used in logs. @default 'reflector' */
  readonly name?: string;
  /** Items per list page. @default 500 */
  readonly pageSize?: number;
  /** Watches ask the server to end them after [this, 2 × this) seconds. @default 300 */
  readonly minWatchTimeoutSeconds?: number;
  /** Source of randomness for watch timeouts and backoff jitter. @default Math.random */
  readonly random?: () => number;
  /** Overrides of the backoff (initial 800 ms, max 30 s, reset after 2 min, jitter 1.0). */
  readonly backoff?: Omit<BackoffOptions, 'clock' | 'random'>;
  readonly log?: ReflectorLogger;
  /**
   * Held whenever this reflector is not following an open watch (listing, reconnecting,
   * backing off): a virtual clock at speed `max` does not move on while a cache is behind.
   */
  readonly activity?: Pick<Clock, 'hold' | 'turns'>;
}

/** A watch that ends this fast without a single event is treated as a failure (upstream). */
const SHORT_WATCH_MS = 1000;

/** The stream ended at once and empty: something is wrong, relist after a backoff. */
export class ShortWatchError extends Error {
  constructor(ms: number) {
    super(`very short watch: watch lasted ${ms} ms and no items received`);
    this.name = 'ShortWatchError';
  }
}

export class Reflector<T extends KubeObject = KubeObject> {
  readonly #lw: ListerWatcher<T>;
  readonly #sink: ReflectorSink<T>;
  readonly #clock: Clock;
  readonly #name: string;
  readonly #pageSize: number;
  readonly #minWatchTimeoutSeconds: number;
  readonly #random: () => number;
  readonly #backoff: ExponentialBackoff;
  readonly #log: ReflectorLogger | undefined;
  #resourceVersion = '';
  #lastSyncUnavailable = false;
  readonly #activity: Pick<Clock, 'hold' | 'turns'> | undefined;
  /** Counts lists: a buffered event from before the latest list is not applied. */
  #listGeneration = 0;
  /** The release of the hold taken while not watching (see `activity`). */
  #release: () => void = () => undefined;

  constructor(options: ReflectorOptions<T>) {
    this.#lw = options.listerWatcher;
    this.#sink = options.sink;
    this.#clock = options.clock;
    this.#name = options.name ?? 'reflector';
    this.#pageSize = options.pageSize ?? 500;
    this.#minWatchTimeoutSeconds = options.minWatchTimeoutSeconds ?? 300;
    this.#random = options.random ?? Math.random;
    this.#log = options.log;
    this.#activity = options.activity;
    this.#backoff = new ExponentialBackoff({
      ...options.backoff,
      clock: options.clock,
      random: this.#random,
    });
    if (!Number.isInteger(this.#pageSize) || this.#pageSize < 1) {
      throw new RangeError(`${this.#name}: pageSize must be a positive integer`);
    }
  }

  /** The resourceVersion of the last list, event or bookmark seen (`""` before the first). */
  lastSyncResourceVersion(): string {
    return this.#resourceVersion;
  }

  /** Lists and watches until `signal` aborts; resolves then. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    this.#release = holdClock(this.#activity);
    try {
      await this.#runLoop(signal);
    } finally {
      this.#release();
    }
  }

  async #runLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.#listAndWatch(signal);
      } catch (err) {
        if (signal.aborted) break;
        const msg = isExpiredError(err) ? 'watch expired, relisting' : 'list and watch failed';
        this.#log?.warn({ reflector: this.#name, err }, msg);
      }
      if (signal.aborted) break;
      if (!(await this.#sleep(this.#backoff.next(), signal))) break;
    }
  }

  /** Returns only when aborted; throws to ask for a relist after a backoff. */
  async #listAndWatch(signal: AbortSignal): Promise<void> {
    const listed = await this.#list(signal);
    if (listed === undefined) return;
    // Events still waiting for their turn (serial runs) are older than this list: dropped.
    this.#listGeneration++;
    this.#sink.replace(listed.items, listed.resourceVersion);
    this.#resourceVersion = listed.resourceVersion;
    await this.#watchLoop(signal);
  }

  /** The version a relist asks for (client-go `relistResourceVersion`). */
  #relistResourceVersion(): string {
    if (this.#lastSyncUnavailable) return '';
    return this.#resourceVersion === '' ? '0' : this.#resourceVersion;
  }

  async #list(signal: AbortSignal): Promise<ListResult<T> | undefined> {
    try {
      const result = await this.#listAll(this.#relistResourceVersion(), signal);
      this.#lastSyncUnavailable = false;
      return result;
    } catch (err) {
      if (!isExpiredError(err) || signal.aborted) throw err;
      // The version is gone from the server's history: a consistent read always works.
      this.#lastSyncUnavailable = true;
      const result = await this.#listAll('', signal);
      this.#lastSyncUnavailable = false;
      return result;
    }
  }

  /** Follows continue tokens; undefined when aborted part-way. */
  async #listAll(resourceVersion: string, signal: AbortSignal): Promise<ListResult<T> | undefined> {
    const limit = this.#pageSize;
    let page = await this.#lw.list({ resourceVersion, limit }, signal);
    const items = [...page.items];
    while (page.continue !== undefined && page.continue !== '') {
      if (signal.aborted) return undefined;
      try {
        page = await this.#lw.list({ continue: page.continue, limit }, signal);
      } catch (err) {
        if (!isExpiredError(err)) throw err;
        // The continue token outlived its snapshot: fall back to one unpaginated list, as
        // client-go's pager does.
        return await this.#lw.list({ resourceVersion }, signal);
      }
      items.push(...page.items);
    }
    if (signal.aborted) return undefined;
    return { items, resourceVersion: page.resourceVersion };
  }

  async #watchLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const started = this.#clock.now();
      let events = 0;
      try {
        await this.#lw.watch(
          {
            resourceVersion: this.#resourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds: this.#watchTimeoutSeconds(),
            ...(this.#activity ? { onConnected: () => this.#release() } : {}),
          },
          (event) => {
            events++;
            this.#handle(event);
          },
          signal,
        );
      } catch (err) {
        this.#release = holdClock(this.#activity);
        if (signal.aborted) return;
        if (!isRetriableWatchError(err)) throw err;
        if (!(await this.#sleep(this.#backoff.next(), signal))) return;
        continue;
      }
      this.#release = holdClock(this.#activity);
      const lasted = this.#clock.now() - started;
      if (!signal.aborted && events === 0 && lasted < SHORT_WATCH_MS) {
        throw new ShortWatchError(lasted);
      }
    }
  }

  #handle(event: WatchEvent<T>): void {
    const rv = event.object?.metadata?.resourceVersion;
    if (typeof rv !== 'string' || rv === '') {
      throw new TypeError(`${this.#name}: ${event.type} event without metadata.resourceVersion`);
    }
    const turns = this.#activity?.turns;
    // Serial runs: the cache takes the event at the next turn (in resourceVersion order).
    if (event.type !== 'BOOKMARK') {
      if (turns === undefined) this.#sink.apply(event);
      else {
        const generation = this.#listGeneration;
        turns.deliver(rv, () => {
          if (generation === this.#listGeneration) this.#sink.apply(event);
        });
      }
    }
    this.#resourceVersion = rv;
  }

  #watchTimeoutSeconds(): number {
    return Math.floor(this.#minWatchTimeoutSeconds * (this.#random() + 1));
  }

  /** Sleeps on the clock; false when aborted meanwhile. */
  async #sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    try {
      await this.#clock.sleep(ms, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/** Watch start failures worth retrying without a relist (client-go `isWatchErrorRetriable`). */
function isRetriableWatchError(err: unknown): boolean {
  if (err instanceof StatusCodeError) return err.code === 429;
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'ECONNREFUSED';
}
