/**
 * Where the HPA reads pod usage: the resource Metrics API (`metrics.k8s.io/v1beta1` PodMetrics,
 * upstream `metrics/client.go`'s `resourceMetricsClient`). {@link PodMetricsSource} is the seam:
 * {@link ApiPodMetricsSource} lists PodMetrics through the API client, tests use
 * `testing/fake-metrics.ts`. {@link resourceMetrics} turns a listing into one resource's samples
 * as upstream's client does (a pod's sum over its containers, or one container's).
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import { type ApiClient, isNotFound } from '../../client/api-client.js';
import type { MetricsFetch } from './metric-specs.js';
import { milliValue, type PodMetric } from './replica-calculator.js';

/** One PodMetrics object, reduced to what the HPA reads. */
export interface PodMetricsItem {
  readonly name: string;
  readonly timestampMs: number;
  readonly windowMs: number;
  readonly containers: readonly {
    readonly name: string;
    readonly usage: Readonly<Record<string, unknown>>;
  }[];
}

/** Lists the PodMetrics of a namespace's pods that match a label selector. */
export interface PodMetricsSource {
  list(namespace: string, labelSelector: string, signal?: AbortSignal): Promise<PodMetricsItem[]>;
}

const POD_METRICS = { group: 'metrics.k8s.io', version: 'v1beta1', plural: 'pods' } as const;

/** metav1.Duration text (`30s`, `1m0s`, `1m30.5s`) in ms; the API server's default window 1 min. */
export function durationMs(v: unknown): number {
  if (typeof v !== 'string') return 60_000;
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;
  const unit: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    us: 1e-3,
    µs: 1e-3,
    ns: 1e-6,
  };
  let total = 0;
  let matched = false;
  for (const m of v.matchAll(re)) {
    matched = true;
    total += Number(m[1]) * (unit[m[2] ?? 's'] ?? 0);
  }
  return matched ? total : 60_000;
}

/** A PodMetrics object as {@link PodMetricsItem}; malformed parts read as absent. */
export function podMetricsItem(obj: KubeObject): PodMetricsItem {
  const containers = Array.isArray(obj.containers) ? obj.containers : [];
  return {
    name: obj.metadata?.name ?? '',
    timestampMs: parseTime(obj.timestamp) ?? 0,
    windowMs: durationMs(obj.window),
    containers: containers.filter(isJsonObject).map((c) => ({
      name: typeof c.name === 'string' ? c.name : '',
      usage: isJsonObject(c.usage) ? c.usage : {},
    })),
  };
}

/** The Metrics API through the controller's client (`GET …/namespaces/{ns}/pods?labelSelector=`). */
export class ApiPodMetricsSource implements PodMetricsSource {
  readonly #client: ApiClient;
  constructor(client: ApiClient) {
    this.#client = client;
  }

  async list(
    namespace: string,
    labelSelector: string,
    signal?: AbortSignal,
  ): Promise<PodMetricsItem[]> {
    try {
      const list = await this.#client.list(
        { ...POD_METRICS, namespace },
        { labelSelector, ...(signal !== undefined ? { signal } : {}) },
      );
      return list.items.map(podMetricsItem);
    } catch (err) {
      // client-go's text for a resource the server does not serve.
      if (isNotFound(err)) {
        throw new Error(
          'the server could not find the requested resource (get pods.metrics.k8s.io)',
        );
      }
      throw err;
    }
  }
}

/**
 * Upstream `GetResourceMetric` on a listing: no items is an error; otherwise per pod the sum of
 * its containers' usage of `resource` (a pod missing it in any container, or without containers,
 * has no sample), or, for `container`, that container's usage.
 */
export function resourceMetrics(
  items: readonly PodMetricsItem[],
  resource: string,
  container: string,
): MetricsFetch {
  const [first] = items;
  if (first === undefined)
    return { ok: false, error: 'no metrics returned from resource metrics API' };
  const metrics = new Map<string, PodMetric>();
  for (const item of items) {
    const sample = (value: number) => ({
      value,
      timestampMs: item.timestampMs,
      windowMs: item.windowMs,
    });
    if (container !== '') {
      const c = item.containers.find((x) => x.name === container);
      const value = c === undefined ? undefined : milliValue(c.usage[resource]);
      if (value !== undefined) metrics.set(item.name, sample(value));
      continue;
    }
    let sum = 0;
    let missing = item.containers.length === 0;
    for (const c of item.containers) {
      const value = milliValue(c.usage[resource]);
      if (value === undefined) {
        missing = true;
        break;
      }
      sum += value;
    }
    if (!missing) metrics.set(item.name, sample(sum));
  }
  return { ok: true, metrics, timestampMs: first.timestampMs };
}
