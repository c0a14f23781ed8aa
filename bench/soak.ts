/**
 * The soak group (`npm run bench -- --soak 48h`, issue 20): one durable `fleetyard up` (SQLite
 * data dir, every controller, the embedded celld operator) on the virtual clock, driven
 * through D of cluster time in steps of 10 cluster minutes. Each step:
 *
 * - the clock is advanced 10 minutes (`fleetyard clock advance`, in process): every timer due
 *   in that span fires at its cluster time (1,000 nodes renew their Lease every 10 s, post their
 *   status when it changed or every 5 min) while the cluster keeps up; then it stands still
 *   (`--speed 0`) while the driver writes;
 * - the Deployment `soak-web` churns: a rolling update (new image) one step, a scale between
 *   R and R/2 the next;
 * - every third step a failure hits the celld fleets: a member's volume lost (`fleetyard chaos
 *   lose-volume`) or its containers crashed (`fleetyard chaos crash`), in turn;
 * - a ledger of 20 ConfigMaps gets one acknowledged counter bump each.
 *
 * Two raw watches stay open the whole time (the ledger's ConfigMaps and the node Leases); each
 * must see every change in order, or notice its gap (a 410 Gone) and relist. At the end every
 * watch is compared with a fresh list ("no watch falls behind unnoticed"), the server is
 * SIGKILLed with ledger writes in flight, restarted on its data dir, and every acknowledged
 * counter must be there ("no acknowledged write lost").
 *
 * Samples (DB file, WAL file, RSS) after the first cluster hour and at the end give the rows:
 * DB + WAL growth (target ≤ 2×) and RSS growth (target ≤ 10 %). Cluster time is not wall time:
 * the notes say how much wall time and how many writes the span took, and the Lease renewals
 * counted against the 1 per node per 10 s of cluster time they are due at.
 *
 * `--quick`: 100 nodes, a 50-replica Deployment, 2 fleets of 3 members.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { runClock } from '../src/cli/clock-command.js';
import { parseGoDuration } from '../src/sim/kubelet/annotations.js';
import { removeDir, tempDir } from './lib/cleanup.js';
import { metricsSamples, nodesReady, writeCounts } from './lib/cluster-ops.js';
import { ApiClient, type Fleetyard, startFleetyard } from './lib/fleetyard.js';
import { type BenchOptions, round } from './lib/options.js';
import { rssMb } from './lib/proc.js';
import type { BenchRow } from './lib/report.js';
import { Ledger, WatchChecker } from './lib/soak-watch.js';
import { type SoakSizes, soakFailure, startWorkload, workloadStep } from './lib/soak-workload.js';

const STEP_MS = 10 * 60_000;
const HOUR_MS = 3_600_000;
const LEDGER_KEYS = 20;
const LEDGER_NAMESPACE = 'soak-ledger';
const CLOCK = '/apis/sim.fleetyard.dev/v1alpha1/clocks/cluster';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
/** Upstream's renew interval: a quarter of leaseDurationSeconds 40. */
const LEASE_RENEW_MS = 10_000;

function sizes(options: BenchOptions): SoakSizes {
  return options.quick
    ? { nodes: 100, replicas: 50, fleets: 2, members: 3 }
    : { nodes: 1000, replicas: 300, fleets: 5, members: 5 };
}

interface Sample {
  /** Cluster time since the start, as the Clock object reports it. */
  readonly clusterMs: number;
  readonly wallS: number;
  readonly dbBytes: number;
  readonly walBytes: number;
  readonly rssMb: number;
  readonly writes: number;
  /** Node Lease renewals: the events of the watch on kube-node-lease. */
  readonly leaseUpdates: number;
  readonly objects: number;
  readonly events: number;
}

export async function benchSoak(options: BenchOptions): Promise<BenchRow[]> {
  const text = options.soakDuration ?? '48h';
  const durationMs = parseGoDuration(text);
  if (durationMs === undefined || durationMs < HOUR_MS) {
    throw new Error(`--soak ${text}: want a Go duration of at least 1h, e.g. 48h, 2h`);
  }
  const s = sizes(options);
  const dataDir = tempDir('fleetyard-soak-');
  const args = ['--nodes', String(s.nodes), '--clock', 'virtual', '--speed', '0'];
  const start = (): Promise<Fleetyard> =>
    startFleetyard({ dataDir, cluster: true, args, timeoutMs: 300_000 });
  options.log(`soak: up --nodes ${s.nodes} --clock virtual (SQLite in a temp data dir)`);
  let fy = await start();
  let client = await ApiClient.open(fy);
  const ledger = new Ledger(LEDGER_NAMESPACE);
  const leaseWatch = new WatchChecker(fy, LEASES);
  const watches = [
    new WatchChecker(fy, `/api/v1/namespaces/${LEDGER_NAMESPACE}/configmaps`),
    leaseWatch,
  ];
  try {
    await nodesReady(fy, s.nodes, 300_000);
    await startWorkload(fy, client, s, LEDGER_NAMESPACE);
    for (const w of watches) await w.start();
    const wall0 = performance.now();
    const base = await counters(client);
    const time0 = await clusterTime(client);
    const sample = async (): Promise<Sample> => {
      const c = await counters(client);
      const db = path.join(dataDir, 'state.db');
      return {
        clusterMs: (await clusterTime(client)) - time0,
        wallS: (performance.now() - wall0) / 1000,
        dbBytes: fileSize(db),
        walBytes: fileSize(`${db}-wal`),
        rssMb: rssMb(fy.pid),
        writes: c.writes - base.writes,
        leaseUpdates: leaseWatch.facts().events,
        objects: c.objects,
        events: await eventCount(client),
      };
    };
    let firstHour: Sample | undefined;
    let walPeak = 0;
    const steps = Math.ceil(durationMs / STEP_MS);
    for (let step = 1; step <= steps; step++) {
      await advance(fy, STEP_MS);
      await workloadStep(fy, client, s, step);
      if (step % 3 === 0) options.log(`  ${await soakFailure(fy, client, s, step / 3)}`);
      await ledger.bump(client, LEDGER_KEYS);
      walPeak = Math.max(walPeak, fileSize(path.join(dataDir, 'state.db-wal')));
      if ((step * STEP_MS) % HOUR_MS === 0) {
        const now = await sample();
        if (step * STEP_MS === HOUR_MS) firstHour = now;
        options.log(
          `  cluster ${round(now.clusterMs / HOUR_MS)} h: wall ${round(now.wallS)} s, ${now.writes} writes (${now.leaseUpdates} Lease renewals), ${now.objects} objects (${now.events} Events), db ${mb(now.dbBytes)} MB, wal ${mb(now.walBytes)} MB, rss ${round(now.rssMb)} MB`,
        );
      }
    }
    const end = await sample();
    const behind: number[] = [];
    for (const w of watches) behind.push(await w.unnoticedDifferences());
    for (const w of watches) w.stop();
    const lost = await killAndCheck();
    return rows(s, firstHour ?? end, end, walPeak, watches, behind, ledger, lost);
  } finally {
    for (const w of watches) w.stop();
    client.close();
    await fy.stop();
    removeDir(dataDir);
  }

  /** SIGKILL with ledger writes in flight, restart on the same data dir, compare the ledger. */
  async function killAndCheck(): Promise<string[]> {
    const inFlight = ledger.bump(client, LEDGER_KEYS).catch(() => {});
    await new Promise((r) => setTimeout(r, 20));
    await fy.cluster.kill();
    await inFlight;
    client.close();
    options.log('  SIGKILLed with ledger writes in flight; restarting on the same data dir');
    fy = await start();
    client = await ApiClient.open(fy);
    return ledger.lost(client);
  }
}

async function counters(client: ApiClient): Promise<{ writes: number; objects: number }> {
  const samples = await metricsSamples(client);
  let writes = 0;
  for (const n of writeCounts(samples).values()) writes += n;
  const objects = samples.find((x) => x.name === 'fleetyard_storage_objects')?.value ?? 0;
  return { writes, objects };
}

/** How many core Events are stored (a one-item list's remaining count). */
async function eventCount(client: ApiClient): Promise<number> {
  const list = await client.getJson<{
    items: unknown[];
    metadata: { remainingItemCount?: number };
  }>('/api/v1/events?limit=1');
  return list.items.length + (list.metadata.remainingItemCount ?? 0);
}

/** The cluster's time (ms since the epoch), from the Clock object's status. */
async function clusterTime(client: ApiClient): Promise<number> {
  const clock = await client.getJson<{ status?: { time?: string } }>(CLOCK);
  const t = Date.parse(clock.status?.time ?? '');
  if (!Number.isFinite(t)) throw new Error(`clock: no status.time in ${JSON.stringify(clock)}`);
  return t;
}

/** `fleetyard clock advance`: returns once the clock reached it and the cluster is quiescent. */
async function advance(fy: Fleetyard, ms: number): Promise<void> {
  let err = '';
  const code = await runClock(
    ['advance', `${ms / 1000}s`, '--kubeconfig', fy.cluster.kubeconfig, '--timeout', '30m'],
    { stdout: () => {}, stderr: (t) => (err += t) },
  );
  if (code !== 0) throw new Error(`clock advance ${ms / 1000}s: exit ${code}: ${err}`);
}

function fileSize(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

function mb(bytes: number): number {
  return round(bytes / 1024 / 1024);
}

function rows(
  s: SoakSizes,
  first: Sample,
  end: Sample,
  walPeak: number,
  watches: readonly WatchChecker[],
  behind: readonly number[],
  ledger: Ledger,
  lost: readonly string[],
): BenchRow[] {
  const hours = end.clusterMs / HOUR_MS;
  const span = `${round(hours)} h of cluster time in ${round(end.wallS / 60)} min of wall time, ${end.writes} writes`;
  const growth = (end.dbBytes + end.walBytes) / (first.dbBytes + first.walBytes);
  const rssGrowth = (end.rssMb / first.rssMb - 1) * 100;
  const expectedLeases = (s.nodes * end.clusterMs) / LEASE_RENEW_MS;
  const unnoticed = behind.reduce((a, b) => a + b, 0);
  const facts = watches.map((w) => w.facts());
  const outOfOrder = facts.reduce((a, f) => a + f.outOfOrder, 0);
  return [
    {
      name: `soak: DB + WAL at the end over after the first hour (${s.nodes} nodes)`,
      value: round(growth),
      unit: '×',
      target: '<= 2',
      met: growth <= 2,
      note: `${mb(first.dbBytes)} + ${mb(first.walBytes)} MB → ${mb(end.dbBytes)} + ${mb(end.walBytes)} MB (WAL peak ${mb(walPeak)} MB); ${span}`,
    },
    {
      name: 'soak: RSS growth after the first hour',
      value: round(rssGrowth),
      unit: '%',
      target: '<= 10',
      met: rssGrowth <= 10,
      note: `${round(first.rssMb)} → ${round(end.rssMb)} MB (one process, VmRSS); stored objects ${first.objects} → ${end.objects}, of them Events ${first.events} → ${end.events}`,
    },
    {
      name: 'soak: watches that fell behind unnoticed',
      value: unnoticed + outOfOrder,
      unit: 'watches',
      target: '0',
      met: unnoticed + outOfOrder === 0,
      note: `ledger ConfigMaps and node Leases watched the whole time: ${facts.map((f) => `${f.events} events, ${f.resumes} resumed, ${f.relists} relisted (410)`).join('; ')}; objects differing from a fresh list: ${behind.join(', ')}`,
    },
    {
      name: 'soak: acknowledged writes lost (SIGKILL + restart at the end)',
      value: lost.length,
      unit: 'writes',
      target: '0',
      met: lost.length === 0,
      note: `${ledger.acknowledged} acknowledged ledger writes${lost.length > 0 ? `; ${lost.slice(0, 3).join('; ')}` : ''}`,
    },
    {
      name: 'soak: Lease renewals at their cluster-time rate',
      value: round(end.leaseUpdates / expectedLeases),
      unit: '×',
      note: `${end.leaseUpdates} node Lease renewals seen by the watch, ${Math.round(expectedLeases)} due (${s.nodes} nodes × 1 per 10 s × ${round(hours)} h); ${span}`,
    },
  ];
}
