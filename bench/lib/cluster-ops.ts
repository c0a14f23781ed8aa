/**
 * What the workloads benchmark does to a running `fleetyard up`: Deployments without
 * simulation annotations (so every simulated delay is zero), waits through one watch stream
 * (`watch-until.ts`), and `/metrics` snapshots for write counts and reconcile latency.
 *
 * @module
 */
import type { ApiClient, Fleetyard } from './fleetyard.js';
import { parsePrometheus, type Sample, sumBy } from './prom-text.js';
import { type KObject, statusNumber, type Waiter, watchUntil } from './watch-until.js';

export const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
export const REPLICA_SETS = '/apis/apps/v1/namespaces/default/replicasets';

/** kube verbs that write (apiserver_request_total's `verb` label). */
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** A plain one-container Deployment: no sim annotations, no probes, default RollingUpdate. */
export function deploymentBody(name: string, replicas: number, image: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'web', image, ports: [{ containerPort: 8080, protocol: 'TCP' }] }],
        },
      },
    },
  });
}

export async function createDeployment(
  client: ApiClient,
  name: string,
  replicas: number,
  image: string,
): Promise<void> {
  const res = await client.request('POST', DEPLOYMENTS, deploymentBody(name, replicas, image));
  if (res.status !== 201)
    throw new Error(`create deployment ${name}: HTTP ${res.status} ${res.body.toString()}`);
}

/** GET + PUT of the template's image (retried on a conflict with a status write). */
export async function setImage(client: ApiClient, name: string, image: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const d = await client.getJson<{
      spec: { template: { spec: { containers: Array<{ image: string }> } } };
    }>(`${DEPLOYMENTS}/${name}`);
    d.spec.template.spec.containers[0]!.image = image;
    const res = await client.request('PUT', `${DEPLOYMENTS}/${name}`, JSON.stringify(d));
    if (res.status === 200) return;
    if (res.status !== 409)
      throw new Error(`update deployment ${name}: HTTP ${res.status} ${res.body.toString()}`);
  }
  throw new Error(`update deployment ${name}: 10 conflicts in a row`);
}

function isReady(node: KObject): boolean {
  const conditions = (node.status?.conditions ?? []) as Array<{ type: string; status: string }>;
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Resolves when `count` Nodes are Ready. */
export async function nodesReady(fy: Fleetyard, count: number, timeoutMs: number): Promise<void> {
  const w = await watchUntil(
    fy,
    '/api/v1/nodes',
    (nodes) => [...nodes.values()].filter(isReady).length >= count,
    timeoutMs,
  );
  await w.done;
}

/** Every named Deployment reports `replicas` available. */
export function waitAvailable(
  fy: Fleetyard,
  names: readonly string[],
  replicas: number,
  timeoutMs: number,
): Promise<Waiter> {
  return watchUntil(
    fy,
    DEPLOYMENTS,
    (ds) => names.every((n) => statusNumber(ds.get(n), 'availableReplicas') >= replicas),
    timeoutMs,
  );
}

/**
 * `kubectl rollout status`'s test: the controller saw the latest generation, and every
 * replica is updated and available with no old ones left.
 */
export function rolloutComplete(d: KObject | undefined): boolean {
  if (d === undefined) return false;
  const want = (d.spec?.replicas as number | undefined) ?? 1;
  const observed = statusNumber(d, 'observedGeneration');
  return (
    observed >= (d.metadata.generation ?? 0) &&
    statusNumber(d, 'updatedReplicas') === want &&
    statusNumber(d, 'replicas') === want &&
    statusNumber(d, 'availableReplicas') === want
  );
}

function templateImage(rs: KObject): string | undefined {
  const t = rs.spec?.template as { spec?: { containers?: Array<{ image?: string }> } } | undefined;
  return t?.spec?.containers?.[0]?.image;
}

/** ReplicaSets of `image` are scaled to 0 and report no pods. */
export function waitOldScaledDown(
  fy: Fleetyard,
  image: string,
  timeoutMs: number,
): Promise<Waiter> {
  return watchUntil(
    fy,
    REPLICA_SETS,
    (sets) =>
      [...sets.values()]
        .filter((rs) => templateImage(rs) === image)
        .every((rs) => rs.spec?.replicas === 0 && statusNumber(rs, 'replicas') === 0),
    timeoutMs,
  );
}

export async function metricsSamples(client: ApiClient): Promise<Sample[]> {
  const res = await client.request('GET', '/metrics');
  if (res.status !== 200) throw new Error(`GET /metrics: HTTP ${res.status}`);
  return parsePrometheus(res.body.toString('utf8'));
}

/** Write requests by `verb resource` (e.g. `create pods`, `update pods/status`). */
export function writeCounts(samples: readonly Sample[]): Map<string, number> {
  return sumBy(samples, 'apiserver_request_total', (l) =>
    WRITE_VERBS.has(l.verb ?? '') ? `${l.verb} ${l.resource}` : undefined,
  );
}

/** Node heartbeats (Leases, node status): writes that no pod causes. */
export function isHeartbeat(key: string): boolean {
  const resource = key.split(' ')[1] ?? '';
  return resource === 'leases' || resource === 'nodes/status';
}

export interface WriteSummary {
  /** Writes caused by the workload (heartbeats excluded). */
  readonly workload: number;
  readonly events: number;
  readonly heartbeats: number;
  /** `create pods 1000, update pods/status 1000, …`, largest first. */
  readonly breakdown: string;
}

export function summariseWrites(delta: ReadonlyMap<string, number>): WriteSummary {
  let workload = 0;
  let events = 0;
  let heartbeats = 0;
  for (const [key, n] of delta) {
    if (isHeartbeat(key)) heartbeats += n;
    else workload += n;
    if (key.split(' ')[1] === 'events') events += n;
  }
  const breakdown = [...delta]
    .filter(([k]) => !isHeartbeat(k))
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return { workload, events, heartbeats, breakdown };
}
