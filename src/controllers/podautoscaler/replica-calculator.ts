/**
 * The HPA's replica calculator (upstream `pkg/controller/podautoscaler/replica_calculator.go`
 * and `metrics/utilization.go`), as pure functions of the pods and their metrics: how many
 * replicas a resource metric asks for, as a utilization of requests (`GetResourceReplicas`) or
 * as an average value (`GetRawResourceReplicas` → `calcPlainMetricReplicas`).
 *
 * Upstream's integer arithmetic is kept where it changes results: utilization is
 * `⌊100·Σusage / Σrequests⌋` (an int32), the raw average `⌊Σusage / n⌋`, and a proposal is
 * `⌈ratio · pods⌉`. Values are milli-units (`200m` CPU is 200), as `Quantity.MilliValue()`.
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import { formatQuantity, parseQuantity } from '../../api/validation/quantity.js';

/** One pod's usage sample (upstream `metricsclient.PodMetric`). */
export interface PodMetric {
  /** Milli-units. */
  readonly value: number;
  /** When the sample was taken, ms since the epoch. */
  readonly timestampMs: number;
  /** The window the sample covers, ms. */
  readonly windowMs: number;
}

/** Samples by pod name (upstream `PodMetricsInfo`). */
export type PodMetricsInfo = ReadonlyMap<string, PodMetric>;

/** Ratio tolerances below and above 1.0 (upstream `Tolerances`; both 0.1 by default). */
export interface Tolerances {
  readonly scaleDown: number;
  readonly scaleUp: number;
}

/** Upstream's `--horizontal-pod-autoscaler-tolerance` default. */
export const DEFAULT_TOLERANCE = 0.1;
/** `--horizontal-pod-autoscaler-cpu-initialization-period` default: 5 min. */
export const DEFAULT_CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** `--horizontal-pod-autoscaler-initial-readiness-delay` default: 30 s. */
export const DEFAULT_INITIAL_READINESS_DELAY_MS = 30_000;

/** Upstream `Tolerances.isWithin`: no change while the ratio stays in [1−down, 1+up]. */
export function isWithinTolerance(t: Tolerances, usageRatio: number): boolean {
  return 1.0 - t.scaleDown <= usageRatio && usageRatio <= 1.0 + t.scaleUp;
}

/** How pods are sorted out before a calculation (upstream `groupPods`). */
export interface PodGroups {
  readonly readyPodCount: number;
  readonly unready: ReadonlySet<string>;
  readonly missing: ReadonlySet<string>;
  readonly ignored: ReadonlySet<string>;
}

/** The timing parameters of {@link groupPods}. */
export interface ReadinessTiming {
  /** Now, ms since the epoch. */
  readonly nowMs: number;
  readonly cpuInitializationPeriodMs: number;
  readonly delayOfInitialReadinessStatusMs: number;
}

function timeMs(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Upstream `groupPods`: deleted and Failed pods are ignored, Pending ones unready, pods without
 * a sample missing; for CPU, a pod still in its initialization period counts as unready when
 * not Ready or when its sample predates one window after the last readiness change, and after
 * it when it is not Ready and has never been Ready (its condition changed within the initial
 * readiness delay of its start).
 */
export function groupPods(
  pods: readonly Pod[],
  metrics: PodMetricsInfo,
  resource: string,
  timing: ReadinessTiming,
): PodGroups {
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  let readyPodCount = 0;
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const phase = pod.status?.phase;
    if (pod.metadata?.deletionTimestamp !== undefined || phase === 'Failed') {
      ignored.add(name);
      continue;
    }
    if (phase === 'Pending') {
      unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (metric === undefined) {
      missing.add(name);
      continue;
    }
    if (resource === 'cpu' && cpuSampleUnready(pod, metric, timing)) {
      unready.add(name);
      continue;
    }
    readyPodCount++;
  }
  return { readyPodCount, unready, missing, ignored };
}

/** Go's zero `time.Time` (0001-01-01T00:00:00Z), what an absent transition time reads as. */
export const GO_ZERO_TIME_MS = -62_135_596_800_000;

function cpuSampleUnready(pod: Pod, metric: PodMetric, timing: ReadinessTiming): boolean {
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const start = timeMs(pod.status?.startTime);
  if (ready === undefined || start === undefined) return true;
  const transition = timeMs(ready.lastTransitionTime) ?? GO_ZERO_TIME_MS;
  if (start + timing.cpuInitializationPeriodMs > timing.nowMs) {
    return ready.status === 'False' || metric.timestampMs < transition + metric.windowMs;
  }
  return ready.status === 'False' && start + timing.delayOfInitialReadinessStatusMs > transition;
}

/** `Quantity.MilliValue()`: rounded up to a whole milli-unit. */
export function milliValue(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = parseQuantity(v);
  if (!r.ok) return undefined;
  const milli = 1_000_000n;
  const n = r.quantity.nanos;
  const q = n / milli;
  return Number(n > 0n && n % milli !== 0n ? q + 1n : q);
}

/** `resource.NewMilliQuantity(n, DecimalSI).String()`: e.g. `500m`, `1`, `1500m`. */
export function milliQuantity(n: number): string {
  return formatQuantity({ nanos: BigInt(Math.trunc(n)) * 1_000_000n, format: 'DecimalSI' });
}

/**
 * Upstream `calculateRequests` (container requests; pod-level requests are behind the
 * PodLevelResources gate, off in v1.33): per pod, the sum of the named container's, or of every
 * container's and restartable init container's, request for `resource`.
 */
export function calculateRequests(
  pods: readonly Pod[],
  container: string,
  resource: string,
): { ok: true; requests: Map<string, number> } | { ok: false; error: string } {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const containers = [
      ...(pod.spec?.containers ?? []),
      ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
    ];
    let request = 0;
    let found = false;
    for (const c of containers) {
      if (container !== '' && c.name !== container) continue;
      const value = milliValue(c.resources?.requests?.[resource]);
      if (value === undefined) {
        return {
          ok: false,
          error: `missing request for ${resource} in container ${c.name} of Pod ${name}`,
        };
      }
      request += value;
      found = true;
      if (container !== '') break;
    }
    if (container !== '' && !found) {
      return { ok: false, error: `container ${container} not found in Pod ${name}` };
    }
    requests.set(name, request);
  }
  return { ok: true, requests };
}

/** Upstream `GetResourceUtilizationRatio`. */
export function resourceUtilizationRatio(
  metrics: PodMetricsInfo,
  requests: ReadonlyMap<string, number>,
  targetUtilization: number,
):
  | { ok: true; ratio: number; utilization: number; rawAverage: number }
  | { ok: false; error: string } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, metric] of metrics) {
    const request = requests.get(name);
    // Requests are checked elsewhere: a sample without one is an extraneous pod's.
    if (request === undefined) continue;
    metricsTotal += metric.value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) return { ok: false, error: 'no metrics returned matched known pods' };
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return {
    ok: true,
    ratio: utilization / targetUtilization,
    utilization,
    rawAverage: Math.trunc(metricsTotal / entries),
  };
}

/** Upstream `GetMetricUsageRatio`: the truncated average against the target. */
export function metricUsageRatio(
  metrics: PodMetricsInfo,
  targetUsage: number,
): { ratio: number; usage: number } {
  let total = 0;
  for (const m of metrics.values()) total += m.value;
  const usage = Math.trunc(total / metrics.size);
  return { ratio: usage / targetUsage, usage };
}

/** What a resource calculation needs besides the samples. */
export interface ReplicaCalcInput {
  readonly currentReplicas: number;
  readonly pods: readonly Pod[];
  readonly metrics: PodMetricsInfo;
  /** `cpu`, `memory`… */
  readonly resource: string;
  /** A container name (ContainerResource metrics), or `''` for the whole pod. */
  readonly container: string;
  readonly tolerances: Tolerances;
  readonly timing: ReadinessTiming;
}

export type UtilizationResult =
  | { ok: true; replicas: number; utilization: number; rawUtilization: number }
  | { ok: false; error: string };

export type UsageResult =
  | { ok: true; replicas: number; usage: number }
  | { ok: false; error: string };

const NO_PODS = 'no pods returned by selector while calculating replica count';
const NO_SAMPLES = 'did not receive metrics for targeted pods (pods might be unready)';

/** The samples of the pods that count: ignored and unready pods' removed. */
function countedSamples(groups: PodGroups, metrics: PodMetricsInfo): Map<string, PodMetric> {
  const counted = new Map(metrics);
  for (const name of groups.ignored) counted.delete(name);
  for (const name of groups.unready) counted.delete(name);
  return counted;
}

function zero(): PodMetric {
  return { value: 0, timestampMs: 0, windowMs: 0 };
}

/**
 * The samples with the pods that had none filled in (upstream: a missing pod uses `onScaleDown`
 * of it when scaling down, nothing when scaling up) and, when scaling up with unready pods,
 * those at zero: either way the pods without a usable sample can only dampen the change.
 */
function rebalance(
  counted: Map<string, PodMetric>,
  groups: PodGroups,
  ratio: number,
  onScaleDown: (pod: string) => number,
): Map<string, PodMetric> {
  for (const name of groups.missing) {
    if (ratio < 1.0) counted.set(name, { ...zero(), value: onScaleDown(name) });
    else if (ratio > 1.0) counted.set(name, zero());
  }
  if (groups.unready.size > 0 && ratio > 1.0) {
    for (const name of groups.unready) counted.set(name, zero());
  }
  return counted;
}

/**
 * The count after rebalancing: unchanged when the new ratio is within tolerance or flipped the
 * direction, or when the larger pod count would flip it; else ⌈ratio · pods counted⌉.
 */
function rebalancedReplicas(
  t: Tolerances,
  current: number,
  ratio: number,
  newRatio: number,
  counted: number,
): number {
  const flipped = (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0);
  if (isWithinTolerance(t, newRatio) || flipped) return current;
  const replicas = Math.ceil(newRatio * counted);
  if ((newRatio < 1.0 && replicas > current) || (newRatio > 1.0 && replicas < current)) {
    return current;
  }
  return replicas;
}

/** The count when every pod has a usable sample: unchanged within tolerance. */
function directReplicas(t: Tolerances, current: number, ratio: number, ready: number): number {
  return isWithinTolerance(t, ratio) ? current : Math.ceil(ratio * ready);
}

function needsRebalance(groups: PodGroups, ratio: number): boolean {
  return (groups.unready.size > 0 && ratio > 1.0) || groups.missing.size > 0;
}

/** Upstream `GetResourceReplicas` (a Utilization target, percent of requests). */
export function resourceReplicas(
  input: ReplicaCalcInput,
  targetUtilization: number,
): UtilizationResult {
  const { pods, resource, tolerances: t, currentReplicas } = input;
  if (pods.length === 0) return { ok: false, error: NO_PODS };
  const groups = groupPods(pods, input.metrics, resource, input.timing);
  const metrics = countedSamples(groups, input.metrics);
  if (metrics.size === 0) return { ok: false, error: NO_SAMPLES };
  const req = calculateRequests(pods, input.container, resource);
  if (!req.ok) return req;
  const first = resourceUtilizationRatio(metrics, req.requests, targetUtilization);
  if (!first.ok) return first;
  const { ratio, utilization, rawAverage: rawUtilization } = first;
  const result = (replicas: number): UtilizationResult => ({
    ok: true,
    replicas,
    utilization,
    rawUtilization,
  });
  if (!needsRebalance(groups, ratio)) {
    return result(directReplicas(t, currentReplicas, ratio, groups.readyPodCount));
  }
  // A pod without a sample uses 100 % of its request on a scale-down (or the target, if higher).
  const fallback = Math.max(100, targetUtilization);
  const onScaleDown = (pod: string) => Math.trunc(((req.requests.get(pod) ?? 0) * fallback) / 100);
  const filled = rebalance(metrics, groups, ratio, onScaleDown);
  const second = resourceUtilizationRatio(filled, req.requests, targetUtilization);
  if (!second.ok) return second;
  return result(rebalancedReplicas(t, currentReplicas, ratio, second.ratio, filled.size));
}

/** Upstream `calcPlainMetricReplicas` (an AverageValue target, milli-units per pod). */
export function plainMetricReplicas(input: ReplicaCalcInput, targetUsage: number): UsageResult {
  const { pods, tolerances: t, currentReplicas } = input;
  if (pods.length === 0) return { ok: false, error: NO_PODS };
  const groups = groupPods(pods, input.metrics, input.resource, input.timing);
  const metrics = countedSamples(groups, input.metrics);
  if (metrics.size === 0) return { ok: false, error: NO_SAMPLES };
  const { ratio, usage } = metricUsageRatio(metrics, targetUsage);
  if (!needsRebalance(groups, ratio)) {
    return {
      ok: true,
      replicas: directReplicas(t, currentReplicas, ratio, groups.readyPodCount),
      usage,
    };
  }
  // A pod without a sample uses exactly the target on a scale-down.
  const filled = rebalance(metrics, groups, ratio, () => targetUsage);
  const newRatio = metricUsageRatio(filled, targetUsage).ratio;
  return {
    ok: true,
    replicas: rebalancedReplicas(t, currentReplicas, ratio, newRatio, filled.size),
    usage,
  };
}
