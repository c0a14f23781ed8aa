/**
 * Watch fan-out: 100 watchers on one namespace's ConfigMaps while a paced writer sends
 * 1,000 writes/s to `fleetyard up` (SQLite, durable), a fresh server per run.
 *
 * - Watchers: 2 processes × 50 streams (`lib/watch-worker.ts`), each its own HTTPS
 *   connection, all started at the revision of a list taken before the writes.
 * - Writer: 1 process, 64 keep-alive connections, writes paced by index to 1,000/s for 10 s:
 *   unconditional updates of 100 ConfigMaps (created before the watches start) round-robin.
 *   Each write carries its index and its send time (wall clock, sub-ms) in its data.
 * - Lag: receive time at the watcher − send time, so it includes the durable commit.
 * - Completeness: every watcher must receive exactly the acknowledged writes, in revision
 *   order (count, strictly increasing revisions, and a hash of the revision sequence).
 *
 * @module
 */
import { contentionNote, quietRuns } from './lib/contention.js';
import { ApiClient, type Fleetyard, startFleetyard } from './lib/fleetyard.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { type BenchOptions, round, runCount } from './lib/options.js';
import { type BenchRow, median, percentile } from './lib/report.js';
import type { WatchWorkerConfig, WatchWorkerResult } from './lib/watch-worker.js';
import { revisionHash } from './lib/watch-worker.js';
import { forkWorker, type WorkerHandle } from './lib/worker-ipc.js';

const WATCHERS = 100;
const WATCHER_PROCESSES = 2;
const WRITES_PER_SECOND = 1000;
/** Enough that a 64 ms write still keeps the pace (1,000/s × 64 ms = 64 in flight). */
const WRITER_CONNECTIONS = 64;
const OBJECTS = 100;
const TARGET_P99_MS = 25;
const WATCH_WORKER = new URL('./lib/watch-worker.ts', import.meta.url);

interface RunResult {
  readonly lagsMs: number[];
  /** Events missing, extra or out of order, summed over the watchers. */
  readonly faults: number;
  readonly faultNotes: string[];
  readonly writes: LoadResult;
  readonly serverPid: number;
  /** CPU of the server, the writer and the watcher processes. */
  readonly clientCores: string;
  /** Cores other processes used meanwhile (lib/contention.ts). */
  readonly others: number;
}

async function startWatchers(fy: Fleetyard, fromRevision: number, durationMs: number) {
  const timeoutSeconds = Math.ceil(durationMs / 1000) + 60;
  const config: WatchWorkerConfig = {
    target: fy.target,
    token: fy.token,
    path: `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${fromRevision}&timeoutSeconds=${timeoutSeconds}`,
    watchers: WATCHERS / WATCHER_PROCESSES,
  };
  const workers: WorkerHandle<WatchWorkerResult>[] = [];
  for (let i = 0; i < WATCHER_PROCESSES; i++) {
    workers.push(
      forkWorker<WatchWorkerConfig, WatchWorkerResult>(WATCH_WORKER, config, durationMs + 60_000),
    );
  }
  await Promise.all(workers.map((w) => w.ready));
  return workers;
}

/** The load's "other processes" still include our watcher processes: take them out. */
function othersThan(writes: LoadResult, results: readonly WatchWorkerResult[]): number {
  return Math.max(0, writes.otherCores - results.reduce((n, r) => n + r.cores, 0));
}

function cpuNote(writes: LoadResult, pid: number, results: readonly WatchWorkerResult[]): string {
  const server = writes.observed.get(pid);
  const watchers = results.map((r) => r.cores.toFixed(2)).join(' + ');
  return (
    `server ${server?.total.toFixed(2)} cores (main thread ${server?.main.toFixed(2)}), ` +
    `writer ${writes.generatorCores.toFixed(2)}, watcher processes ${watchers}, ` +
    `machine ${writes.machineCores.toFixed(2)} of 2 cores busy (other processes ${othersThan(writes, results).toFixed(2)})`
  );
}

/** Compares every watcher's stream with the acknowledged writes. */
function judge(
  results: readonly WatchWorkerResult[],
  revisions: readonly number[],
): { faults: number; notes: string[] } {
  const sorted = [...revisions].sort((a, b) => a - b);
  const expectedHash = sorted.reduce(revisionHash, 0);
  let faults = 0;
  const notes: string[] = [];
  for (const w of results.flatMap((r) => r.watchers)) {
    const missing = Math.abs(sorted.length - w.events);
    const bad = missing + w.outOfOrder + (missing === 0 && w.hash !== expectedHash ? 1 : 0);
    faults += bad;
    if ((bad > 0 || w.problem !== undefined) && notes.length < 3) {
      notes.push(
        `watcher got ${w.events}/${sorted.length} events, ${w.outOfOrder} out of order${w.problem ? `, ${w.problem}` : ''}`,
      );
    }
  }
  return { faults, notes };
}

/** Creates `fan-0`…`fan-99`; returns the list taken after them (its revision starts the watches). */
async function createObjects(
  client: ApiClient,
): Promise<{ metadata: { resourceVersion: string } }> {
  const path = '/api/v1/namespaces/default/configmaps';
  for (let i = 0; i < OBJECTS; i++) {
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fan-${i}"},"data":{"seq":"-1"}}`;
    const res = await client.request('POST', path, body);
    if (res.status !== 201)
      throw new Error(`create fan-${i}: HTTP ${res.status} ${res.body.toString()}`);
  }
  return client.getJson(path);
}

async function oneRun(durationMs: number): Promise<RunResult> {
  const fy = await startFleetyard();
  let watchers: WorkerHandle<WatchWorkerResult>[] = [];
  try {
    const client = await ApiClient.open(fy);
    const list = await createObjects(client);
    client.close();
    watchers = await startWatchers(fy, Number(list.metadata.resourceVersion), durationMs);
    const writes = await runLoad({
      target: fy.target,
      workload: {
        kind: 'configmap-stamped',
        authority: fy.authority,
        token: fy.token,
        objects: OBJECTS,
      },
      processes: 1,
      connectionsPerProcess: WRITER_CONNECTIONS,
      ratePerSecond: WRITES_PER_SECOND,
      durationMs,
      recordRevisions: true,
      observePids: [fy.pid],
    });
    if (writes.errors > 0)
      throw new Error(`writes failed (${writes.errors}): ${writes.firstError}`);
    const lastRevision = Math.max(...writes.revisions);
    for (const w of watchers) w.start({ lastRevision });
    const results = await Promise.all(watchers.map((w) => w.result));
    const { faults, notes } = judge(results, writes.revisions);
    return {
      lagsMs: results.flatMap((r) => Array.from(r.lagsMs)),
      faults,
      faultNotes: notes,
      writes,
      serverPid: fy.pid,
      clientCores: cpuNote(writes, fy.pid, results),
      others: othersThan(writes, results),
    };
  } finally {
    await Promise.all(watchers.map((w) => w.stop()));
    await fy.stop();
  }
}

export async function benchWatchFanout(options: BenchOptions): Promise<BenchRow[]> {
  const durationMs = options.quick ? 5000 : 10_000;
  const kept = await quietRuns(
    runCount(options),
    async (i) => {
      const r = await oneRun(durationMs);
      options.log(
        `  run ${i + 1}: ${Math.round(r.writes.perSecond)} writes/s (ack p99 ${percentile(r.writes.latenciesMs, 99).toFixed(1)} ms), ${r.lagsMs.length} deliveries, lag p50 ${percentile(r.lagsMs, 50).toFixed(1)} p99 ${percentile(r.lagsMs, 99).toFixed(1)} ms, faults ${r.faults}; ${r.clientCores}`,
      );
      for (const n of r.faultNotes) options.log(`    ${n}`);
      return r;
    },
    (r) => r.others,
    options.log,
  );
  const runs = kept.runs;
  const p99 = runs.map((r) => percentile(r.lagsMs, 99));
  const p50 = runs.map((r) => percentile(r.lagsMs, 50));
  const max = runs.map((r) => r.lagsMs.reduce((m, x) => Math.max(m, x), 0));
  const rate = runs.map((r) => r.writes.perSecond);
  // Context: a delivery cannot arrive before its write is durable, so the writer's own
  // acknowledgement latency bounds the lag from below (send → commit → event → watcher).
  // It counts from when each write was due, so a writer that fell behind its pace shows
  // here and not in the lag (which counts from the stamp taken when the write was sent).
  const ackP50 = runs.map((r) => percentile(r.writes.latenciesMs, 50));
  const ackP99 = runs.map((r) => percentile(r.writes.latenciesMs, 99));
  const faults = runs.reduce((n, r) => n + r.faults, 0);
  const last = runs.at(-1)!;
  return [
    {
      name: 'watch delivery lag p99 (100 watchers, 1,000 writes/s)',
      value: round(median(p99)),
      unit: 'ms',
      runs: p99.map(round),
      target: `<= ${TARGET_P99_MS}`,
      met: median(p99) <= TARGET_P99_MS,
      note: `send → receive, including the durable commit; ${WATCHER_PROCESSES} watcher processes × ${WATCHERS / WATCHER_PROCESSES} streams; ${last.clientCores} (last run); ${contentionNote(kept)}`,
    },
    { name: 'watch delivery lag p50', value: round(median(p50)), unit: 'ms', runs: p50.map(round) },
    { name: 'watch delivery lag max', value: round(median(max)), unit: 'ms', runs: max.map(round) },
    {
      name: 'watch events missing or out of order (all watchers, all runs)',
      value: faults,
      unit: 'events',
      target: '= 0',
      met: faults === 0,
      note: `${runs.reduce((n, r) => n + r.lagsMs.length, 0)} deliveries checked against the acknowledged writes`,
    },
    {
      name: 'watch benchmark write rate achieved',
      value: Math.round(median(rate)),
      unit: 'writes/s',
      runs: rate.map(Math.round),
    },
    {
      name: 'watch benchmark write acknowledgement p50 (from when each write was due)',
      value: round(median(ackP50)),
      unit: 'ms',
      runs: ackP50.map(round),
    },
    {
      name: 'watch benchmark write acknowledgement p99',
      value: round(median(ackP99)),
      unit: 'ms',
      runs: ackP99.map(round),
    },
  ];
}
