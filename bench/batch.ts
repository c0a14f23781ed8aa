/**
 * Batch and node workloads on the whole cluster in one process (`fleetyard up --ephemeral`),
 * timed through one watch stream per wait, as `workloads.ts` does for Deployments:
 *
 * - A Job of 1,000 completions with parallelism 100 and no simulation annotations (its pods'
 *   containers exit 0 at once: zero simulated delay), from the create's answer to the
 *   `Complete` condition: completions/s, and the writes each completion costs
 *   (`apiserver_request_total` before and after, heartbeats aside). Then the store's write limit
 *   on the same server (W, 1 KiB ConfigMap creates from 2 processes × 16 connections). Target,
 *   as for the Deployment: completions/s ≥ ½ × W ÷ writes per completion (bound by the store).
 * - A DaemonSet over 100 nodes: created until 100 pods are available, then a RollingUpdate of
 *   its image (maxUnavailable 1, upstream's default) until every pod is updated and available.
 *
 * `--quick`: 200 completions with parallelism 20; 20 nodes for the DaemonSet; one run each.
 *
 * @module
 */
import { nodesReady } from './lib/cluster-ops.js';
import { contentionNote, quietRuns } from './lib/contention.js';
import { ApiClient, type Fleetyard, startFleetyard } from './lib/fleetyard.js';
import { type Phase, phase, storeLimit } from './lib/measure.js';
import { type BenchOptions, round, runCount } from './lib/options.js';
import { type BenchRow, median } from './lib/report.js';
import { type KObject, statusNumber, watchUntil } from './lib/watch-until.js';

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const DAEMON_SETS = '/apis/apps/v1/namespaces/default/daemonsets';
/** The Deployment figure's rule: the control loop should reach half of what the store allows. */
const STORE_SHARE = 0.5;
const PODS_PER_NODE = 110;

interface Sizes {
  readonly completions: number;
  readonly parallelism: number;
  readonly dsNodes: number;
  readonly storeMs: number;
}

function sizes(options: BenchOptions): Sizes {
  return options.quick
    ? { completions: 200, parallelism: 20, dsNodes: 20, storeMs: 2000 }
    : { completions: 1000, parallelism: 100, dsNodes: 100, storeMs: 3000 };
}

function startCluster(nodes: number): Promise<Fleetyard> {
  return startFleetyard({
    ephemeral: true,
    cluster: true,
    args: ['--nodes', String(nodes), '--log-level', 'warn'],
    timeoutMs: 60_000,
  });
}

function jobBody(name: string, s: Sizes): string {
  return JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      completions: s.completions,
      parallelism: s.parallelism,
      template: {
        spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox:1.36' }] },
      },
    },
  });
}

function isComplete(job: KObject | undefined): boolean {
  const conditions = (job?.status?.conditions ?? []) as Array<{ type: string; status: string }>;
  return conditions.some((c) => c.type === 'Complete' && c.status === 'True');
}

async function post(client: ApiClient, path: string, body: string): Promise<void> {
  const res = await client.request('POST', path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: HTTP ${res.status} ${res.body}`);
}

interface JobRun extends Phase {
  readonly storeWrites: number;
  readonly storeNote: string;
}

async function jobRun(s: Sizes, index: number): Promise<JobRun> {
  const nodes = Math.max(3, Math.ceil(s.parallelism / PODS_PER_NODE) + 1);
  const fy = await startCluster(nodes);
  const client = await ApiClient.open(fy);
  try {
    await nodesReady(fy, nodes, 60_000);
    const timeout = 120_000 + s.completions * 200;
    const run = await phase(
      fy,
      () => watchUntil(fy, JOBS, (jobs) => isComplete(jobs.get('batch')), timeout),
      () => post(client, JOBS, jobBody('batch', s)),
    );
    const store = await storeLimit(fy, client, s.storeMs, index);
    return { ...run, storeWrites: store.perSecond, storeNote: store.note };
  } finally {
    client.close();
    await fy.stop();
  }
}

function daemonSetBody(image: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image }] },
      },
    },
  });
}

/** Every scheduled pod updated and available, for the current generation. */
function rolledOut(ds: KObject | undefined, nodes: number): boolean {
  if (!ds) return false;
  return (
    statusNumber(ds, 'observedGeneration') === (ds.metadata.generation ?? 0) &&
    statusNumber(ds, 'updatedNumberScheduled') === nodes &&
    statusNumber(ds, 'numberAvailable') === nodes
  );
}

async function setDaemonSetImage(client: ApiClient, image: string): Promise<void> {
  const patch = JSON.stringify({
    spec: { template: { spec: { containers: [{ name: 'agent', image }] } } },
  });
  const res = await client.requestWithType(
    'PATCH',
    `${DAEMON_SETS}/agent`,
    patch,
    'application/strategic-merge-patch+json',
  );
  if (res.status !== 200) throw new Error(`patch daemonset: HTTP ${res.status} ${res.body}`);
}

interface DaemonSetRun {
  readonly create: Phase;
  readonly update: Phase;
}

async function daemonSetRun(s: Sizes): Promise<DaemonSetRun> {
  const fy = await startCluster(s.dsNodes);
  const client = await ApiClient.open(fy);
  try {
    await nodesReady(fy, s.dsNodes, 120_000);
    const timeout = 120_000 + s.dsNodes * 2000;
    const done = (ds: ReadonlyMap<string, KObject>) => rolledOut(ds.get('agent'), s.dsNodes);
    const create = await phase(
      fy,
      () => watchUntil(fy, DAEMON_SETS, done, timeout),
      () => post(client, DAEMON_SETS, daemonSetBody('registry.example.com/agent:1.0')),
    );
    const update = await phase(
      fy,
      () =>
        watchUntil(
          fy,
          DAEMON_SETS,
          (ds) => done(ds) && ds.get('agent')?.metadata.generation === 2,
          timeout,
        ),
      () => setDaemonSetImage(client, 'registry.example.com/agent:1.1'),
    );
    return { create, update };
  } finally {
    client.close();
    await fy.stop();
  }
}

export async function benchBatch(options: BenchOptions): Promise<BenchRow[]> {
  const s = sizes(options);
  const q = options.quick ? '--quick: ' : '';
  const jobs = await quietRuns(
    runCount(options),
    async (i) => {
      const r = await jobRun(s, i);
      options.log(
        `  job run ${i + 1}: ${s.completions} completions in ${r.ms.toFixed(0)} ms, ${(r.writes.workload / s.completions).toFixed(2)} writes each; store ${Math.round(r.storeWrites)} creates/s`,
      );
      return r;
    },
    (r) => r.others,
    options.log,
  );
  const perSecond = jobs.runs.map((r) => s.completions / (r.ms / 1000));
  const writesPer = jobs.runs.map((r) => r.writes.workload / s.completions);
  const bound = jobs.runs.map((r, i) => (STORE_SHARE * r.storeWrites) / (writesPer[i] ?? 1));
  const last = jobs.runs.at(-1)!;
  const ds = await quietRuns(
    runCount(options, 1),
    async (i) => {
      const r = await daemonSetRun(s);
      options.log(
        `  daemonset run ${i + 1}: ${s.dsNodes} nodes, create ${r.create.ms.toFixed(0)} ms, rolling update ${r.update.ms.toFixed(0)} ms`,
      );
      return r;
    },
    (r) => r.update.others,
    options.log,
  );
  const lastDs = ds.runs.at(-1)!;
  return [
    {
      name: `Job: ${s.completions} completions, parallelism ${s.parallelism}, create → Complete`,
      value: round(median(perSecond)),
      unit: 'completions/s',
      runs: perSecond.map(round),
      target: `>= ½ store limit ÷ writes per completion (${round(median(bound))})`,
      met: median(perSecond) >= median(bound),
      note: `${q}zero simulated delay (run-to-completion pods exit 0 at once); ${round(median(jobs.runs.map((r) => r.ms)))} ms; store limit on the same server ${round(median(jobs.runs.map((r) => r.storeWrites)))} writes/s (${last.storeNote}); server ${last.serverCores.toFixed(2)} cores (last run); ${contentionNote(jobs)}`,
    },
    {
      name: 'Job: writes per completion (create → Complete)',
      value: Math.round(median(writesPer) * 100) / 100,
      unit: 'writes',
      runs: writesPer.map((w) => Math.round(w * 100) / 100),
      note: `last run: ${last.writes.breakdown}`,
    },
    {
      name: `DaemonSet over ${s.dsNodes} nodes: create → every pod available`,
      value: round(median(ds.runs.map((r) => r.create.ms))),
      unit: 'ms',
      runs: ds.runs.map((r) => round(r.create.ms)),
      note: `${q}writes ${lastDs.create.writes.workload} (last run: ${lastDs.create.writes.breakdown})`,
    },
    {
      name: `DaemonSet over ${s.dsNodes} nodes: RollingUpdate (maxUnavailable 1) → every pod updated and available`,
      value: round(median(ds.runs.map((r) => r.update.ms))),
      unit: 'ms',
      runs: ds.runs.map((r) => round(r.update.ms)),
      note: `${q}one node at a time, as upstream's default; writes ${lastDs.update.writes.workload}; ${contentionNote(ds)}`,
    },
  ];
}
