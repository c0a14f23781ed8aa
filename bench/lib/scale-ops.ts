/**
 * What the scale group (`bench/scale.ts`) does to a big `fleetyard up`: fill it with pods
 * through Deployments while timing each one, watch it idle (CPU and heartbeat writes over a
 * window), page through every pod as client-go's pager does, and fill an API server alone
 * with the same pods (for the split of memory per pod between the store and the rest).
 *
 * Every figure is read from outside the process (/proc, `/metrics`, the API): the server
 * under measurement has no debug route.
 *
 * @module
 */
import { readdirSync } from 'node:fs';
import { createDeployment, metricsSamples } from './cluster-ops.js';
import { ApiClient, type Fleetyard } from './fleetyard.js';
import { withClient } from './measure.js';
import { sleep } from './options.js';
import { cpuTimes, rssMb } from './proc.js';
import { sumBy } from './prom-text.js';
import { percentile } from './report.js';
import { statusNumber, watchUntil } from './watch-until.js';

const IMAGE = 'registry.example.com/web:1.0';

/** One Deployment of the fill: its size, wall time to available, and the RSS afterwards. */
export interface FillStep {
  readonly name: string;
  readonly replicas: number;
  /** Pods running (available) once this step is done, this one included. */
  readonly total: number;
  readonly ms: number;
  readonly rssMb: number;
  /** Cores the process used during the step (all threads). */
  readonly cores: number;
}

/**
 * Creates `count` Deployments of `replicas` each, one after the other, each timed from its
 * create's answer until its `availableReplicas` reaches `replicas` (one watch stream on the
 * Deployments, never a list of pods).
 */
export interface Fill {
  readonly steps: FillStep[];
  /** Why the fill stopped short of `count` Deployments (a step timed out, the budget ran out). */
  readonly stopped?: string;
}

/**
 * Creates up to `count` Deployments of `replicas` each, one after the other, each timed from
 * its create's answer until its `availableReplicas` reaches `replicas` (one watch stream on
 * the Deployments, never a list of pods). Stops early, saying why, when a step takes longer
 * than at 10 pods/s or the next step would start past `budgetMs` from the first.
 */
export async function fillWithDeployments(
  fy: Fleetyard,
  count: number,
  replicas: number,
  log: (line: string) => void,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<Fill> {
  const steps: FillStep[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    if (performance.now() - start > budgetMs) {
      const stopped = `the fill's budget of ${Math.round(budgetMs / 60_000)} min ran out after ${steps.length} of ${count} Deployments`;
      log(`  ${stopped}`);
      return { steps, stopped };
    }
    const name = `scale-${i + 1}`;
    const w = await watchUntil(
      fy,
      '/apis/apps/v1/namespaces/default/deployments',
      (ds) => statusNumber(ds.get(name), 'availableReplicas') >= replicas,
      // At 10 pods/s (fifty times slower than the target) a step still ends in time.
      60_000 + replicas * 100,
    );
    const cpu0 = cpuTimes(fy.pid).total;
    const t0 = performance.now();
    await withClient(fy, (c) => createDeployment(c, name, replicas, IMAGE));
    let at: number;
    try {
      at = (await w.done).at;
    } catch (e) {
      const stopped = `Deployment ${name} was not available in time (${e instanceof Error ? e.message : String(e)})`;
      log(`  ${stopped}`);
      return { steps, stopped };
    }
    const ms = at - t0;
    const cores = (cpuTimes(fy.pid).total - cpu0) / (ms / 1000);
    const step = {
      name,
      replicas,
      total: (i + 1) * replicas,
      ms,
      rssMb: rssMb(fy.pid),
      cores,
    };
    steps.push(step);
    log(
      `  ${step.total} pods: +${replicas} in ${(ms / 1000).toFixed(1)} s (${Math.round(replicas / (ms / 1000))} pods/s, ${cores.toFixed(2)} cores), RSS ${step.rssMb.toFixed(0)} MB`,
    );
  }
  return { steps };
}

/** Pods/s over the steps from index `from` on (total pods ÷ total time). */
export function rateOver(steps: readonly FillStep[], from: number): number {
  const tail = steps.slice(from);
  const pods = tail.reduce((a, s) => a + s.replicas, 0);
  const ms = tail.reduce((a, s) => a + s.ms, 0);
  return pods / (ms / 1000);
}

/** A window of the process left alone: its CPU, RSS, and the heartbeat writes in it. */
export interface IdleWindow {
  readonly seconds: number;
  /** Cores (all threads, main thread) over the window. */
  readonly cores: number;
  readonly mainCores: number;
  /** Lease writes and node status writes per second (apiserver_request_total). */
  readonly leaseWrites: number;
  readonly statusWrites: number;
  /** Every other write per second (should be ~0 in an idle cluster). */
  readonly otherWrites: number;
  /** Smallest RSS sampled (each second) over the window: the least garbage. */
  readonly minRssMb: number;
  readonly lastRssMb: number;
  /** Open file descriptors at the end (sockets mostly: both ends of every client connection). */
  readonly fds: number;
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);

function writesByResource(samples: Awaited<ReturnType<typeof metricsSamples>>) {
  return sumBy(samples, 'apiserver_request_total', (l) =>
    WRITE_VERBS.has(l.verb ?? '') ? (l.resource ?? '') : undefined,
  );
}

export async function idleWindow(fy: Fleetyard, seconds: number): Promise<IdleWindow> {
  const before = writesByResource(await withClient(fy, metricsSamples));
  const cpu0 = cpuTimes(fy.pid);
  const t0 = performance.now();
  const rss: number[] = [];
  while (performance.now() - t0 < seconds * 1000) {
    await sleep(1000);
    rss.push(rssMb(fy.pid));
  }
  const cpu1 = cpuTimes(fy.pid);
  const elapsed = (performance.now() - t0) / 1000;
  const after = writesByResource(await withClient(fy, metricsSamples));
  const delta = (k: string): number => ((after.get(k) ?? 0) - (before.get(k) ?? 0)) / elapsed;
  let other = 0;
  for (const k of after.keys()) if (k !== 'leases' && k !== 'nodes/status') other += delta(k);
  return {
    seconds: elapsed,
    cores: (cpu1.total - cpu0.total) / elapsed,
    mainCores: (cpu1.main - cpu0.main) / elapsed,
    leaseWrites: delta('leases'),
    statusWrites: delta('nodes/status'),
    otherWrites: other,
    minRssMb: Math.min(...rss),
    lastRssMb: rss.at(-1) ?? Number.NaN,
    fds: readdirSync(`/proc/${fy.pid}/fd`).length,
  };
}

export interface PagedList {
  readonly pages: number;
  readonly items: number;
  /** Per page, ms: request written → whole body read. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The whole walk, ms. */
  readonly totalMs: number;
  /** Bytes of JSON per item (page bytes ÷ items). */
  readonly bytesPerItem: number;
}

interface PodPage {
  readonly metadata: { readonly continue?: string };
  readonly items: readonly unknown[];
}

/** Walks `/api/v1/pods` with `limit` and continue tokens, as client-go's ListPager does. */
export async function pagedList(fy: Fleetyard, limit: number): Promise<PagedList> {
  const client = await ApiClient.open(fy);
  const times: number[] = [];
  let items = 0;
  let bytes = 0;
  const t0 = performance.now();
  try {
    let token: string | undefined;
    do {
      const q = `limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const s = performance.now();
      const res = await client.request('GET', `/api/v1/pods?${q}`);
      times.push(performance.now() - s);
      if (res.status !== 200) throw new Error(`list pods: HTTP ${res.status}`);
      const page = JSON.parse(res.body.toString('utf8')) as PodPage;
      items += page.items.length;
      bytes += res.body.length;
      token = page.metadata.continue || undefined;
    } while (token !== undefined);
  } finally {
    client.close();
  }
  return {
    pages: times.length,
    items,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: Math.max(...times),
    totalMs: performance.now() - t0,
    bytesPerItem: bytes / Math.max(1, items),
  };
}

/** A running pod of the cluster, stripped to what a create may carry (status kept aside). */
export interface PodTemplate {
  readonly body: Record<string, unknown>;
  readonly status: Record<string, unknown>;
}

export async function runningPodTemplate(fy: Fleetyard): Promise<PodTemplate> {
  const list = await withClient(fy, (c) =>
    c.getJson<{ items: Array<Record<string, unknown>> }>(
      '/api/v1/namespaces/default/pods?limit=1&fieldSelector=status.phase%3DRunning',
    ),
  );
  const pod = list.items[0];
  if (pod === undefined) throw new Error('no running pod to copy');
  const { status, metadata, ...rest } = pod as {
    status: Record<string, unknown>;
    metadata: Record<string, unknown>;
  };
  const { labels, annotations, ownerReferences } = metadata;
  return {
    body: { ...rest, metadata: { labels, annotations, ownerReferences } },
    status,
  };
}

/**
 * Creates `count` pods like `template` in an API server alone, then writes each one's status
 * as the running pod's (so the stored objects are the same size as the cluster's), with
 * `connections` requests in flight.
 */
export async function fillServerAlone(
  fy: Fleetyard,
  template: PodTemplate,
  count: number,
  connections: number,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    const c = await ApiClient.open(fy);
    try {
      for (let i = next++; i < count; i = next++) {
        const name = `alone-${i}`;
        const pod = {
          ...template.body,
          metadata: { ...(template.body.metadata as object), name },
        };
        const created = await c.request(
          'POST',
          '/api/v1/namespaces/default/pods',
          JSON.stringify(pod),
        );
        if (created.status !== 201) throw new Error(`create pod: HTTP ${created.status}`);
        const stored = JSON.parse(created.body.toString('utf8')) as Record<string, unknown>;
        const res = await c.request(
          'PUT',
          `/api/v1/namespaces/default/pods/${name}/status`,
          JSON.stringify({ ...stored, status: template.status }),
        );
        if (res.status !== 200) throw new Error(`pod status: HTTP ${res.status} ${res.body}`);
      }
    } finally {
      c.close();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

/** The smallest of `n` RSS samples a second apart (the least garbage on the heap). */
export async function settledRss(pid: number, n: number): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    xs.push(rssMb(pid));
    if (i < n - 1) await sleep(1000);
  }
  return Math.min(...xs);
}

/** How many `path` objects there are and their JSON bytes each (from one page of 500). */
export async function countAndSize(
  fy: Fleetyard,
  path: string,
): Promise<{ count: number; bytesEach: number }> {
  const client = await ApiClient.open(fy);
  try {
    const res = await client.request('GET', `${path}?limit=500`);
    if (res.status !== 200) throw new Error(`list ${path}: HTTP ${res.status}`);
    const page = JSON.parse(res.body.toString('utf8')) as {
      metadata: { remainingItemCount?: number };
      items: unknown[];
    };
    const count = page.items.length + (page.metadata.remainingItemCount ?? 0);
    const bytesEach =
      page.items.reduce<number>((a, i) => a + JSON.stringify(i).length, 0) /
      Math.max(1, page.items.length);
    return { count, bytesEach };
  } finally {
    client.close();
  }
}
