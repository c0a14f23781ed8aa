/**
 * Durable creates through the real API: `fleetyard up` (SQLite, not ephemeral) over HTTPS,
 * 1 KiB ConfigMaps (admission, defaulting, validation, uid, timestamps and the durable
 * commit all happen server-side), a fresh server per run.
 *
 * - Throughput: 64 concurrent keep-alive clients (2 generator processes × 32 connections), one
 *   request in flight per connection, as fast as answers come; 1 s warm-up, 10 s window. At
 *   that saturation the event loop is the queue, so latency = 64 ÷ throughput by Little's law
 *   (its p99 is reported as context).
 * - p99 at the target load: the same 64 connections paced to 4,000 creates/s in total (open
 *   loop, each request due at start + i / rate; latency counts from the due time, so a
 *   request that waited for a free connection counts the wait); 1 s warm-up, 10 s window.
 * - p99 at the same relative load: paced at 58 % of the saturating run's rate (the share
 *   4,000/s was of saturation where the target was set), on a fresh server, 10 s window.
 * - One sequential client: 1 process × 1 connection, 1 s warm-up, 5 s window. p99.
 * - Context: the same generators against a trivial node:https JSON handler, i.e. what the
 *   generators plus TLS leave of this 2-core machine for a server.
 *
 * @module
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { removeDir, stopChild, tempDir, track } from './lib/cleanup.js';
import { contentionNote, type Kept, quietRuns } from './lib/contention.js';
import { fsyncLatencies } from './lib/disk.js';
import { type Fleetyard, startFleetyard } from './lib/fleetyard.js';
import { cpuSummary, type LoadResult, runLoad } from './lib/load.js';
import { type BenchOptions, round, runCount } from './lib/options.js';
import { type BenchRow, median, percentile } from './lib/report.js';

const PROCESSES = 2;
const CONNECTIONS_PER_PROCESS = 32;
const VALUE_BYTES = 1024;
const TARGET_CREATES = 4000;
const TARGET_P99_MS = 15; // issue 20 (25 before)
const TARGET_SEQ_P99_MS = 5;
/**
 * The share of saturation the 4,000/s target was on the machine it was set on (4,000 of 6,851
 * creates/s saturated, 2026-12-01): paced at this share of this machine's saturation, a run
 * puts the server under the same relative load where saturation differs (a queue's wait grows
 * as 1 ÷ (1 − load), so 4,000/s on a machine saturating at ~4,000/s measures the queue).
 */
const TARGET_SHARE_OF_SATURATION = 4000 / 6851;

interface Durations {
  readonly warmupMs: number;
  readonly concurrentMs: number;
  readonly sequentialMs: number;
}

function durations(options: BenchOptions): Durations {
  return options.quick
    ? { warmupMs: 500, concurrentMs: 3000, sequentialMs: 2000 }
    : { warmupMs: 1000, concurrentMs: 10_000, sequentialMs: 5000 };
}

interface Shape {
  readonly processes: number;
  readonly connections: number;
  readonly durationMs: number;
  readonly warmupMs: number;
  readonly workerIdBase: number;
  readonly ratePerSecond?: number;
}

function createLoad(fy: Fleetyard, shape: Shape): Promise<LoadResult> {
  return runLoad({
    target: fy.target,
    workload: {
      kind: 'configmap-create',
      authority: fy.authority,
      token: fy.token,
      valueBytes: VALUE_BYTES,
    },
    processes: shape.processes,
    connectionsPerProcess: shape.connections,
    warmupMs: shape.warmupMs,
    durationMs: shape.durationMs,
    ...(shape.ratePerSecond !== undefined ? { ratePerSecond: shape.ratePerSecond } : {}),
    observePids: [fy.pid],
    workerIdBase: shape.workerIdBase,
  });
}

function check(r: LoadResult, what: string): void {
  if (r.errors > 0) throw new Error(`${what}: ${r.errors} failed requests, first: ${r.firstError}`);
}

interface RunResult {
  readonly concurrent: LoadResult;
  readonly paced: LoadResult;
  /** Paced at {@link TARGET_SHARE_OF_SATURATION} of `concurrent`'s rate, on its own server. */
  readonly pacedShare: LoadResult;
  readonly pacedSharePid: number;
  readonly sequential: LoadResult;
  readonly pid: number;
}

async function oneRun(d: Durations): Promise<RunResult> {
  const fy = await startFleetyard();
  let first: Omit<RunResult, 'pacedShare' | 'pacedSharePid'>;
  try {
    // Sequential first, while the store is small; then the paced and the saturating loads.
    const { sequential, paced } = await sequentialThenPaced(fy, d, TARGET_CREATES, 0);
    const concurrent = await createLoad(fy, {
      warmupMs: d.warmupMs,
      processes: PROCESSES,
      connections: CONNECTIONS_PER_PROCESS,
      durationMs: d.concurrentMs,
      workerIdBase: 0,
    });
    check(concurrent, 'concurrent creates');
    first = { concurrent, paced, sequential, pid: fy.pid };
  } finally {
    await fy.stop();
  }
  const share = await pacedAtShare(d, first.concurrent.perSecond);
  return { ...first, pacedShare: share.load, pacedSharePid: share.pid };
}

/**
 * One sequential client, then the 64 connections paced to `rate`: the history of both paced
 * runs (after the sequential client V8 has compiled the create path; a cold server's first
 * seconds had a p99 of 430-590 ms). Worker ids start at `workerIdBase` + 100.
 */
async function sequentialThenPaced(
  fy: Fleetyard,
  d: Durations,
  rate: number,
  workerIdBase: number,
): Promise<{ sequential: LoadResult; paced: LoadResult }> {
  const sequential = await createLoad(fy, {
    warmupMs: d.warmupMs,
    processes: 1,
    connections: 1,
    durationMs: d.sequentialMs,
    workerIdBase: workerIdBase + 100,
  });
  check(sequential, 'sequential creates');
  const paced = await createLoad(fy, {
    warmupMs: d.warmupMs,
    processes: PROCESSES,
    connections: CONNECTIONS_PER_PROCESS,
    durationMs: d.concurrentMs,
    ratePerSecond: rate,
    workerIdBase: workerIdBase + 200,
  });
  check(paced, `creates paced at ${rate}/s`);
  return { sequential, paced };
}

/**
 * Paced at {@link TARGET_SHARE_OF_SATURATION} of `saturated` on a fresh server with the
 * 4,000/s run's history (after the saturating run the store holds ~100,000 more objects, and
 * old-space collections of that heap, not the load, set the tail: p99 28-218 ms there).
 */
async function pacedAtShare(
  d: Durations,
  saturated: number,
): Promise<{ load: LoadResult; pid: number }> {
  const fy = await startFleetyard();
  try {
    const rate = Math.round(TARGET_SHARE_OF_SATURATION * saturated);
    const { paced } = await sequentialThenPaced(fy, d, rate, 200);
    return { load: paced, pid: fy.pid };
  } finally {
    await fy.stop();
  }
}

interface Trivial {
  readonly perSecond: number;
  readonly note: string;
  /** p99 of the same generators paced to the target rate: the method's own floor. */
  readonly pacedP99: number;
  readonly others: number;
}

async function trivialCeiling(d: Durations): Promise<Trivial> {
  // A throwaway fleetyard data dir supplies a CA-signed serving certificate for 127.0.0.1.
  const dir = tempDir('fleetyard-bench-pki-');
  try {
    const init = await startFleetyard({ ephemeral: true, dataDir: dir });
    const ca = init.cluster.ca;
    await init.stop();
    const server = track(
      fork(new URL('./lib/trivial-server.ts', import.meta.url), [join(dir, 'pki')], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    try {
      const port = await new Promise<number>((resolve, reject) => {
        server.once('message', (m: { port: number }) => resolve(m.port));
        server.once('exit', (code) => reject(new Error(`trivial server exited ${code}`)));
      });
      const load = (ratePerSecond?: number) =>
        runLoad({
          target: { host: '127.0.0.1', port, ca },
          workload: { kind: 'trivial', authority: `127.0.0.1:${port}` },
          processes: PROCESSES,
          connectionsPerProcess: CONNECTIONS_PER_PROCESS,
          warmupMs: d.warmupMs,
          durationMs: d.sequentialMs,
          ...(ratePerSecond !== undefined ? { ratePerSecond } : {}),
          observePids: [server.pid!],
        });
      const r = await load();
      check(r, 'trivial server');
      const paced = await load(TARGET_CREATES);
      check(paced, 'trivial server, paced');
      const note = `${cpuSummary(r, server.pid!, 'server')}, p99 ${percentile(r.latenciesMs, 99).toFixed(1)} ms`;
      return {
        perSecond: r.perSecond,
        note,
        pacedP99: percentile(paced.latenciesMs, 99),
        others: Math.max(r.otherCores, paced.otherCores),
      };
    } finally {
      await stopChild(server);
    }
  } finally {
    removeDir(dir);
  }
}

export async function benchApiWrites(options: BenchOptions): Promise<BenchRow[]> {
  const d = durations(options);
  const trivial = await quietRuns(
    1,
    () => trivialCeiling(d),
    (t) => t.others,
    options.log,
  );
  const t = trivial.runs[0]!;
  options.log(`  trivial https handler: ${Math.round(t.perSecond)} req/s; ${t.note}`);
  const fsyncs: number[][] = [];
  const kept = await quietRuns(
    runCount(options),
    async (i) => {
      fsyncs.push(fsyncLatencies(2000));
      const r = await oneRun(d);
      const c = r.concurrent;
      options.log(
        `  run ${i + 1}: ${Math.round(c.perSecond)} creates/s, p99 ${percentile(c.latenciesMs, 99).toFixed(1)} ms; ` +
          `${cpuSummary(c, r.pid, 'server')}; ` +
          `at ${TARGET_CREATES}/s p99 ${percentile(r.paced.latenciesMs, 99).toFixed(1)} ms; ` +
          `sequential p99 ${percentile(r.sequential.latenciesMs, 99).toFixed(2)} ms`,
      );
      return r;
    },
    (r) =>
      Math.max(
        r.concurrent.otherCores,
        r.paced.otherCores,
        r.pacedShare.otherCores,
        r.sequential.otherCores,
      ),
    options.log,
  );
  return [...rows(kept, t), ...fsyncRows(fsyncs)];
}

/** Context: the disk's fsync latency, measured for 2 s before each run. */
function fsyncRows(fsyncs: readonly number[][]): BenchRow[] {
  const p50 = fsyncs.map((f) => percentile(f, 50));
  const p99 = fsyncs.map((f) => percentile(f, 99));
  return [
    {
      name: 'raw fsync latency p50 (1 KiB append + fsync)',
      value: round(median(p50)),
      unit: 'ms',
      runs: p50.map(round),
    },
    {
      name: 'raw fsync latency p99 (1 KiB append + fsync)',
      value: round(median(p99)),
      unit: 'ms',
      runs: p99.map(round),
      note: 'measured for 2 s before each run; a durable create waits for at least one fsync, so its p99 cannot be below this',
    },
  ];
}

function rows(kept: Kept<RunResult>, trivial: Trivial): BenchRow[] {
  const runs = kept.runs;
  const last = runs.at(-1)!;
  const rate = runs.map((r) => r.concurrent.perSecond);
  const p99 = runs.map((r) => percentile(r.concurrent.latenciesMs, 99));
  const p50 = runs.map((r) => percentile(r.concurrent.latenciesMs, 50));
  const pacedP99 = runs.map((r) => percentile(r.paced.latenciesMs, 99));
  const pacedP50 = runs.map((r) => percentile(r.paced.latenciesMs, 50));
  const pacedRate = runs.map((r) => r.paced.perSecond);
  const shareP99 = runs.map((r) => percentile(r.pacedShare.latenciesMs, 99));
  const shareP50 = runs.map((r) => percentile(r.pacedShare.latenciesMs, 50));
  const shareRate = runs.map((r) => r.pacedShare.perSecond);
  const pacedLast = `${cpuSummary(last.paced, last.pid, 'server')} (last run)`;
  const seqP99 = runs.map((r) => percentile(r.sequential.latenciesMs, 99));
  const seqP50 = runs.map((r) => percentile(r.sequential.latenciesMs, 50));
  const seqRate = runs.map((r) => r.sequential.perSecond);
  const cpu = `${cpuSummary(last.concurrent, last.pid, 'server')} (last run)`;
  const medianRate = median(rate);
  return [
    {
      name: 'durable creates/s via HTTPS (64 clients, 1 KiB ConfigMaps)',
      value: Math.round(medianRate),
      unit: 'creates/s',
      runs: rate.map(Math.round),
      target: `>= ${TARGET_CREATES}`,
      met: medianRate >= TARGET_CREATES,
      note: `fleetyard up (SQLite), ${PROCESSES} generator processes × ${CONNECTIONS_PER_PROCESS} keep-alive connections, 1 in flight each; ${cpu}; ${contentionNote(kept)}`,
    },
    {
      name: `create latency p99 at ${TARGET_CREATES} creates/s (64 clients, paced)`,
      value: round(median(pacedP99)),
      unit: 'ms',
      runs: pacedP99.map(round),
      target: `<= ${TARGET_P99_MS}`,
      met: median(pacedP99) <= TARGET_P99_MS,
      note: `achieved ${pacedRate.map(Math.round).join(' / ')} creates/s; latency from each request's due time; ${pacedLast}`,
    },
    {
      name: `create latency p50 at ${TARGET_CREATES} creates/s (64 clients, paced)`,
      value: round(median(pacedP50)),
      unit: 'ms',
      runs: pacedP50.map(round),
    },
    {
      name: `create latency p99 at ${Math.round(TARGET_SHARE_OF_SATURATION * 100)} % of this run's saturation (64 clients, paced)`,
      value: round(median(shareP99)),
      unit: 'ms',
      runs: shareP99.map(round),
      target: `<= ${TARGET_P99_MS}`,
      met: median(shareP99) <= TARGET_P99_MS,
      note: `the relative load 4,000/s was on the machine the target was set on (4,000 of 6,851/s saturated); paced at ${shareRate.map(Math.round).join(' / ')} creates/s on a fresh server; p50 ${round(median(shareP50))} ms; ${cpuSummary(last.pacedShare, last.pacedSharePid, 'server')} (last run)`,
    },
    {
      name: 'create latency p99 at 64 clients, saturated (context)',
      value: round(median(p99)),
      unit: 'ms',
      runs: p99.map(round),
      note: 'closed loop at full throughput: the event loop is the queue, mean latency = 64 ÷ throughput',
    },
    {
      name: 'create latency p50 at 64 clients, saturated (context)',
      value: round(median(p50)),
      unit: 'ms',
      runs: p50.map(round),
    },
    {
      name: 'create latency p99, one sequential client',
      value: round(median(seqP99)),
      unit: 'ms',
      runs: seqP99.map(round),
      target: `<= ${TARGET_SEQ_P99_MS}`,
      met: median(seqP99) <= TARGET_SEQ_P99_MS,
    },
    {
      name: 'create latency p50, one sequential client',
      value: round(median(seqP50)),
      unit: 'ms',
      runs: seqP50.map(round),
    },
    {
      name: 'creates/s, one sequential client',
      value: Math.round(median(seqRate)),
      unit: 'creates/s',
      runs: seqRate.map(Math.round),
    },
    {
      name: 'trivial node:https JSON handler, same generators (context)',
      value: Math.round(trivial.perSecond),
      unit: 'req/s',
      note: trivial.note,
    },
    {
      name: `trivial handler p99 at ${TARGET_CREATES} req/s paced (the method's floor)`,
      value: round(trivial.pacedP99),
      unit: 'ms',
    },
  ];
}
