/**
 * A watcher process: `watchers` concurrent `GET …?watch=true&resourceVersion=N` streams,
 * each on its own HTTPS connection (node:https, streaming). For every event it records the
 * delivery lag (receive wall time − the `sent` stamp in the object's data) and checks the
 * stream: resourceVersions strictly increasing, and a rolling hash of them so the parent can
 * compare every watcher's sequence with the writes that were acknowledged.
 *
 * The parent's `start` carries the last acknowledged revision; the worker then waits (≤ 10 s)
 * for every watcher to reach it and reports.
 *
 * @module
 */
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import type { Target } from './raw-http.js';
import { workerMain } from './worker-ipc.js';
import { wallNow } from './workloads.js';

export interface WatchWorkerConfig {
  readonly target: Target;
  readonly token: string;
  /** Path with query, e.g. `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=5`. */
  readonly path: string;
  readonly watchers: number;
}

export interface WatcherSummary {
  readonly events: number;
  /** Events whose resourceVersion was not above the previous one. */
  readonly outOfOrder: number;
  readonly hash: number;
  readonly lastRevision: number;
  /** Why the stream ended early or what went wrong, if it did. */
  readonly problem?: string;
}

export interface WatchWorkerResult {
  readonly watchers: WatcherSummary[];
  /** Delivery lag of every event at every watcher, ms. */
  readonly lagsMs: Float64Array;
  /** CPU this process used from the end of its setup to its result, over that time: cores. */
  readonly cores: number;
}

/** The rolling hash the parent recomputes from the acknowledged writes. */
export function revisionHash(hash: number, revision: number): number {
  return (Math.imul(hash, 31) + revision) | 0;
}

const RV = /"resourceVersion":"(\d+)"/;
const SENT = /"sent":"([\d.]+)"/;

class Watcher {
  events = 0;
  outOfOrder = 0;
  hash = 0;
  lastRevision = 0;
  problem: string | undefined;
  #partial = '';
  #req: ClientRequest | undefined;
  readonly #lags: number[];

  constructor(lags: number[]) {
    this.#lags = lags;
  }

  open(config: WatchWorkerConfig): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#req = request(
        {
          host: config.target.host,
          port: config.target.port,
          ...(config.target.ca !== undefined ? { ca: config.target.ca } : {}),
          path: config.path,
          headers: { Authorization: `Bearer ${config.token}`, Accept: 'application/json' },
          agent: false,
        },
        (res) => {
          if (res.statusCode !== 200) {
            reject(new Error(`watch: HTTP ${res.statusCode}`));
            return;
          }
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => this.#onData(chunk));
          res.on('end', () => {
            this.problem ??= 'stream ended';
          });
          resolve();
        },
      );
      this.#req.on('error', (e) => {
        this.problem ??= String(e);
        reject(e);
      });
      this.#req.end();
    });
  }

  close(): void {
    this.#req?.destroy();
  }

  #onData(chunk: string): void {
    const now = wallNow();
    const text = this.#partial + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      this.#onLine(text.slice(start, nl), now);
      start = nl + 1;
    }
    this.#partial = text.slice(start);
  }

  #onLine(line: string, now: number): void {
    if (!line.startsWith('{"type":"MODIFIED"')) {
      this.problem ??= `unexpected event: ${line.slice(0, 200)}`;
      return;
    }
    const rv = Number(RV.exec(line)?.[1]);
    const sent = Number(SENT.exec(line)?.[1]);
    if (!(rv > this.lastRevision)) this.outOfOrder++;
    this.lastRevision = rv;
    this.hash = revisionHash(this.hash, rv);
    this.events++;
    this.#lags.push(now - sent);
  }
}

interface State {
  readonly watchers: Watcher[];
  readonly lags: number[];
  readonly cpu0: NodeJS.CpuUsage;
  readonly t0: number;
}

workerMain<WatchWorkerConfig, State, WatchWorkerResult>({
  async setup(config) {
    const lags: number[] = [];
    const watchers = Array.from({ length: config.watchers }, () => new Watcher(lags));
    await Promise.all(watchers.map((w) => w.open(config)));
    return { watchers, lags, cpu0: process.cpuUsage(), t0: performance.now() };
  },
  async run({ watchers, lags, cpu0, t0 }, _config, payload) {
    const last = (payload as { lastRevision: number }).lastRevision;
    const deadline = performance.now() + 10_000;
    while (
      performance.now() < deadline &&
      watchers.some((w) => w.lastRevision < last && !w.problem)
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const summaries = watchers.map((w) => ({
      events: w.events,
      outOfOrder: w.outOfOrder,
      hash: w.hash,
      lastRevision: w.lastRevision,
      ...(w.problem !== undefined ? { problem: w.problem } : {}),
    }));
    for (const w of watchers) w.close();
    const cpu = process.cpuUsage(cpu0);
    const cores = (cpu.user + cpu.system) / 1000 / (performance.now() - t0);
    return { watchers: summaries, lagsMs: Float64Array.from(lags), cores };
  },
});
