/**
 * Measurements the cluster benchmarks (`workloads`, `statefulset`) share: a timed phase (wall
 * time from the act to the awaited state, with the server's writes and CPU around it) and the
 * store's write limit on the same server.
 *
 * @module
 */
import { metricsSamples, summariseWrites, type WriteSummary, writeCounts } from './cluster-ops.js';
import { cpuWindow } from './contention.js';
import { ApiClient, type Fleetyard } from './fleetyard.js';
import { runLoad } from './load.js';
import { sleep } from './options.js';
import { cpuTimes } from './proc.js';
import { difference } from './prom-text.js';

export interface Phase {
  readonly ms: number;
  readonly writes: WriteSummary;
  /** Cores the server used over the phase (all threads, main thread). */
  readonly serverCores: number;
  readonly mainCores: number;
  readonly others: number;
}

/** `fn` on a new connection, closed afterwards (for requests after a long wait). */
export async function withClient<T>(fy: Fleetyard, fn: (c: ApiClient) => Promise<T>): Promise<T> {
  const c = await ApiClient.open(fy);
  try {
    return await fn(c);
  } finally {
    c.close();
  }
}

/** Runs `act`, waits for `done`, and measures wall time, writes and CPU around it. */
export async function phase(
  fy: Fleetyard,
  arm: () => Promise<{ done: Promise<{ at: number }> }>,
  act: () => Promise<void>,
): Promise<Phase & { t0: number }> {
  const before = writeCounts(await withClient(fy, metricsSamples));
  const waiter = await arm();
  const cpu0 = cpuTimes(fy.pid);
  const others = cpuWindow([fy.pid]);
  const t0 = performance.now();
  await act();
  const at = (await waiter.done).at;
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuTimes(fy.pid);
  const othersCores = others();
  // Writes that trail the last status change (a final condition update) belong to the run.
  await sleep(500);
  // A fresh connection: a wait longer than the server's keep-alive timeout (65 s) closes `client`'s.
  const after = writeCounts(await withClient(fy, metricsSamples));
  return {
    t0,
    ms: at - t0,
    writes: summariseWrites(difference(before, after)),
    serverCores: (cpu1.total - cpu0.total) / seconds,
    mainCores: (cpu1.main - cpu0.main) / seconds,
    others: othersCores,
  };
}

/**
 * The store's write limit on this server: 1 KiB ConfigMap creates through HTTPS, 2 processes
 * × 16 connections, in a namespace of its own (so the figure is the store's, not disturbed by
 * what the controllers do in `default`).
 */
export async function storeLimit(
  fy: Fleetyard,
  client: ApiClient,
  durationMs: number,
  index: number,
  namespace = 'bench-writes',
): Promise<{ perSecond: number; note: string }> {
  const ns = await client.request(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }),
  );
  if (ns.status !== 201) throw new Error(`create namespace: HTTP ${ns.status}`);
  const r = await runLoad({
    target: fy.target,
    workload: {
      kind: 'configmap-create',
      authority: fy.authority,
      token: fy.token,
      valueBytes: 1024,
      namespace,
    },
    processes: 2,
    connectionsPerProcess: 16,
    warmupMs: 500,
    durationMs,
    observePids: [fy.pid],
    workerIdBase: 1000 * (index + 1),
  });
  if (r.errors > 0) throw new Error(`configmap creates: ${r.errors} failed: ${r.firstError}`);
  const c = r.observed.get(fy.pid);
  const note = `server ${c?.total.toFixed(2)} cores (main ${c?.main.toFixed(2)}), generators ${r.generatorCores.toFixed(2)}`;
  return { perSecond: r.perSecond, note };
}
