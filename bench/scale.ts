/**
 * The scale group (`npm run bench -- --scale`, issue 20): one `fleetyard up --ephemeral
 * --nodes 1000` (every controller, the dashboard on, as a user starts it) filled with 100,000
 * running pods, measured from outside the process:
 *
 * - creates → Running: 20 Deployments of 5,000 replicas, one after the other, each timed from
 *   its create's answer to `availableReplicas == 5000` on one watch; the target (≥ 500 pods/s)
 *   is the rate over the last quarter, when the cluster is already big.
 * - RSS (VmRSS, VmHWM from /proc) with 1,000 nodes and 100,000 pods: ≤ 1.5 GiB.
 * - Idle CPU (all threads, /proc) over 30 s with 1,000 nodes and no pods, then with 100,000
 *   pods: what the heartbeats (Lease renewals every 10 s, node status every 10 s when changed)
 *   and every periodic loop cost; ≤ 10 % of one core. The Lease and node status writes per
 *   second come from `apiserver_request_total` over the same window.
 * - `GET /api/v1/pods?limit=500` and its continue tokens, as client-go's ListPager walks it:
 *   p99 per page ≤ 50 ms (3 walks of the 100,000 pods).
 * - Memory per object: per node, RSS with N nodes minus RSS with 1 node (a second, small
 *   server); per pod, RSS after the fill minus RSS before it. The split comes from three
 *   smaller servers filled alike (10,000 pods): the cluster as is, the cluster with
 *   `--dashboard=false` (the dashboard's change recorder), and the API server alone
 *   (`--controllers=`) holding the same pods (POSTed, then their status PUT as the running
 *   pod's): the store and API server's share; the rest is the controller thread (informer
 *   caches, the scheduler's cache, the simulated kubelets' state).
 *
 * `--quick`: 100 nodes, 10,000 pods (5 × 2,000), 10 s idle windows, one walk, the split at
 * 1,000 pods on 10 nodes (about 4 minutes on a quiet machine).
 *
 * @module
 */
import { nodesReady } from './lib/cluster-ops.js';
import { type Fleetyard, startFleetyard } from './lib/fleetyard.js';
import { type BenchOptions, round, sleep } from './lib/options.js';
import { peakRssMb } from './lib/proc.js';
import type { BenchRow } from './lib/report.js';
import {
  countAndSize,
  type FillStep,
  fillServerAlone,
  fillWithDeployments,
  idleWindow,
  type PagedList,
  pagedList,
  runningPodTemplate,
  settledRss,
} from './lib/scale-ops.js';
import { type ScaleResult, type ScaleSizes, type Split, scaleRows } from './lib/scale-rows.js';

function sizes(options: BenchOptions): ScaleSizes {
  return options.quick
    ? {
        nodes: 100,
        deployments: 5,
        replicas: 2000,
        idleSeconds: 10,
        walks: 1,
        fillBudgetMs: 5 * 60_000,
        splitNodes: 10,
        splitDeployments: 1,
        splitReplicas: 1000,
      }
    : {
        nodes: 1000,
        deployments: 20,
        replicas: 5000,
        idleSeconds: 30,
        walks: 3,
        // 100,000 pods at the target's 500 pods/s take 200 s; at 100 pods/s, 17 min.
        fillBudgetMs: 20 * 60_000,
        splitNodes: 100,
        splitDeployments: 2,
        splitReplicas: 5000,
      };
}

/** Heartbeats of freshly registered nodes (the first status post, the Lease create) settle. */
const SETTLE_MS = 12_000;

function startUp(nodes: number, extra: readonly string[] = []): Promise<Fleetyard> {
  return startFleetyard({
    ephemeral: true,
    cluster: true,
    args: ['--nodes', String(nodes), '--log-level', 'warn', ...extra],
    timeoutMs: 120_000,
  });
}

/** RSS of a cluster of `nodes` idle nodes (settled), for the per-node delta. */
async function idleRss(nodes: number): Promise<number> {
  const fy = await startUp(nodes);
  try {
    await nodesReady(fy, nodes, 120_000);
    await sleep(SETTLE_MS);
    return await settledRss(fy.pid, 5);
  } finally {
    await fy.stop();
  }
}

async function clusterPerPod(s: ScaleSizes, extra: readonly string[]): Promise<number> {
  const fy = await startUp(s.splitNodes, extra);
  try {
    await nodesReady(fy, s.splitNodes, 120_000);
    await sleep(SETTLE_MS);
    const before = await settledRss(fy.pid, 5);
    const fill = await fillWithDeployments(fy, s.splitDeployments, s.splitReplicas, () => {});
    if (fill.stopped !== undefined) throw new Error(`split: ${fill.stopped}`);
    await sleep(5000);
    const after = await settledRss(fy.pid, 5);
    return ((after - before) * 1024) / (s.splitDeployments * s.splitReplicas);
  } finally {
    await fy.stop();
  }
}

async function split(
  s: ScaleSizes,
  template: Awaited<ReturnType<typeof runningPodTemplate>>,
  log: (l: string) => void,
): Promise<Split> {
  const pods = s.splitDeployments * s.splitReplicas;
  const clusterKb = await clusterPerPod(s, []);
  log(`  split: cluster ${clusterKb.toFixed(1)} KiB/pod`);
  const noDashboardKb = await clusterPerPod(s, ['--dashboard=false']);
  log(`  split: --dashboard=false ${noDashboardKb.toFixed(1)} KiB/pod`);
  const fy = await startFleetyard({ ephemeral: true, args: ['--log-level', 'warn'] });
  try {
    await sleep(3000);
    const before = await settledRss(fy.pid, 5);
    await fillServerAlone(fy, template, pods, 8);
    await sleep(3000);
    const after = await settledRss(fy.pid, 5);
    const list = await pagedList(fy, 500);
    const serverAloneKb = ((after - before) * 1024) / pods;
    log(
      `  split: API server alone ${serverAloneKb.toFixed(1)} KiB/pod, ${Math.round(list.bytesPerItem)} B of JSON per pod`,
    );
    return { pods, clusterKb, noDashboardKb, serverAloneKb, storedJsonBytes: list.bytesPerItem };
  } finally {
    await fy.stop();
  }
}

export async function benchScale(options: BenchOptions): Promise<BenchRow[]> {
  const s = sizes(options);
  const log = options.log;
  log(`  baseline: RSS of up with 1 idle node`);
  const oneNodeRss = await idleRss(1);
  log(`  starting up --nodes ${s.nodes}`);
  const t0 = performance.now();
  const fy = await startUp(s.nodes);
  let result: ScaleResult;
  let template: Awaited<ReturnType<typeof runningPodTemplate>>;
  try {
    await nodesReady(fy, s.nodes, 300_000);
    const readyMs = performance.now() - t0;
    log(`  ${s.nodes} nodes Ready ${(readyMs / 1000).toFixed(1)} s after the start`);
    await sleep(SETTLE_MS);
    const idleNodes = await idleWindow(fy, s.idleSeconds);
    log(
      `  idle, ${s.nodes} nodes: ${(idleNodes.cores * 100).toFixed(1)} % of a core, ${idleNodes.leaseWrites.toFixed(1)} Lease + ${idleNodes.statusWrites.toFixed(1)} status writes/s, RSS ${idleNodes.minRssMb.toFixed(0)} MB`,
    );
    const fill = await fillWithDeployments(fy, s.deployments, s.replicas, log, s.fillBudgetMs);
    const steps: FillStep[] = fill.steps;
    if (steps.length === 0)
      throw new Error(`scale: no Deployment became available: ${fill.stopped}`);
    await sleep(5000);
    const idlePods = await idleWindow(fy, s.idleSeconds);
    const peak = peakRssMb(fy.pid);
    log(
      `  idle, ${s.nodes} nodes + ${steps.length * s.replicas} pods: ${(idlePods.cores * 100).toFixed(1)} % of a core, RSS ${idlePods.lastRssMb.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
    );
    const walks: PagedList[] = [];
    const pageTimes: number[] = [];
    for (let i = 0; i < s.walks; i++) {
      const w = await pagedList(fy, 500);
      walks.push(w);
      pageTimes.push(w.p99);
      log(
        `  list walk ${i + 1}: ${w.items} pods in ${w.pages} pages, ${w.totalMs.toFixed(0)} ms; page p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, max ${w.max.toFixed(1)} ms`,
      );
    }
    template = await runningPodTemplate(fy);
    const events = await countAndSize(fy, '/api/v1/events');
    log(`  ${events.count} Events of ${Math.round(events.bytesEach)} B`);
    result = {
      sizes: s,
      quick: options.quick,
      readyMs,
      oneNodeRss,
      idleNodes,
      idlePods,
      steps,
      peakMb: peak,
      walks,
      events,
      ...(fill.stopped !== undefined ? { stopped: fill.stopped } : {}),
    };
  } finally {
    await fy.stop();
  }
  const sp = await split(s, template, log);
  return scaleRows(result, sp).map((r) => ({ ...r, value: round(r.value) }));
}
