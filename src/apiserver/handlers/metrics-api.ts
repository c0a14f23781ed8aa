/**
 * The Metrics API (`metrics.k8s.io/v1beta1`), which a real cluster gets from metrics-server
 * behind an APIService: `nodes` (NodeMetrics) and `pods` (PodMetrics, namespaced), get and
 * list, with label selectors and the `metadata.name`/`metadata.namespace` field selectors.
 * Objects are shaped as metrics-server shapes them (`pkg/api`): metadata with the object's
 * name, namespace, labels and a creationTimestamp of now, `timestamp` (the scrape time: now),
 * `window` (the scrape interval), usage with CPU in canonical nano-core form (`250m`,
 * `3374249n`) and memory in bytes' binary form (`64Mi`, `12345Ki`). The numbers come from a
 * {@link MetricsSource} (the simulation). Never stored, so not in the registry: served before
 * it, as the Clock is, and listed in discovery beside the registry's groups.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { errorMessage } from '../../api/error-message.js';
import { badRequest, methodNotSupported, notFound, pathNotFound } from '../../api/errors.js';
import { parseFieldSelector } from '../../api/fields/selector.js';
import { parseLabelSelector } from '../../api/labels/selector.js';
import { asKind, type Node, type ObjectMeta, type Pod } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { formatQuantity } from '../../api/validation/quantity.js';
import { sendJson } from '../http/respond.js';
import type { MetricsSource } from '../kubelet/types.js';
import type { ResourceRequest } from '../request-info.js';
import { listPrefix } from '../store/keys.js';
import { decodeObjectJson } from '../store/object-json.js';
import type { ApiServices } from './context.js';
import type { ExtraResource } from './discovery.js';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
const API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;

/** metrics-server's scrape window (its `--metric-resolution` is 15 s; it reports ~10 s windows at the kubelet's housekeeping interval). */
export const METRICS_WINDOW = '10s';

export const METRICS_DISCOVERY: readonly ExtraResource[] = [
  {
    group: METRICS_GROUP,
    version: METRICS_VERSION,
    kind: 'NodeMetrics',
    plural: 'nodes',
    singular: '',
    namespaced: false,
    verbs: ['get', 'list'],
  },
  {
    group: METRICS_GROUP,
    version: METRICS_VERSION,
    kind: 'PodMetrics',
    plural: 'pods',
    singular: '',
    namespaced: true,
    verbs: ['get', 'list'],
  },
];

export function isMetricsRequest(info: ResourceRequest): boolean {
  return info.group === METRICS_GROUP;
}

const NANO = 1_000_000_000n;

/** metrics-server's usage list: `cpu` from nanocores (DecimalSI), `memory` from bytes (BinarySI). */
export function usageList(
  cpuNanoCores: bigint,
  memoryBytes: bigint,
): { cpu: string; memory: string } {
  return {
    cpu: formatQuantity({ nanos: cpuNanoCores, format: 'DecimalSI' }),
    memory: formatQuantity({ nanos: memoryBytes * NANO, format: 'BinarySI' }),
  };
}

interface Selection {
  labels: ReturnType<typeof parseLabelSelector>;
  fields: ReturnType<typeof parseFieldSelector>;
}

function selection(query: URLSearchParams): Selection {
  try {
    return {
      labels: parseLabelSelector(query.get('labelSelector') ?? ''),
      fields: parseFieldSelector(query.get('fieldSelector') ?? ''),
    };
  } catch (e) {
    throw badRequest(errorMessage(e));
  }
}

function list<T>(api: ApiServices, plural: string, namespace: string, as: (o: unknown) => T): T[] {
  const def = api.registry.get('', 'v1', plural);
  if (def === undefined) return [];
  return api.backend
    .list(listPrefix(def, namespace))
    .items.map((kv) => as(decodeObjectJson(def, kv.value)));
}

function selected(s: Selection, meta: ObjectMeta | undefined): boolean {
  const fields = { 'metadata.name': meta?.name ?? '', 'metadata.namespace': meta?.namespace ?? '' };
  return s.labels.matches(meta?.labels ?? {}) && s.fields.matches(fields);
}

function itemMeta(meta: ObjectMeta | undefined, now: string): Record<string, unknown> {
  return {
    name: meta?.name,
    ...(meta?.namespace ? { namespace: meta.namespace } : {}),
    creationTimestamp: now,
    ...(meta?.labels ? { labels: meta.labels } : {}),
  };
}

function podMetrics(source: MetricsSource, pod: Pod, now: string): object | undefined {
  const usage = source.podUsage(pod);
  if (usage === undefined) return undefined;
  return {
    metadata: itemMeta(pod.metadata, now),
    timestamp: now,
    window: METRICS_WINDOW,
    containers: usage.map((u) => ({
      name: u.name,
      usage: usageList(u.cpuNanoCores, u.memoryBytes),
    })),
  };
}

function nodeMetrics(
  source: MetricsSource,
  node: Node,
  pods: readonly Pod[],
  now: string,
): object | undefined {
  const usage = source.nodeUsage(
    node,
    pods.filter((p) => p.spec?.nodeName === node.metadata?.name),
  );
  if (usage === undefined) return undefined;
  return {
    metadata: itemMeta(node.metadata, now),
    timestamp: now,
    window: METRICS_WINDOW,
    usage: usageList(usage.cpuNanoCores, usage.memoryBytes),
  };
}

/** Serves one Metrics API request. */
export function handleMetrics(
  api: ApiServices,
  source: MetricsSource,
  res: ServerResponse,
  info: ResourceRequest,
  query: URLSearchParams,
): void {
  const resource = info.resource;
  const known =
    info.version === METRICS_VERSION &&
    (resource === 'nodes' || resource === 'pods') &&
    info.subresource === '';
  if (!known || (resource === 'nodes' && info.namespace !== '')) throw pathNotFound();
  const kind = resource === 'nodes' ? 'nodemetrics' : 'podmetrics';
  if (info.verb !== 'get' && info.verb !== 'list') {
    throw methodNotSupported({ group: METRICS_GROUP, resource: kind }, info.verb);
  }
  const now = formatTime(api.clock.now());
  const pods = list(api, 'pods', resource === 'pods' ? info.namespace : '', (o) =>
    asKind(o, 'Pod'),
  );
  const items =
    resource === 'pods'
      ? pods
          .flatMap((p) => (info.name !== '' && p.metadata?.name !== info.name ? [] : [p]))
          .map((p) => ({ meta: p.metadata, item: podMetrics(source, p, now) }))
      : list(api, 'nodes', '', (o) => asKind(o, 'Node'))
          .filter((n) => info.name === '' || n.metadata?.name === info.name)
          .map((n) => ({ meta: n.metadata, item: nodeMetrics(source, n, pods, now) }));
  if (info.name !== '') {
    const found = items[0]?.item;
    if (found === undefined) throw notFound({ group: METRICS_GROUP, resource: kind }, info.name);
    sendJson(res, 200, {
      kind: resource === 'nodes' ? 'NodeMetrics' : 'PodMetrics',
      apiVersion: API_VERSION,
      ...found,
    });
    return;
  }
  const s = selection(query);
  sendJson(res, 200, {
    kind: resource === 'nodes' ? 'NodeMetricsList' : 'PodMetricsList',
    apiVersion: API_VERSION,
    metadata: {},
    items: items.filter((i) => i.item !== undefined && selected(s, i.meta)).map((i) => i.item),
  });
}
