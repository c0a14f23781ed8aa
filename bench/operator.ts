/**
 * The celld operator (issue 6): 100 PersistentFleets of 5 members on one `fleetyard up`,
 * with the operator in a process of its own so its CPU and memory are its own: the server
 * runs every controller but the embedded operator (`--controllers=*,-celld-operator`), and
 * `fleetyard operator --kubeconfig K --network-policy-enforced --local-test` runs beside it
 * (leader election on, as deployed). No sim annotations: every simulated delay is zero. Nodes:
 * enough for the members' CPU requests (250m each, 16 per 4-core node) with 30 % headroom,
 * the same number in each of 3 zones (42 for 100 fleets).
 *
 * - **Ramp**: from the first fleet's create to every fleet `Ready` (condition True,
 *   `readyReplicas == 5`), seen on one watch of the fleets; ms per member; the operator's CPU
 *   time over it (`/proc/<pid>/stat`) and its share of one core; writes per member.
 * - **Steady state**: after all are Ready and a short settle, the operator's requests over a
 *   window, from the server's debug request log (`--log-level debug` logs each request with
 *   its User-Agent; `apiserver_request_total` has no client label). Target: 0 per minute
 *   beyond watches. Its leader-election Lease renewals are counted apart: they are the
 *   election's, not the reconciler's.
 * - **Lost volume**: member 0 of a fleet loses its PV (`fleetyard chaos lose-volume`'s two
 *   writes) until a new pod (other UID) is Ready on a new claim (other UID, Bound) and the
 *   fleet is Ready again; median of 3, each on a different fleet.
 * - **Peak RSS** of the operator (`VmHWM`) at the end of the run.
 *
 * One ramp per run (it is a single 500-member figure on a fresh server); `--quick`: 20 fleets
 * and a 30 s window instead of 100 and 60 s, one lost volume.
 *
 * @module
 */
import { loadavg } from 'node:os';
import {
  metricsSamples,
  summariseWrites,
  type WriteSummary,
  writeCounts,
} from './lib/cluster-ops.js';
import { cpuWindow } from './lib/contention.js';
import type { ApiClient, Fleetyard } from './lib/fleetyard.js';
import { withClient } from './lib/measure.js';
import {
  createFleets,
  createServiceAccount,
  fleetName,
  fleetSummary,
  loseVolume,
  memberNow,
  type OperatorProcess,
  type OperatorRequests,
  operatorMetrics,
  operatorRequests,
  reconcileCount,
  startOperator,
  waitFleetsReady,
  waitReplaced,
} from './lib/operator-ops.js';
import { type BenchOptions, round, sleep } from './lib/options.js';
import { cpuTimes, peakRssMb, rssMb } from './lib/proc.js';
import { difference } from './lib/prom-text.js';
import { type BenchRow, median } from './lib/report.js';
import { STORAGE_CLUSTER_ZONES, withStorageCluster } from './lib/statefulset-ops.js';

const MEMBERS = 5;
/**
 * A member requests 250m CPU and a simulated node has 4 cores: 16 members per node. Strict
 * placement puts each member of a fleet on its own host and at most 2 in a zone.
 */
const MEMBERS_PER_NODE = 16;
/** Room for the scheduler's zone spread and for a lost member's replacement. */
const NODE_HEADROOM = 1.3;
/**
 * The embedded operator off (a separate `fleetyard operator` process is measured instead);
 * debug logging, because the server's request log is the only per-client request count.
 */
const OPERATOR_OFF_ARGS = ['--controllers=*,-celld-operator', '--log-level', 'debug'];
const ZONE_COUNT = 3;
/** After the last fleet turned Ready, before the steady-state window opens. */
const SETTLE_MS = 5000;
/** The issue's target: no request beyond watches in steady state. */
const TARGET_REQUESTS_PER_MINUTE = 0;
/** The spec: the Go operator lists pods and claims every 5–7 s per fleet. */
const GO_LISTS_PER_FLEET_PER_MINUTE = 2 * (60 / 6);

interface Sizes {
  readonly fleets: number;
  readonly windowMs: number;
  readonly lost: number;
}

/** Nodes for `fleets` fleets' members with headroom, the same number in each zone (≥ 2). */
function nodesFor(fleets: number): number {
  const perZone = Math.ceil((fleets * MEMBERS * NODE_HEADROOM) / MEMBERS_PER_NODE / ZONE_COUNT);
  return ZONE_COUNT * Math.max(2, perZone);
}

function sizes(options: BenchOptions): Sizes {
  return options.quick
    ? { fleets: 20, windowMs: 30_000, lost: 1 }
    : { fleets: 100, windowMs: 60_000, lost: 3 };
}

interface Ramp {
  readonly ms: number;
  readonly operatorCpuSeconds: number;
  readonly serverCores: number;
  readonly others: number;
  readonly reconciles: number;
  readonly writes: WriteSummary;
  /** The operator's own requests over the ramp (from the debug request log). */
  readonly requests: OperatorRequests;
}

interface Steady {
  readonly requests: OperatorRequests;
  readonly minutes: number;
  readonly operatorCpuSeconds: number;
  readonly reconciles: number;
  readonly rssMb: number;
}

interface OperatorRun {
  readonly ramp: Ramp;
  readonly steady: Steady;
  readonly lostMs: number[];
  readonly peakRssMb: number;
}

async function reconciles(op: OperatorProcess): Promise<number> {
  return reconcileCount(await operatorMetrics(op));
}

/** From the first create to every fleet Ready, with the operator's and server's CPU. */
async function ramp(
  fy: Fleetyard,
  client: ApiClient,
  op: OperatorProcess,
  names: readonly string[],
): Promise<Ramp> {
  const before = writeCounts(await metricsSamples(client));
  const reconciles0 = await reconciles(op);
  const waiter = await waitFleetsReady(fy, names, MEMBERS, 120_000 + names.length * 3000);
  const op0 = cpuTimes(op.pid).total;
  const server0 = cpuTimes(fy.pid).total;
  const others = cpuWindow([fy.pid, op.pid]);
  const from = fy.cluster.stderr().length;
  const t0 = performance.now();
  await createFleets(client, names, MEMBERS);
  const at = await waiter.done.then(
    (w) => w.at,
    async (e: unknown) => {
      const why = await withClient(fy, (c) => fleetSummary(c, MEMBERS));
      throw new Error(`${e instanceof Error ? e.message : String(e)}; ${why}`);
    },
  );
  const requests = operatorRequests(fy.cluster.stderr().slice(from));
  const op1 = cpuTimes(op.pid).total;
  const server1 = cpuTimes(fy.pid).total;
  const othersCores = others();
  const seconds = (at - t0) / 1000;
  await sleep(500);
  const after = writeCounts(await withClient(fy, metricsSamples));
  return {
    ms: at - t0,
    operatorCpuSeconds: op1 - op0,
    serverCores: (server1 - server0) / seconds,
    others: othersCores,
    reconciles: (await reconciles(op)) - reconciles0,
    writes: summariseWrites(difference(before, after)),
    requests,
  };
}

/** The operator's requests and CPU over `windowMs` after every fleet is Ready. */
async function steady(fy: Fleetyard, op: OperatorProcess, windowMs: number): Promise<Steady> {
  await sleep(SETTLE_MS);
  const from = fy.cluster.stderr().length;
  const reconciles0 = await reconciles(op);
  const cpu0 = cpuTimes(op.pid).total;
  const t0 = performance.now();
  await sleep(windowMs);
  const cpu1 = cpuTimes(op.pid).total;
  const minutes = (performance.now() - t0) / 60_000;
  const to = fy.cluster.stderr().length;
  return {
    requests: operatorRequests(fy.cluster.stderr().slice(from, to)),
    minutes,
    operatorCpuSeconds: cpu1 - cpu0,
    reconciles: (await reconciles(op)) - reconciles0,
    rssMb: rssMb(op.pid),
  };
}

/** Member 0 of `fleet` loses its volume; ms until it is replaced and the fleet Ready again. */
async function lostVolume(fy: Fleetyard, fleet: string): Promise<number> {
  return withClient(fy, async (c) => {
    const member = await memberNow(c, fleet);
    const waiter = await waitReplaced(fy, member, MEMBERS, 120_000);
    const t0 = performance.now();
    await loseVolume(fy, c, member.claim);
    return (await waiter.done).at - t0;
  });
}

async function operatorRun(s: Sizes, log: (line: string) => void): Promise<OperatorRun> {
  return withStorageCluster(nodesFor(s.fleets), OPERATOR_OFF_ARGS, async (fy, client) => {
    await createServiceAccount(client);
    const op = await startOperator(fy, client);
    try {
      // The Lease is held; give the informers their initial lists.
      await sleep(1000);
      const names = Array.from({ length: s.fleets }, (_, i) => fleetName(i));
      const r = await ramp(fy, client, op, names);
      log(
        `  ${s.fleets} fleets × ${MEMBERS} Ready in ${r.ms.toFixed(0)} ms (${(r.ms / (s.fleets * MEMBERS)).toFixed(1)} ms/member); operator ${r.operatorCpuSeconds.toFixed(2)} s CPU, ${r.reconciles} reconciles; server ${r.serverCores.toFixed(2)} cores; others ${r.others.toFixed(2)}`,
      );
      const st = await steady(fy, op, s.windowMs);
      log(
        `  steady ${(st.minutes * 60).toFixed(0)} s: operator ${st.requests.reconcile} requests beyond watches and its Lease (${st.requests.breakdown || 'none'}), ${st.requests.lease} Lease, ${st.requests.watches} watches ended, ${st.reconciles} reconciles, ${st.operatorCpuSeconds.toFixed(2)} s CPU`,
      );
      const lostMs: number[] = [];
      for (let i = 0; i < s.lost; i++) {
        const fleet = names[Math.floor((i * names.length) / s.lost)]!;
        const ms = await lostVolume(fy, fleet);
        log(`  lost volume of ${fleet}-0 → replaced and fleet Ready in ${ms.toFixed(0)} ms`);
        lostMs.push(ms);
      }
      return { ramp: r, steady: st, lostMs, peakRssMb: peakRssMb(op.pid) };
    } catch (e) {
      log(`  operator log (tail): ${op.log().slice(-4000)}`);
      throw e;
    } finally {
      await op.stop();
    }
  });
}

export async function benchOperator(options: BenchOptions): Promise<BenchRow[]> {
  const s = sizes(options);
  const load = loadavg()[0]!.toFixed(2);
  const run = await operatorRun(s, options.log);
  return rows(s, run, load, options.quick);
}

/** The first `n` entries of a `key count, key count, …` breakdown. */
function topOf(breakdown: string, n: number): string {
  const parts = breakdown.split(', ');
  return parts.length <= n ? breakdown : `${parts.slice(0, n).join(', ')}, …`;
}

function rows(s: Sizes, run: OperatorRun, load: string, quick: boolean): BenchRow[] {
  const { ramp: r, steady: st } = run;
  const members = s.fleets * MEMBERS;
  const q = quick ? `QUICK: ${s.fleets} fleets instead of 100; ` : '';
  const setup = `fleetyard up --ephemeral --nodes ${nodesFor(s.fleets)} --zones ${STORAGE_CLUSTER_ZONES} --controllers=*,-celld-operator --log-level debug, plus fleetyard operator --kubeconfig K --network-policy-enforced --local-test (leader election on); PersistentFleets of ${MEMBERS} on StorageClass ebs, Strict placement over 3 zones, one bucket each, one shared ServiceAccount; no sim annotations (zero delays); 1 run`;
  const perMinute = st.requests.reconcile / st.minutes;
  const goEstimate = GO_LISTS_PER_FLEET_PER_MINUTE * s.fleets;
  const lost = median(run.lostMs);
  return [
    {
      name: `operator: ${s.fleets} fleets × ${MEMBERS} members → all Ready`,
      value: round(r.ms / 1000),
      unit: 's',
      note: `${q}${setup}; from the first create to every fleet Ready (condition Ready True, readyReplicas ${MEMBERS}) on one watch of the fleets; server ${r.serverCores.toFixed(2)} cores; other processes ${r.others.toFixed(2)} cores; load average ${load} at the start`,
    },
    {
      name: `operator: ${s.fleets} × ${MEMBERS} fleets → all Ready, per member`,
      value: round(r.ms / members),
      unit: 'ms/member',
      note: `${q}${(r.writes.workload / members).toFixed(1)} writes per member (Events ${(r.writes.events / members).toFixed(1)}), node heartbeats aside (${r.writes.heartbeats}); ${r.writes.breakdown}`,
    },
    {
      name: `operator CPU during the ramp (${s.fleets} × ${MEMBERS})`,
      value: round(r.operatorCpuSeconds),
      unit: 's',
      note: `${q}${((100 * r.operatorCpuSeconds) / (r.ms / 1000)).toFixed(1)} % of one core over ${(r.ms / 1000).toFixed(1)} s; ${r.reconciles} reconciles (${(r.reconciles / s.fleets).toFixed(1)} per fleet); utime + stime of the operator process`,
    },
    {
      name: `operator requests during the ramp (${s.fleets} × ${MEMBERS}), per fleet`,
      value: round(r.requests.reconcile / s.fleets),
      unit: 'requests/fleet',
      note: `${q}${r.requests.reconcile} non-watch requests from the operator's clients (its Lease aside: ${r.requests.lease}), from the server's debug request log: ${topOf(r.requests.breakdown, 10)}`,
    },
    {
      name: `operator peak RSS (${s.fleets} × ${MEMBERS}, after ramp, steady state and lost volumes)`,
      value: round(run.peakRssMb),
      unit: 'MB',
      note: `${q}VmHWM of the fleetyard operator process; RSS at the end of the steady window ${st.rssMb.toFixed(1)} MB`,
    },
    {
      name: `operator requests/min in steady state beyond watches (${s.fleets} fleets Ready)`,
      value: round(perMinute),
      unit: 'requests/min',
      target: `<= ${TARGET_REQUESTS_PER_MINUTE}`,
      met: perMinute <= TARGET_REQUESTS_PER_MINUTE,
      note: `${q}from the server's debug request log (User-Agent celld-operator/…), ${(st.minutes * 60).toFixed(0)} s window opened ${SETTLE_MS / 1000} s after the last fleet turned Ready; ${st.requests.reconcile} requests${st.requests.breakdown ? ` (${st.requests.breakdown})` : ''}; its leader-election Lease is counted apart (next row); ${st.requests.watches} of its watches ended in the window; ${st.reconciles} reconciles; operator CPU ${st.operatorCpuSeconds.toFixed(2)} s; every client's non-watch requests meanwhile: ${st.requests.everyone}. For context, an estimate from the Go operator's design (docs/design/operator.md §10; not measured): it lists pods and claims every 5–7 s per fleet, ≈ ${goEstimate.toLocaleString('en-US')}+ requests/min for ${s.fleets} fleets`,
    },
    {
      name: 'operator leader-election Lease requests/min in steady state',
      value: round(st.requests.lease / st.minutes),
      unit: 'requests/min',
      note: `${q}the Lease renewals of fleetyard operator's leader election (${st.requests.lease} in the window), independent of the number of fleets`,
    },
    {
      name: 'operator: lost volume → replacement member Ready',
      value: round(lost),
      unit: 'ms',
      runs: run.lostMs.map(round),
      note: `${q}member 0's PV deleted and its finalizers stripped (fleetyard chaos lose-volume), ${run.lostMs.length === 1 ? 'one fleet' : `median of ${run.lostMs.length}, each a different fleet`}, on the same server after the steady window; until a new pod (other UID) is Ready on a new claim (other UID, Bound) and the fleet is Ready again, each seen on a watch; zero simulated delays`,
    },
  ];
}
