/**
 * A load-generator process: `connections` keep-alive connections to one 127.0.0.1 target,
 * each a closed loop (send, wait for the answer, send the next), optionally paced to a fixed
 * rate. Forked by `load.ts`; see `worker-ipc.ts` for the protocol and the lifetime bound.
 *
 * @module
 */
import { RawConnection, type RawResponse, type Target } from './raw-http.js';
import { workerMain } from './worker-ipc.js';
import { okStatus, type RenderedRequest, requestMaker, type Workload } from './workloads.js';

export interface LoadWorkerConfig {
  readonly target: Target;
  readonly workload: Workload;
  readonly connections: number;
  /** Unrecorded lead-in (JIT warm-up of both sides). */
  readonly warmupMs: number;
  /** The measured window; the run stops at its end. */
  readonly durationMs?: number;
  /** Stop after this many requests (count mode; no warm-up recommended). */
  readonly requests?: number;
  /** Requests per second for this worker, paced by index; unlimited when absent. */
  readonly ratePerSecond?: number;
  /** Parse `resourceVersion` from each successful answer (the watch benchmark needs them). */
  readonly recordRevisions?: boolean;
}

export interface LoadWorkerResult {
  /** Successful answers completed inside the window. */
  readonly ok: number;
  readonly errors: number;
  readonly firstError?: string;
  /** Latency of each successful request started inside the window, ms (paced: from its due time). */
  readonly latenciesMs: Float64Array;
  readonly windowMs: number;
  /** CPU seconds this generator used during the whole run (all threads). */
  readonly cpuSeconds: number;
  readonly revisions?: Float64Array;
}

interface State {
  readonly conns: RawConnection[];
}

class Recorder {
  ok = 0;
  errors = 0;
  firstError: string | undefined;
  latencies: number[] = [];
  revisions: number[] = [];
}

const RV = /"resourceVersion":"(\d+)"/;

interface Clock {
  readonly start: number;
  readonly windowStart: number;
  readonly end: number;
}

/**
 * Open-loop pacing: request `i` is not sent before `start + i / rate`. Returns when the
 * request was due, which is where its latency starts: a request that waited for a free
 * connection past its due time counts that wait (no coordinated omission).
 */
async function pace(config: LoadWorkerConfig, clock: Clock, i: number): Promise<number> {
  const rate = config.ratePerSecond;
  if (rate === undefined) return performance.now();
  const due = clock.start + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  return Math.min(due, performance.now());
}

function record(
  rec: Recorder,
  config: LoadWorkerConfig,
  clock: Clock,
  t0: number,
  res: RawResponse,
): void {
  const t1 = performance.now();
  if (!okStatus(config.workload.kind)(res.status)) {
    rec.errors++;
    rec.firstError ??= `HTTP ${res.status}: ${res.body.toString('utf8', 0, 300)}`;
    return;
  }
  if (t1 <= clock.end && t1 >= clock.windowStart) rec.ok++;
  if (t0 >= clock.windowStart) rec.latencies.push(t1 - t0);
  if (config.recordRevisions) {
    rec.revisions.push(Number(RV.exec(res.body.toString('latin1'))?.[1]));
  }
}

async function connectionLoop(
  conn: RawConnection,
  config: LoadWorkerConfig,
  next: { i: number },
  make: (i: number) => RenderedRequest,
  clock: Clock,
  rec: Recorder,
): Promise<void> {
  const limit = config.requests ?? Number.POSITIVE_INFINITY;
  while (performance.now() < clock.end && next.i < limit) {
    const i = next.i++;
    const t0 = await pace(config, clock, i);
    const req = make(i);
    let res: RawResponse;
    try {
      res = await conn.request(req.head, req.body);
    } catch (e) {
      // A broken connection ends this loop; the others go on.
      rec.errors++;
      rec.firstError ??= String(e);
      return;
    }
    record(rec, config, clock, t0, res);
  }
}

workerMain<LoadWorkerConfig, State, LoadWorkerResult>({
  async setup(config) {
    const conns: RawConnection[] = [];
    for (let i = 0; i < config.connections; i++)
      conns.push(await RawConnection.open(config.target));
    return { conns };
  },
  async run({ conns }, config) {
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const windowStart = start + config.warmupMs;
    const end =
      config.durationMs !== undefined ? windowStart + config.durationMs : Number.POSITIVE_INFINITY;
    const clock = { start, windowStart, end };
    const rec = new Recorder();
    const make = requestMaker(config.workload);
    const next = { i: 0 };
    await Promise.all(conns.map((c) => connectionLoop(c, config, next, make, clock, rec)));
    const finished = performance.now();
    for (const c of conns) c.close();
    const cpu = process.cpuUsage(cpu0);
    return {
      ok: rec.ok,
      errors: rec.errors,
      ...(rec.firstError !== undefined ? { firstError: rec.firstError } : {}),
      latenciesMs: Float64Array.from(rec.latencies),
      windowMs: Math.min(end, finished) - windowStart,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      ...(config.recordRevisions ? { revisions: Float64Array.from(rec.revisions) } : {}),
    };
  },
});
