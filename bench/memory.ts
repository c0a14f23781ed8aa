/**
 * Memory and list latency of `fleetyard up` (SQLite), a fresh server per run:
 *
 * - idle RSS (VmRSS from /proc) 1 s after the ready line, and at rest, 15 s after it: V8's memory
 *   reducer shrinks the young generation that start-up grew (16 MiB) about 8–12 s after
 *   allocation stops, so the 1-s figure still holds start-up's garbage (issue 20);
 * - RSS with 10,000 pods stored, created through the API (Deployment-like specs with two
 *   containers, ~1.1 KiB sent, ~1.6 KiB stored after defaulting), 1 s after the last create;
 * - `GET /api/v1/pods` of all 10,000: request written → last body byte read on a warm
 *   keep-alive connection, median of 7 (the first list is untimed and checks the count).
 *
 * @module
 */
import { contentionNote, cpuWindow, type Kept, quietRuns } from './lib/contention.js';
import { ApiClient, startFleetyard } from './lib/fleetyard.js';
import { runLoad } from './lib/load.js';
import { type BenchOptions, round, runCount, sleep } from './lib/options.js';
import { cpuTimes, peakRssMb, rssMb } from './lib/proc.js';
import { type BenchRow, median } from './lib/report.js';

const PODS = 10_000;
const TARGET_IDLE_MB = 80;
/** Issue 20 (issue 17's was 120 MB): the default `up`, every controller running, ≤ 110 MB idle. */
const TARGET_CLUSTER_IDLE_MB = 110;
const TARGET_PODS_MB = 300;
/** Issue 20 (issue 2's was 150 ms). */
const TARGET_LIST_MS = 100;
/** When an idle server is at rest: past V8's memory reducer (see the module comment). */
const AT_REST_MS = 15_000;

interface RunResult {
  readonly idleMb: number;
  readonly restMb: number;
  /** The default `up`: API server plus every controller and 3 simulated nodes. */
  readonly clusterMb: number;
  readonly clusterRestMb: number;
  readonly podsMb: number;
  readonly afterListMb: number;
  readonly peakMb: number;
  readonly listMs: number[];
  readonly listBytes: number;
  readonly lists: Kept<TimedList>;
  readonly createsPerSecond: number;
}

interface TimedList {
  readonly ms: number;
  readonly bytes: number;
  readonly others: number;
  /** CPU the server (all threads) and this client spent on the list, ms. */
  readonly serverCpuMs: number;
  readonly clientCpuMs: number;
}

async function timedLists(
  client: ApiClient,
  pid: number,
  lists: number,
  log: (line: string) => void,
): Promise<Kept<TimedList>> {
  const first = await client.getJson<{ items: unknown[] }>('/api/v1/pods');
  if (first.items.length !== PODS)
    throw new Error(`listed ${first.items.length} pods, want ${PODS}`);
  const once = async (): Promise<TimedList> => {
    const others = cpuWindow([pid]);
    const server0 = cpuTimes(pid).total;
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await client.request('GET', '/api/v1/pods');
    const ms = performance.now() - t0;
    const clientCpu = process.cpuUsage(client0);
    if (res.status !== 200) throw new Error(`list: HTTP ${res.status}`);
    return {
      ms,
      bytes: res.body.length,
      others: others(),
      serverCpuMs: (cpuTimes(pid).total - server0) * 1000,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    };
  };
  return quietRuns(lists, once, (l) => l.others, log);
}

/** RSS 1 s after the ready line and at rest (`AT_REST_MS` after it), of a server left alone. */
async function idleAndRestMb(pid: number): Promise<{ idle: number; rest: number }> {
  await sleep(1000);
  const idle = rssMb(pid);
  await sleep(AT_REST_MS - 1000);
  return { idle, rest: rssMb(pid) };
}

/** The same for the default `fleetyard up` (3 nodes, every controller). */
async function clusterIdleMb(): Promise<{ idle: number; rest: number }> {
  const fy = await startFleetyard({ cluster: true });
  try {
    return await idleAndRestMb(fy.pid);
  } finally {
    await fy.stop();
  }
}

async function oneRun(lists: number, log: (line: string) => void): Promise<RunResult> {
  const cluster = await clusterIdleMb();
  const fy = await startFleetyard();
  try {
    const alone = await idleAndRestMb(fy.pid);
    const idleMb = alone.idle;
    const fill = await runLoad({
      target: fy.target,
      workload: { kind: 'pod-create', authority: fy.authority, token: fy.token },
      processes: 2,
      connectionsPerProcess: 16,
      requests: PODS,
    });
    if (fill.errors > 0 || fill.ok !== PODS) {
      throw new Error(
        `pod creates: ${fill.ok} ok, ${fill.errors} failed, first: ${fill.firstError}`,
      );
    }
    await sleep(1000);
    const podsMb = rssMb(fy.pid);
    const client = await ApiClient.open(fy);
    try {
      const list = await timedLists(client, fy.pid, lists, log);
      return {
        idleMb,
        restMb: alone.rest,
        clusterMb: cluster.idle,
        clusterRestMb: cluster.rest,
        podsMb,
        afterListMb: rssMb(fy.pid),
        peakMb: peakRssMb(fy.pid),
        listMs: list.runs.map((l) => l.ms),
        listBytes: list.runs[0]!.bytes,
        lists: list,
        createsPerSecond: fill.perSecond,
      };
    } finally {
      client.close();
    }
  } finally {
    await fy.stop();
  }
}

export async function benchMemory(options: BenchOptions): Promise<BenchRow[]> {
  const runs: RunResult[] = [];
  for (let i = 0; i < runCount(options); i++) {
    const r = await oneRun(options.quick ? 3 : 7, options.log);
    options.log(
      `  run ${i + 1}: idle ${r.idleMb.toFixed(1)} MB (at rest ${r.restMb.toFixed(1)}; up ${r.clusterMb.toFixed(1)}, at rest ${r.clusterRestMb.toFixed(1)}), 10k pods ${r.podsMb.toFixed(1)} MB, after lists ${r.afterListMb.toFixed(1)} MB, peak ${r.peakMb.toFixed(1)} MB; list ${r.listMs.map((x) => x.toFixed(0)).join(' ')} ms (${(r.listBytes / 1e6).toFixed(1)} MB)`,
    );
    runs.push(r);
  }
  const idle = runs.map((r) => r.idleMb);
  const clusterIdle = runs.map((r) => r.clusterMb);
  const rest = runs.map((r) => r.restMb);
  const clusterRest = runs.map((r) => r.clusterRestMb);
  const pods = runs.map((r) => r.podsMb);
  const list = runs.map((r) => median(r.listMs));
  const last = runs.at(-1)!;
  return [
    {
      name: 'RSS idle at rest (API server alone, --controllers=)',
      value: round(median(rest)),
      unit: 'MB',
      runs: rest.map(round),
      target: `<= ${TARGET_IDLE_MB}`,
      met: median(rest) <= TARGET_IDLE_MB,
      note: `${AT_REST_MS / 1000} s after the ready line, nothing asked of it (issue 20 moved the target here from 1 s after the line: V8's memory reducer returns start-up's young generation about 8–12 s after allocation stops)`,
    },
    {
      name: 'RSS idle at rest (default up: 3 nodes, every controller, their thread)',
      value: round(median(clusterRest)),
      unit: 'MB',
      runs: clusterRest.map(round),
      target: `<= ${TARGET_CLUSTER_IDLE_MB}`,
      met: median(clusterRest) <= TARGET_CLUSTER_IDLE_MB,
      note: `${AT_REST_MS / 1000} s after the ready line; the controller thread is a second V8 isolate with its own heap and caches, and its nodes renew Leases every 10 s`,
    },
    {
      name: 'RSS 1 s after start (API server alone, --controllers=)',
      value: round(median(idle)),
      unit: 'MB',
      runs: idle.map(round),
      note: 'context: the figure issues 2–19 targeted (start-up garbage still in the young generation)',
    },
    {
      name: 'RSS 1 s after start (default up)',
      value: round(median(clusterIdle)),
      unit: 'MB',
      runs: clusterIdle.map(round),
      note: 'context, as the row above',
    },
    {
      name: 'RSS with 10,000 pods stored',
      value: round(median(pods)),
      unit: 'MB',
      runs: pods.map(round),
      target: `<= ${TARGET_PODS_MB}`,
      met: median(pods) <= TARGET_PODS_MB,
      note: `pods created through the API at ${Math.round(last.createsPerSecond)}/s (2 processes × 16 connections); after the lists ${last.afterListMb.toFixed(0)} MB, peak (VmHWM) ${last.peakMb.toFixed(0)} MB (last run)`,
    },
    {
      name: 'list 10,000 pods (GET /api/v1/pods)',
      value: round(median(list)),
      unit: 'ms',
      runs: list.map(round),
      target: `<= ${TARGET_LIST_MS}`,
      met: median(list) <= TARGET_LIST_MS,
      note: `full ${(last.listBytes / 1e6).toFixed(1)} MB response on a keep-alive HTTPS connection; per run the median of ${last.listMs.length} lists; CPU per list (last run, medians): server ${median(last.lists.runs.map((l) => l.serverCpuMs)).toFixed(0)} ms, client ${median(last.lists.runs.map((l) => l.clientCpuMs)).toFixed(0)} ms; ${contentionNote(last.lists)}`,
    },
  ];
}
