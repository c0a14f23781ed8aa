/**
 * The scale group's rows (`bench/scale.ts` measures, this renders): targets of issue 20 and
 * the per-object memory accounting.
 *
 * @module
 */
import { type BenchRow, percentile } from './report.js';
import { type FillStep, type IdleWindow, type PagedList, rateOver } from './scale-ops.js';

export interface ScaleSizes {
  readonly nodes: number;
  readonly deployments: number;
  readonly replicas: number;
  readonly idleSeconds: number;
  readonly walks: number;
  /** No new Deployment starts past this long after the first (the figures say the size reached). */
  readonly fillBudgetMs: number;
  /** The memory split's servers: nodes and pods. */
  readonly splitNodes: number;
  readonly splitDeployments: number;
  readonly splitReplicas: number;
}

/** The memory split at a smaller size: KiB of RSS per pod added, three ways. */
export interface Split {
  readonly pods: number;
  readonly clusterKb: number;
  readonly noDashboardKb: number;
  readonly serverAloneKb: number;
  /** Bytes of a pod's JSON as the API serves it (a page's bytes ÷ its items). */
  readonly storedJsonBytes: number;
}

export interface ScaleResult {
  readonly sizes: ScaleSizes;
  readonly quick: boolean;
  /** From the spawn to every node Ready. */
  readonly readyMs: number;
  /** RSS of `up` with 1 idle node (settled), MiB. */
  readonly oneNodeRss: number;
  readonly idleNodes: IdleWindow;
  readonly idlePods: IdleWindow;
  readonly steps: readonly FillStep[];
  readonly peakMb: number;
  readonly walks: readonly PagedList[];
  /** Events in the store after the fill (they live an hour) and their JSON size. */
  readonly events: { readonly count: number; readonly bytesEach: number };
  /** Why the fill stopped short of its size, if it did. */
  readonly stopped?: string;
}

const TARGET_PODS_PER_SECOND = 500;
/** 1.5 GiB in MiB (what /proc's kB ÷ 1024 gives). */
const TARGET_RSS_MB = 1536;
const TARGET_IDLE_PERCENT = 10;
const TARGET_PAGE_P99_MS = 50;

const n = (x: number): string => x.toLocaleString('en-US');

function idleNote(w: IdleWindow): string {
  return `over ${w.seconds.toFixed(0)} s: main thread ${(w.mainCores * 100).toFixed(1)} %, the other threads (controller thread, GC, libuv) ${((w.cores - w.mainCores) * 100).toFixed(1)} %; ${w.leaseWrites.toFixed(1)} Lease writes/s, ${w.statusWrites.toFixed(1)} node status writes/s, ${w.otherWrites.toFixed(1)} other writes/s (apiserver_request_total); ${w.fds} open file descriptors`;
}

export function scaleRows(r: ScaleResult, sp: Split): BenchRow[] {
  // The Deployments that became available (all of them unless the fill stopped short).
  const s = { ...r.sizes, deployments: r.steps.length };
  const pods = s.deployments * s.replicas;
  const want = r.sizes.deployments * r.sizes.replicas;
  const short =
    r.stopped !== undefined ? `SHORT: ${n(pods)} of ${n(want)} pods: ${r.stopped}; ` : '';
  const quick = r.quick
    ? `QUICK: ${n(s.nodes)} nodes, ${n(want)} pods instead of 1,000 / 100,000; `
    : '';
  const q = `${quick}${short}`;
  // Rows measured before the fill do not depend on how far it got.
  const qn = quick;
  const size = `${n(s.nodes)} nodes, ${n(pods)} pods`;
  // The last quarter of the fill (at least one step): the cluster is already big.
  const tailFrom = Math.min(s.deployments - 1, Math.floor((s.deployments * 3) / 4));
  const tail = rateOver(r.steps, tailFrom);
  const whole = rateOver(r.steps, 0);
  const stepRates = r.steps.map((x) => x.replicas / (x.ms / 1000));
  const lastRss = r.idlePods.lastRssMb;
  const pages = r.walks.flatMap((w) => [w.p99]);
  const pageP99 = Math.max(...pages);
  const perNodeKb = ((r.idleNodes.minRssMb - r.oneNodeRss) * 1024) / Math.max(1, s.nodes - 1);
  const perPodKb = ((r.idlePods.minRssMb - r.idleNodes.minRssMb) * 1024) / pods;
  const dashboardKb = sp.clusterKb - sp.noDashboardKb;
  const controllersKb = sp.noDashboardKb - sp.serverAloneKb;
  const splitQ = `${n(sp.pods)} pods on ${n(s.splitNodes)} nodes, each in a fresh server`;
  return [
    {
      name: `scale: ${n(s.nodes)} nodes registered and Ready`,
      value: r.readyMs,
      unit: 'ms',
      note: `${qn}from the spawn of up --ephemeral --nodes ${s.nodes} until a watch saw every Node Ready`,
    },
    {
      name: `scale: creates → Running at ${n(pods - s.replicas * (s.deployments - tailFrom))}…${n(pods)} pods`,
      value: tail,
      unit: 'pods/s',
      target: `>= ${TARGET_PODS_PER_SECOND}`,
      met: tail >= TARGET_PODS_PER_SECOND,
      note: `${q}the last ${s.deployments - tailFrom} of ${s.deployments} Deployments of ${n(s.replicas)} replicas (pods ÷ time); each from its create's answer to availableReplicas == ${n(s.replicas)}, one at a time; per Deployment: ${stepRates.map((x) => Math.round(x)).join(', ')} pods/s`,
    },
    {
      name: `scale: creates → Running, the whole fill to ${n(pods)} pods`,
      value: whole,
      unit: 'pods/s',
      note: `${q}cores of the process per Deployment: ${r.steps.map((x) => x.cores.toFixed(2)).join(', ')}`,
    },
    {
      name: `scale: RSS with ${size}`,
      value: lastRss,
      unit: 'MB',
      target: `<= ${TARGET_RSS_MB}`,
      met: lastRss <= TARGET_RSS_MB,
      note: `${q}VmRSS (MiB) of the whole up process (API server, store, controller thread, dashboard) at the end of the idle window after the fill`,
    },
    {
      name: `scale: peak RSS (VmHWM) up to ${size}`,
      value: r.peakMb,
      unit: 'MB',
      target: `<= ${TARGET_RSS_MB}`,
      met: r.peakMb <= TARGET_RSS_MB,
      note: `${q}the high-water mark over start, fill and idle (before the list walks)`,
    },
    {
      name: `scale: idle CPU with ${n(s.nodes)} nodes, no pods`,
      value: r.idleNodes.cores * 100,
      unit: '% of a core',
      target: `<= ${TARGET_IDLE_PERCENT}`,
      met: r.idleNodes.cores * 100 <= TARGET_IDLE_PERCENT,
      note: `${qn}${idleNote(r.idleNodes)}`,
    },
    {
      name: `scale: idle CPU with ${size}`,
      value: r.idlePods.cores * 100,
      unit: '% of a core',
      target: `<= ${TARGET_IDLE_PERCENT}`,
      met: r.idlePods.cores * 100 <= TARGET_IDLE_PERCENT,
      note: `${q}${idleNote(r.idlePods)}`,
    },
    {
      name: `scale: paginated list of ${n(pods)} pods, p99 per page (limit=500)`,
      value: pageP99,
      unit: 'ms',
      target: `<= ${TARGET_PAGE_P99_MS}`,
      met: pageP99 <= TARGET_PAGE_P99_MS,
      note: `${q}GET /api/v1/pods?limit=500 and its continue tokens on one keep-alive connection, as client-go's ListPager; worst walk's p99 of ${r.walks.length}; per walk: ${r.walks.map((w) => `${w.pages} pages, p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, max ${w.max.toFixed(1)} ms, whole walk ${Math.round(w.totalMs)} ms`).join('; ')}`,
    },
    {
      name: `scale: memory per node`,
      value: perNodeKb,
      unit: 'KiB',
      note: `${qn}(RSS with ${n(s.nodes)} idle nodes ${r.idleNodes.minRssMb.toFixed(0)} MB − RSS with 1 idle node ${r.oneNodeRss.toFixed(0)} MB) ÷ ${s.nodes - 1}: the Node and its Lease in the store and in the informers, the heartbeat loops, the kubelet's per-node state`,
    },
    {
      name: `scale: memory per running pod at ${n(pods)} pods`,
      value: perPodKb,
      unit: 'KiB',
      note: `${q}(RSS after the fill − RSS with the idle nodes) ÷ ${n(pods)}, smallest of the samples of each idle window; a pod's JSON as served: ${Math.round(
        percentile(
          r.walks.map((w) => w.bytesPerItem),
          50,
        ),
      )} B`,
    },
    {
      name: `scale: memory per pod, the whole cluster (${n(sp.pods)} pods)`,
      value: sp.clusterKb,
      unit: 'KiB',
      note: `${splitQ}; settled RSS after − before the fill`,
    },
    {
      name: `scale: memory per pod, API server and store alone`,
      value: sp.serverAloneKb,
      unit: 'KiB',
      note: `${splitQ}: up --controllers= holding the same pods (POSTed, then the running pod's status PUT); the pod's JSON is ${Math.round(sp.storedJsonBytes)} B, so the store and server keep ${(sp.serverAloneKb / (sp.storedJsonBytes / 1024)).toFixed(1)}× the JSON (the stored string, the watch history's copies, indexes, the API server's caches)`,
    },
    {
      name: `scale: memory per pod, controller thread and the rest`,
      value: controllersKb,
      unit: 'KiB',
      note: `${splitQ}: --dashboard=false cluster (${sp.noDashboardKb.toFixed(1)} KiB/pod) − the server alone: the informer caches (one decoded copy per watched resource shared by the controllers), the scheduler's cache, the simulated kubelets' state, Events`,
    },
    {
      name: `scale: memory per pod, the dashboard's change recorder`,
      value: dashboardKb,
      unit: 'KiB',
      note: `${splitQ}: the cluster as up starts it − the same with --dashboard=false`,
    },
  ];
}
