/**
 * The live feed: reads `/ui/api/stream`, builds the store from the snapshot and keeps it
 * current, reconnecting with backoff when the stream ends.
 *
 * Rendering is the expensive part, so frames are never rendered one by one:
 * - the snapshot (HELLO, one ADDED per object, SYNCED) goes into a fresh store that replaces
 *   the shown one only at SYNCED, right away: one render for 5,000 pods, and a reconnect
 *   rebuilds from the new snapshot without showing a half-built cluster;
 * - live changes are queued and applied together once per animation frame, so a 1,000-replica
 *   rollout costs one render per frame, not one per change.
 *
 * @module
 */
import { type Change, type ClockState, type Frame, isFrame, type SessionUser } from './json.js';
import { backoffMs, readLines } from './ndjson.js';
import { ObjectStore } from './store.js';

export interface StreamListener {
  /** The shown store changed (a new snapshot, or a batch of live changes was applied). */
  onStore(store: ObjectStore, changes: readonly Change[], synced: boolean): void;
  onHello(user: SessionUser | undefined): void;
  onClock(clock: ClockState): void;
  /** The session is gone: the stream answered 401. */
  onUnauthorized(): void;
  /** Connected (true) or waiting to reconnect (false, with the reason). */
  onConnection(connected: boolean, reason?: string): void;
}

export interface StreamOptions {
  readonly url: string;
  readonly fetch: typeof fetch;
  /** Runs `cb` soon, once per animation frame in the browser. */
  readonly schedule: (cb: () => void) => void;
  readonly sleep: (ms: number) => Promise<void>;
}

/** Applies frames to stores; the network loop is separate so tests can feed frames directly. */
export class FrameApplier {
  live = new ObjectStore();
  synced = false;
  private pending: ObjectStore | undefined;
  private queue: Change[] = [];
  private scheduled = false;
  private swapped = false;
  private readonly listener: StreamListener;
  private readonly schedule: (cb: () => void) => void;

  constructor(listener: StreamListener, schedule: (cb: () => void) => void) {
    this.listener = listener;
    this.schedule = schedule;
  }

  handle(frame: Frame): void {
    switch (frame.type) {
      case 'HELLO':
        this.pending = new ObjectStore();
        this.listener.onHello(frame.user);
        if (frame.clock !== undefined) this.listener.onClock(frame.clock);
        return;
      case 'SYNCED':
        if (this.pending !== undefined) {
          // For the paint benchmark: when the snapshot was complete, before the render.
          globalThis.performance?.mark?.('fy:stream-synced');
          this.pending.seq = Math.max(this.pending.seq, frame.seq);
          this.live = this.pending;
          this.pending = undefined;
          // Changes queued from the previous connection are in the new snapshot already.
          this.queue = [];
          this.swapped = true;
          this.synced = true;
          // Shown at once, not at the next animation frame: the snapshot is one event, and
          // the frame may be 100 ms away while the page is busy (the first paint budget).
          this.flush();
        }
        return;
      case 'CLOCK':
        this.listener.onClock(frame.clock);
        return;
      default:
        if (this.pending !== undefined) {
          this.pending.apply(frame);
        } else {
          this.queue.push(frame);
          this.request();
        }
    }
  }

  /** Applies what is queued and tells the listener once. */
  flush(): void {
    this.scheduled = false;
    const changes = this.queue;
    this.queue = [];
    for (const change of changes) this.live.apply(change);
    if (changes.length > 0 || this.swapped) {
      this.swapped = false;
      this.listener.onStore(this.live, changes, this.synced);
    }
  }

  private request(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }
}

/** Runs the stream until `stop()`; resolves when stopped or unauthorized. */
export class StreamClient {
  readonly applier: FrameApplier;
  private stopped = false;
  private controller: AbortController | undefined;
  private readonly options: StreamOptions;
  private readonly listener: StreamListener;

  constructor(options: StreamOptions, listener: StreamListener) {
    this.options = options;
    this.listener = listener;
    this.applier = new FrameApplier(listener, options.schedule);
  }

  async run(): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      let reason = 'the stream ended';
      try {
        this.controller = new AbortController();
        const res = await this.options.fetch(this.options.url, {
          credentials: 'same-origin',
          signal: this.controller.signal,
          headers: { Accept: 'application/x-ndjson' },
        });
        if (res.status === 401) {
          this.listener.onUnauthorized();
          return;
        }
        if (!res.ok || res.body === null) throw new Error(`the stream answered HTTP ${res.status}`);
        globalThis.performance?.mark?.('fy:stream-open');
        this.listener.onConnection(true);
        await readLines(res.body, (line) => {
          const frame = parseFrame(line);
          if (frame === undefined) return;
          if (frame.type === 'HELLO') attempt = 0;
          this.applier.handle(frame);
        });
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
      }
      if (this.stopped) return;
      this.listener.onConnection(false, reason);
      await this.options.sleep(backoffMs(attempt++));
    }
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
  }
}

export function parseFrame(line: string): Frame | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isFrame(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
