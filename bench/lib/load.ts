/**
 * Runs a load over several generator processes (`load-worker.ts`) and aggregates their
 * throughput and latencies, plus the CPU the generators and the observed processes (the
 * server under test, etcd) used during the measured window. On 2 cores the generators
 * compete with the server, so every throughput figure comes with both CPU figures.
 *
 * @module
 */
import { cpus } from 'node:os';
import type { LoadWorkerConfig, LoadWorkerResult } from './load-worker.js';
import { type CpuTimes, cpuTimes, machineBusyCores, machineCpu } from './proc.js';
import type { Target } from './raw-http.js';
import { forkWorker, type WorkerHandle } from './worker-ipc.js';
import type { Workload } from './workloads.js';

const LOAD_WORKER = new URL('./load-worker.ts', import.meta.url);

export interface LoadSpec {
  readonly target: Target;
  /** Everything but `workerId`, which is the process index. */
  readonly workload: Omit<Workload, 'workerId'>;
  readonly processes: number;
  readonly connectionsPerProcess: number;
  readonly warmupMs?: number;
  readonly durationMs?: number;
  /** Total requests over all processes (count mode). */
  readonly requests?: number;
  /** Total paced rate over all processes. */
  readonly ratePerSecond?: number;
  readonly recordRevisions?: boolean;
  /** Processes whose CPU use over the window is reported (the server, etcd). */
  readonly observePids?: readonly number[];
  /** Added to ids so that two loads against one server create distinct names. */
  readonly workerIdBase?: number;
}

export interface LoadResult {
  readonly perSecond: number;
  readonly ok: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly latenciesMs: number[];
  readonly windowMs: number;
  /** Cores the generator processes used on average over their run. */
  readonly generatorCores: number;
  /** Cores each observed pid used over the window: total and main thread. */
  readonly observed: ReadonlyMap<number, CpuTimes>;
  /** Busy cores of the whole machine over the window. */
  readonly machineCores: number;
  /** Of those, cores used by other processes than the observed ones and the generators. */
  readonly otherCores: number;
  readonly revisions: number[];
}

function workerConfig(spec: LoadSpec, index: number): LoadWorkerConfig {
  const share = (n: number) => Math.ceil(n / spec.processes);
  return {
    target: spec.target,
    workload: { ...spec.workload, workerId: (spec.workerIdBase ?? 0) + index },
    connections: spec.connectionsPerProcess,
    warmupMs: spec.warmupMs ?? 0,
    ...(spec.durationMs !== undefined ? { durationMs: spec.durationMs } : {}),
    ...(spec.requests !== undefined ? { requests: share(spec.requests) } : {}),
    ...(spec.ratePerSecond !== undefined
      ? { ratePerSecond: spec.ratePerSecond / spec.processes }
      : {}),
    ...(spec.recordRevisions ? { recordRevisions: true } : {}),
  };
}

function sampleAll(pids: readonly number[]): Map<number, CpuTimes> {
  return new Map(pids.map((pid) => [pid, cpuTimes(pid)]));
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const warmupMs = spec.warmupMs ?? 0;
  // Count mode has no natural end: allow 2 minutes (10,000 pods take ~5 s here).
  const lifetimeMs = warmupMs + (spec.durationMs ?? 120_000) + 60_000;
  const workers: WorkerHandle<LoadWorkerResult>[] = [];
  try {
    for (let i = 0; i < spec.processes; i++) {
      workers.push(forkWorker(LOAD_WORKER, workerConfig(spec, i), lifetimeMs));
    }
    await Promise.all(workers.map((w) => w.ready));
    const pids = spec.observePids ?? [];
    let before = sampleAll(pids);
    let machineBefore = machineCpu();
    let windowStart = performance.now();
    const timer = setTimeout(() => {
      before = sampleAll(pids);
      machineBefore = machineCpu();
      windowStart = performance.now();
    }, warmupMs);
    for (const w of workers) w.start();
    const results = await Promise.all(workers.map((w) => w.result));
    clearTimeout(timer);
    const after = sampleAll(pids);
    const machineCores = machineBusyCores(machineBefore, machineCpu());
    const seconds = (performance.now() - windowStart) / 1000;
    const observed = new Map<number, CpuTimes>();
    for (const pid of pids) {
      const a = before.get(pid)!;
      const b = after.get(pid)!;
      observed.set(pid, {
        total: (b.total - a.total) / seconds,
        main: (b.main - a.main) / seconds,
      });
    }
    const r = aggregate(results, warmupMs, observed);
    const ours = r.generatorCores + [...observed.values()].reduce((n, c) => n + c.total, 0);
    return { ...r, machineCores, otherCores: Math.max(0, machineCores - ours) };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

function aggregate(
  results: readonly LoadWorkerResult[],
  warmupMs: number,
  observed: ReadonlyMap<number, CpuTimes>,
): Omit<LoadResult, 'machineCores' | 'otherCores'> {
  const windowMs = Math.max(...results.map((r) => r.windowMs));
  const ok = results.reduce((n, r) => n + r.ok, 0);
  const firstError = results.find((r) => r.firstError !== undefined)?.firstError;
  const runSeconds = (warmupMs + windowMs) / 1000;
  return {
    perSecond: ok / (windowMs / 1000),
    ok,
    errors: results.reduce((n, r) => n + r.errors, 0),
    ...(firstError !== undefined ? { firstError } : {}),
    latenciesMs: results.flatMap((r) => Array.from(r.latenciesMs)),
    windowMs,
    generatorCores: results.reduce((n, r) => n + r.cpuSeconds, 0) / runSeconds,
    observed,
    revisions: results.flatMap((r) => (r.revisions ? Array.from(r.revisions) : [])),
  };
}

/** `server 0.81 cores (main thread 0.63), generators 0.28, machine 1.95 of 2 busy`. */
export function cpuSummary(r: LoadResult, pid: number, label: string): string {
  const c = r.observed.get(pid);
  const own = c
    ? `${label} ${c.total.toFixed(2)} cores (main thread ${c.main.toFixed(2)})`
    : `${label} ?`;
  return `${own}, generators ${r.generatorCores.toFixed(2)}, machine ${r.machineCores.toFixed(2)} of ${cpus().length} cores busy (other processes ${r.otherCores.toFixed(2)})`;
}
