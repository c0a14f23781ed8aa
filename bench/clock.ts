/**
 * The virtual clock (issue 15):
 *
 * - **Idle speed**: an idle 3-node cluster (every controller, the celld operator among them)
 *   run through one virtual hour at speed `max` (`clock.advance('1h')` through the test
 *   harness, in this process): virtual seconds per wall second (target ≥ 3,600), free and
 *   with `--seed` (serial turns), with the number of jumps.
 * - **24 hours of celld failures**: `examples/scenarios/celld-24h-random-failures.yaml` through
 *   the scenario runner at speed `max` (target ≤ 60 s of wall time), with the reconciles and
 *   writes it took (`controller_runtime_reconcile_total`, `apiserver_request_total`).
 * - **Speed-1 overhead**: the 1,000-replica Deployment (bench/workloads.ts's first figure) on
 *   `fleetyard up --clock virtual --speed 1` against `--clock real`, alternating runs: the
 *   ratio of the medians (target ≤ 1.10).
 *
 * `--quick`: 10 virtual minutes, 200 replicas, one run each.
 *
 * @module
 */
import { startCluster } from '../src/harness/index.js';
import { createDeployment, nodesReady, waitAvailable } from './lib/cluster-ops.js';
import { ApiClient, startFleetyard } from './lib/fleetyard.js';
import { phase } from './lib/measure.js';
import { type BenchOptions, round, runCount } from './lib/options.js';
import { type BenchRow, median } from './lib/report.js';
import { celld24hRows } from './lib/scenario-bench.js';

const TARGET_IDLE_RATIO = 3600;
const TARGET_OVERHEAD = 1.1;
const PODS_PER_NODE = 110;

export async function benchClock(options: BenchOptions): Promise<BenchRow[]> {
  return [
    ...(await idleRows(options)),
    ...(await celld24hRows(options)),
    ...(await overheadRows(options)),
  ];
}

async function idleRows(options: BenchOptions): Promise<BenchRow[]> {
  const span = options.quick ? '10m' : '1h';
  const spanMs = options.quick ? 600_000 : 3_600_000;
  const rows: BenchRow[] = [];
  for (const seeded of [false, true]) {
    const ratios: number[] = [];
    let jumps = 0;
    for (let i = 0; i < runCount(options); i++) {
      options.log(`clock: idle ${span}${seeded ? ' (--seed)' : ''}, run ${i + 1}`);
      const cluster = await startCluster({ nodes: 3, ...(seeded ? { seed: 1 } : {}) });
      try {
        const t0 = performance.now();
        await cluster.clock.advance(span);
        ratios.push(spanMs / (performance.now() - t0));
        jumps = cluster.clock.status().jumps ?? 0;
      } finally {
        await cluster.stop();
      }
    }
    const value = median(ratios);
    rows.push({
      name: `idle cluster at speed max, virtual s per wall s${seeded ? ' (--seed: serial turns)' : ''}`,
      value: round(value),
      unit: 'x',
      runs: ratios.map(round),
      target: `>= ${TARGET_IDLE_RATIO}`,
      met: value >= TARGET_IDLE_RATIO,
      note: `3 nodes, every controller; ${jumps} jumps in ${span} of the last run`,
    });
  }
  return rows;
}

async function overheadRows(options: BenchOptions): Promise<BenchRow[]> {
  const replicas = options.quick ? 200 : 1000;
  const nodes = Math.ceil(replicas / PODS_PER_NODE) + 1;
  const times: Record<'real' | 'virtual', number[]> = { real: [], virtual: [] };
  for (let i = 0; i < runCount(options); i++) {
    for (const mode of ['real', 'virtual'] as const) {
      options.log(`clock: ${replicas}-replica Deployment, --clock ${mode}, run ${i + 1}`);
      times[mode].push(await deploymentSeconds(mode, replicas, nodes));
    }
  }
  const real = median(times.real);
  const virtual = median(times.virtual);
  const ratio = virtual / real;
  return [
    {
      name: `${replicas}-replica Deployment to available, --clock virtual --speed 1 over --clock real`,
      value: round(ratio),
      unit: '×',
      target: `<= ${TARGET_OVERHEAD}`,
      met: ratio <= TARGET_OVERHEAD,
      note: `real ${times.real.map(round).join(', ')} s; virtual ${times.virtual.map(round).join(', ')} s`,
    },
  ];
}

async function deploymentSeconds(
  mode: 'real' | 'virtual',
  replicas: number,
  nodes: number,
): Promise<number> {
  const clockArgs = mode === 'virtual' ? ['--clock', 'virtual', '--speed', '1'] : [];
  const fy = await startFleetyard({
    ephemeral: true,
    cluster: true,
    args: ['--nodes', String(nodes), '--log-level', 'warn', ...clockArgs],
    timeoutMs: 30_000,
  });
  const client = await ApiClient.open(fy);
  try {
    await nodesReady(fy, nodes, 60_000);
    const timeout = 120_000 + replicas * 100;
    const run = await phase(
      fy,
      () => waitAvailable(fy, ['web'], replicas, timeout),
      () => createDeployment(client, 'web', replicas, 'registry.example.com/web:1.0'),
    );
    return run.ms / 1000;
  } finally {
    client.close();
    await fy.stop();
  }
}
