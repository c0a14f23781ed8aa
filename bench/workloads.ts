/**
 * Workloads: the whole cluster in one process (`fleetyard up --ephemeral --nodes N`, every
 * controller), driven the way a user drives it, timed through one watch stream per wait
 * (never by listing pods, which would load the server being measured).
 *
 * - A 1,000-replica Deployment (no sim annotations: every simulated delay is zero) from the
 *   create's answer to `availableReplicas == 1000`: wall time and pods/s (target ≥ 500).
 *   21 nodes (110 pods each): 1,000 pods plus the rolling update's 25% surge, plus the
 *   second (warm) Deployment, fit.
 * - Writes per pod, from `apiserver_request_total` before and after (node heartbeats aside).
 * - The store's write limit on the same server afterwards: 1 KiB ConfigMap creates through
 *   HTTPS from 2 generator processes × 16 connections for 3 s, in a namespace of their own
 *   (W). Second target: pods/s ≥ ½ × W ÷ writes per pod.
 * - A rolling update of that Deployment (image change) until `kubectl rollout status` would
 *   return and the old ReplicaSet is at 0.
 * - A second Deployment of the same size on the same server, for context: the same work with
 *   V8's JIT warm.
 * - A fresh server with 50 nodes and five 1,000-replica Deployments: time to 5,000 available,
 *   peak RSS (VmHWM) of the `up` process (target ≤ 600 MB), and the reconcile p99 of each
 *   controller from `controller_runtime_reconcile_time_seconds` (a bucket's upper bound).
 *
 * `--quick`: 200 replicas and 1,000 pods for the RSS run, one run each.
 *
 * @module
 */
import { loadavg } from 'node:os';
import {
  createDeployment,
  DEPLOYMENTS,
  metricsSamples,
  nodesReady,
  rolloutComplete,
  setImage,
  type WriteSummary,
  waitAvailable,
  waitOldScaledDown,
} from './lib/cluster-ops.js';
import { contentionNote, type Kept, quietRuns } from './lib/contention.js';
import { ApiClient, type Fleetyard, startFleetyard } from './lib/fleetyard.js';
import { type Phase, phase, storeLimit } from './lib/measure.js';
import { type BenchOptions, round, runCount, sleep } from './lib/options.js';
import { peakRssMb, rssMb } from './lib/proc.js';
import { type HistogramQuantile, histogramQuantile } from './lib/prom-text.js';
import { type BenchRow, median } from './lib/report.js';
import { watchUntil } from './lib/watch-until.js';

/** Issue 20's targets: a fresh server, and a second Deployment once V8 has compiled the paths. */
const TARGET_PODS_PER_SECOND = 800;
const TARGET_WARM_PODS_PER_SECOND = 1200;
const TARGET_RSS_MB = 600;
/** Pods/s must reach this share of what the store's write rate allows per pod. */
const STORE_SHARE = 0.5;
const PODS_PER_NODE = 110;
/** RollingUpdate's default maxSurge: the update needs room for 125% of the replicas. */
const SURGE = 1.25;
const IMAGE_V1 = 'registry.example.com/web:1.0';
const IMAGE_V2 = 'registry.example.com/web:1.1';
/**
 * The write-limit load runs in a namespace of its own, so its figure is the store's and not
 * disturbed by what the controllers do with the pods in `default`.
 */
const WRITE_NAMESPACE = 'bench-writes';
/**
 * One row each; the others (the scheduler's attempts among them) go in the first row's note.
 * The garbage collector's queues only reconcile when something is deleted.
 */
const MAIN_CONTROLLERS = ['replicaset-controller', 'deployment-controller', 'kubelet'];

interface Sizes {
  readonly replicas: number;
  readonly rssPods: number;
  readonly perDeployment: number;
  readonly storeMs: number;
}

function sizes(options: BenchOptions): Sizes {
  return options.quick
    ? { replicas: 200, rssPods: 1000, perDeployment: 1000, storeMs: 2000 }
    : { replicas: 1000, rssPods: 5000, perDeployment: 1000, storeMs: 3000 };
}

function nodesFor(pods: number): number {
  return Math.ceil(pods / PODS_PER_NODE);
}

function startCluster(nodes: number): Promise<Fleetyard> {
  return startFleetyard({
    ephemeral: true,
    cluster: true,
    args: ['--nodes', String(nodes), '--log-level', 'warn'],
    timeoutMs: 30_000,
  });
}

interface DeploymentRun {
  readonly create: Phase;
  readonly update: Phase;
  /** A second Deployment of the same size on the same server: the JIT is warm by then. */
  readonly warm: Phase;
  readonly storeWrites: number;
  readonly storeNote: string;
}

async function deploymentRun(s: Sizes, index: number): Promise<DeploymentRun> {
  // Room for the rolled Deployment and the warm one beside it.
  const nodes = nodesFor(s.replicas * (1 + SURGE));
  const fy = await startCluster(nodes);
  const client = await ApiClient.open(fy);
  try {
    await nodesReady(fy, nodes, 60_000);
    const timeout = 120_000 + s.replicas * 100;
    const create = await phase(
      fy,
      () => waitAvailable(fy, ['web'], s.replicas, timeout),
      () => createDeployment(client, 'web', s.replicas, IMAGE_V1),
    );
    const update = await phase(
      fy,
      async () => {
        const rollout = await watchUntil(
          fy,
          DEPLOYMENTS,
          (ds) => rolloutComplete(ds.get('web')),
          timeout,
        );
        const old = await waitOldScaledDown(fy, IMAGE_V1, timeout);
        const done = Promise.all([rollout.done, old.done]).then(([a, b]) => ({
          at: Math.max(a.at, b.at),
        }));
        return { done };
      },
      () => setImage(client, 'web', IMAGE_V2),
    );
    const warm = await phase(
      fy,
      () => waitAvailable(fy, ['warm'], s.replicas, timeout),
      () => createDeployment(client, 'warm', s.replicas, IMAGE_V1),
    );
    const store = await storeLimit(fy, client, s.storeMs, index, WRITE_NAMESPACE);
    return { create, update, warm, storeWrites: store.perSecond, storeNote: store.note };
  } finally {
    client.close();
    await fy.stop();
  }
}

interface RssRun {
  readonly ms: number;
  readonly peakMb: number;
  readonly rssMb: number;
  readonly reconcile: ReadonlyMap<string, HistogramQuantile>;
  /** p99 of the time keys waited in each controller's work queue. */
  readonly queueWait: ReadonlyMap<string, HistogramQuantile>;
  readonly writes: WriteSummary;
  readonly others: number;
  readonly serverCores: number;
}

async function rssRun(s: Sizes): Promise<RssRun> {
  const nodes = Math.ceil(s.rssPods / 100);
  const fy = await startCluster(nodes);
  const client = await ApiClient.open(fy);
  try {
    await nodesReady(fy, nodes, 120_000);
    const names = Array.from({ length: s.rssPods / s.perDeployment }, (_, i) => `web-${i + 1}`);
    const p = await phase(
      fy,
      () => waitAvailable(fy, names, s.perDeployment, 600_000),
      async () => {
        for (const n of names) await createDeployment(client, n, s.perDeployment, IMAGE_V1);
      },
    );
    await sleep(1000);
    const samples = await metricsSamples(client);
    const reconcile = new Map<string, HistogramQuantile>();
    const queueWait = new Map<string, HistogramQuantile>();
    const controllers = new Set(
      samples.map((x) => x.labels.controller).filter((c): c is string => c !== undefined),
    );
    for (const c of controllers) {
      const q = histogramQuantile(
        samples,
        'controller_runtime_reconcile_time_seconds',
        (l) => l.controller === c,
        0.99,
      );
      if (q) reconcile.set(c, q);
      const w = histogramQuantile(
        samples,
        'workqueue_queue_duration_seconds',
        (l) => l.name === c,
        0.99,
      );
      if (w) queueWait.set(c, w);
    }
    return {
      ms: p.ms,
      peakMb: peakRssMb(fy.pid),
      rssMb: rssMb(fy.pid),
      reconcile,
      queueWait,
      writes: p.writes,
      others: p.others,
      serverCores: p.serverCores,
    };
  } finally {
    client.close();
    await fy.stop();
  }
}

export async function benchWorkloads(options: BenchOptions): Promise<BenchRow[]> {
  const s = sizes(options);
  const load = loadavg()[0]!.toFixed(2);
  const deployments = await quietRuns(
    runCount(options),
    async (i) => {
      const r = await deploymentRun(s, i);
      options.log(
        `  run ${i + 1}: ${s.replicas} available in ${r.create.ms.toFixed(0)} ms (${(s.replicas / (r.create.ms / 1000)).toFixed(0)} pods/s, server ${r.create.serverCores.toFixed(2)} cores), ${(r.create.writes.workload / s.replicas).toFixed(2)} writes/pod; rolling update ${r.update.ms.toFixed(0)} ms; store ${Math.round(r.storeWrites)} creates/s`,
      );
      return r;
    },
    (r) => Math.max(r.create.others, r.update.others),
    options.log,
  );
  const rss = await quietRuns(
    1,
    () => rssRun(s),
    (r) => r.others,
    options.log,
  );
  const r = rss.runs[0]!;
  options.log(
    `  ${s.rssPods} pods: available in ${r.ms.toFixed(0)} ms, peak RSS ${r.peakMb.toFixed(0)} MB, RSS ${r.rssMb.toFixed(0)} MB`,
  );
  return [
    ...deploymentRows(s, deployments, load, options.quick),
    ...rssRows(s, rss, options.quick),
  ];
}

function quickNote(quick: boolean, what: string): string {
  return quick ? `QUICK: ${what}; ` : '';
}

function deploymentRows(
  s: Sizes,
  kept: Kept<DeploymentRun>,
  load: string,
  quick: boolean,
): BenchRow[] {
  const runs = kept.runs;
  const last = runs.at(-1)!;
  const n = s.replicas.toLocaleString('en-US');
  const q = quickNote(quick, `${s.replicas} replicas instead of 1,000`);
  const createMs = runs.map((r) => r.create.ms);
  const podsPerSecond = runs.map((r) => s.replicas / (r.create.ms / 1000));
  const perPod = runs.map((r) => r.create.writes.workload / s.replicas);
  const store = runs.map((r) => r.storeWrites);
  const allowed = runs.map((r, i) => (STORE_SHARE * r.storeWrites) / perPod[i]!);
  const ratio = runs.map((_, i) => podsPerSecond[i]! / allowed[i]!);
  const updateMs = runs.map((r) => r.update.ms);
  const updatePods = runs.map((r) => s.replicas / (r.update.ms / 1000));
  const warmPods = runs.map((r) => s.replicas / (r.warm.ms / 1000));
  const pps = median(podsPerSecond);
  const nodes = nodesFor(s.replicas * (1 + SURGE));
  const context = `${contentionNote(kept)}; load average ${load} at the start`;
  return [
    {
      name: `deployment ${n} replicas: create → all available`,
      value: round(median(createMs)),
      unit: 'ms',
      runs: createMs.map(round),
      note: `${q}fleetyard up --ephemeral --nodes ${nodes}, no sim annotations (zero delays); from the create's answer to availableReplicas == ${s.replicas}, seen on one watch of the Deployment; server ${last.create.serverCores.toFixed(2)} cores (main thread ${last.create.mainCores.toFixed(2)}) over the wait (last run); ${context}`,
    },
    {
      name: `deployment ${n} replicas: pods/s to available`,
      value: round(pps),
      unit: 'pods/s',
      runs: podsPerSecond.map(round),
      target: `>= ${TARGET_PODS_PER_SECOND}`,
      met: pps >= TARGET_PODS_PER_SECOND,
      note: `${q}kube-controller-manager's default client limit (20 requests/s) gives about 20 pods/s; kwok publishes 20 pods/s`,
    },
    {
      name: `writes per pod (deployment ${n} → available)`,
      value: round(median(perPod)),
      unit: 'writes/pod',
      runs: perPod.map(round),
      note: `POST/PUT/PATCH/DELETE from apiserver_request_total, node Leases and node status aside (${last.create.writes.heartbeats} of those); Events ${(last.create.writes.events / s.replicas).toFixed(2)}/pod; last run: ${last.create.writes.breakdown}`,
    },
    {
      name: 'store write limit, same run (1 KiB ConfigMap creates via HTTPS)',
      value: Math.round(median(store)),
      unit: 'writes/s',
      runs: store.map(Math.round),
      note: `after the rollouts, on the same server (controllers running; the kubelet's and the garbage collector's informers receive every ConfigMap), 2 processes × 16 connections, ${s.storeMs / 1000} s after 0.5 s warm-up; ${last.storeNote} (last run)`,
    },
    {
      name: `deployment pods/s ÷ (½ × store limit ÷ writes per pod)`,
      value: round(median(ratio)),
      unit: '×',
      runs: ratio.map(round),
      target: '>= 1',
      met: median(ratio) >= 1,
      note: `½ × ${Math.round(median(store))} writes/s ÷ ${median(perPod).toFixed(2)} writes/pod = ${Math.round(median(allowed))} pods/s allowed; measured ${Math.round(pps)} pods/s (medians; the ratio is per run)`,
    },
    {
      name: `rolling update of the ${n}-replica Deployment (image) → complete`,
      value: round(median(updateMs)),
      unit: 'ms',
      runs: updateMs.map(round),
      note: `${q}from the PUT's answer until observedGeneration caught up, updated == available == replicas == ${s.replicas} and the old ReplicaSet at 0 (maxSurge/maxUnavailable 25%); ${(last.update.writes.workload / s.replicas).toFixed(2)} writes per replaced pod (Events ${(last.update.writes.events / s.replicas).toFixed(2)}); server ${last.update.serverCores.toFixed(2)} cores (last run)`,
    },
    {
      name: `rolling update: pods replaced/s`,
      value: round(median(updatePods)),
      unit: 'pods/s',
      runs: updatePods.map(round),
    },
    {
      name: `a second ${n}-replica Deployment on the same server (warm) → available: pods/s`,
      value: round(median(warmPods)),
      unit: 'pods/s',
      runs: warmPods.map(round),
      target: `>= ${TARGET_WARM_PODS_PER_SECOND}`,
      met: median(warmPods) >= TARGET_WARM_PODS_PER_SECOND,
      note: `${q}after the first rollout and the update, V8 has compiled the hot paths (on a fresh server its background compiler threads take about a third of the process's CPU during the first rollout); ${(last.warm.writes.workload / s.replicas).toFixed(2)} writes/pod; server ${last.warm.serverCores.toFixed(2)} cores (main thread ${last.warm.mainCores.toFixed(2)}) (last run)`,
    },
  ];
}

function rssRows(s: Sizes, kept: Kept<RssRun>, quick: boolean): BenchRow[] {
  const r = kept.runs[0]!;
  const n = s.rssPods.toLocaleString('en-US');
  const deployments = s.rssPods / s.perDeployment;
  const q = quickNote(quick, `${s.rssPods} pods instead of 5,000`);
  const rows: BenchRow[] = [
    {
      name: `peak RSS of fleetyard up with ${n} pods`,
      value: round(r.peakMb),
      unit: 'MB',
      target: `<= ${TARGET_RSS_MB}`,
      met: r.peakMb <= TARGET_RSS_MB,
      note: `${q}VmHWM of the whole up process (API server, store, every controller, ${Math.ceil(s.rssPods / 100)} simulated nodes) after ${deployments} × ${s.perDeployment}-replica Deployments were available; RSS then ${r.rssMb.toFixed(0)} MB; ${contentionNote(kept)}`,
    },
    {
      name: `${deployments} Deployments → ${n} pods available`,
      value: round(r.ms),
      unit: 'ms',
      note: `${q}${Math.round(s.rssPods / (r.ms / 1000))} pods/s; ${(r.writes.workload / s.rssPods).toFixed(2)} writes/pod; server ${r.serverCores.toFixed(2)} cores`,
    },
  ];
  return [...rows, ...reconcileRows(r, n, q)];
}

/** One row per main controller; a p99 past the last bucket shows that bound, marked `>`. */
function reconcileRows(r: RssRun, n: string, q: string): BenchRow[] {
  const others = [...r.reconcile]
    .filter(([c]) => !MAIN_CONTROLLERS.includes(c))
    .map(([c, h]) => `${c} ${fmtSeconds(h)} (${h.count})`)
    .join(', ');
  const rows: BenchRow[] = [];
  for (const c of MAIN_CONTROLLERS) {
    const h = r.reconcile.get(c);
    if (!h) continue;
    const past = !Number.isFinite(h.upperBound);
    const extra = c === MAIN_CONTROLLERS[0] ? `; others: ${others || 'none'}` : '';
    rows.push({
      name: `reconcile p99 at ${n} pods: ${c}`,
      value: round((past ? h.lastBound : h.upperBound) * 1000),
      unit: 'ms',
      note: `${q}${past ? 'ABOVE the last bucket: p99 > this; ' : ''}upper bound of the controller_runtime_reconcile_time_seconds bucket holding the 99th percentile (≤); ${h.count} reconciles since start, mean ${((h.sum / h.count) * 1000).toFixed(1)} ms${queueNote(r.queueWait.get(c))}${extra}`,
    });
  }
  return rows;
}

function queueNote(w: HistogramQuantile | undefined): string {
  return w ? `; work-queue wait p99 ${fmtSeconds(w)}` : '';
}

function fmtSeconds(h: HistogramQuantile): string {
  return Number.isFinite(h.upperBound)
    ? `≤ ${round(h.upperBound * 1000)} ms`
    : `> ${round(h.lastBound * 1000)} ms (the last bucket)`;
}
