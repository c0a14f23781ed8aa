/**
 * What the StatefulSet benchmark does to a running `fleetyard up`: StatefulSets (with or
 * without one claim per member) and their headless Service, without simulation annotations
 * (so every simulated delay is zero); waits through one watch stream on the StatefulSets
 * (`watch-until.ts`), never by listing pods; and the reconcile p99 of each controller. The
 * timed phases and the store's write limit are `measure.ts`'s, shared with `workloads`.
 *
 * @module
 */
import { nodesReady } from './cluster-ops.js';
import { ApiClient, type Fleetyard, startFleetyard } from './fleetyard.js';
import { histogramQuantile, type Sample } from './prom-text.js';
import { type KObject, statusNumber, type Waiter, watchUntil } from './watch-until.js';

export const STATEFULSETS = '/apis/apps/v1/namespaces/default/statefulsets';
const SERVICES = '/api/v1/namespaces/default/services';
const STORAGE_CLASSES = '/apis/storage.k8s.io/v1/storageclasses';

export interface SetShape {
  readonly name: string;
  readonly replicas: number;
  readonly image: string;
  readonly policy: 'OrderedReady' | 'Parallel';
  /** StorageClass of the one claim per member (`data`, 1Gi, ReadWriteOnce); none if absent. */
  readonly storageClass?: string;
}

/** A one-container StatefulSet as in upstream's StatefulSet documentation (`web`); no sim annotations, no probes. */
export function statefulSetBody(s: SetShape): string {
  const claims =
    s.storageClass === undefined
      ? {}
      : {
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: {
                accessModes: ['ReadWriteOnce'],
                storageClassName: s.storageClass,
                resources: { requests: { storage: '1Gi' } },
              },
            },
          ],
        };
  const mounts =
    s.storageClass === undefined ? {} : { volumeMounts: [{ name: 'data', mountPath: '/data' }] };
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: s.name, labels: { app: s.name } },
    spec: {
      serviceName: s.name,
      replicas: s.replicas,
      podManagementPolicy: s.policy,
      selector: { matchLabels: { app: s.name } },
      template: {
        metadata: { labels: { app: s.name } },
        spec: {
          containers: [
            {
              name: 'web',
              image: s.image,
              ports: [{ containerPort: 8080, name: 'web', protocol: 'TCP' }],
              ...mounts,
            },
          ],
        },
      },
      ...claims,
    },
  });
}

/** The headless Service that governs the set (its pods' DNS names). */
export async function createHeadlessService(client: ApiClient, name: string): Promise<void> {
  const body = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: { app: name } },
    spec: { clusterIP: 'None', selector: { app: name }, ports: [{ port: 8080, name: 'web' }] },
  });
  const res = await client.request('POST', SERVICES, body);
  if (res.status !== 201)
    throw new Error(`create service ${name}: HTTP ${res.status} ${res.body.toString()}`);
}

export async function createStatefulSet(client: ApiClient, s: SetShape): Promise<void> {
  const res = await client.request('POST', STATEFULSETS, statefulSetBody(s));
  if (res.status !== 201)
    throw new Error(`create statefulset ${s.name}: HTTP ${res.status} ${res.body.toString()}`);
}

/** GET + PUT of the template's image (retried on a conflict with a status write). */
export async function setStatefulSetImage(
  client: ApiClient,
  name: string,
  image: string,
): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const d = await client.getJson<{
      spec: { template: { spec: { containers: Array<{ image: string }> } } };
    }>(`${STATEFULSETS}/${name}`);
    d.spec.template.spec.containers[0]!.image = image;
    const res = await client.request('PUT', `${STATEFULSETS}/${name}`, JSON.stringify(d));
    if (res.status === 200) return;
    if (res.status !== 409)
      throw new Error(`update statefulset ${name}: HTTP ${res.status} ${res.body.toString()}`);
  }
  throw new Error(`update statefulset ${name}: 10 conflicts in a row`);
}

/** Resolves when the StorageClass exists (the bootstrap creates it after startup). */
export async function storageClassExists(
  fy: Fleetyard,
  name: string,
  timeoutMs: number,
): Promise<void> {
  const w = await watchUntil(fy, STORAGE_CLASSES, (cs) => cs.has(name), timeoutMs);
  await w.done;
}

/**
 * `readyReplicas >= replicas` on the named set; `onCreated` is called the first time
 * `status.replicas` reaches `replicas` (every pod created), seen on the same stream.
 */
export function waitSetReady(
  fy: Fleetyard,
  name: string,
  replicas: number,
  timeoutMs: number,
  onCreated?: (at: number) => void,
): Promise<Waiter> {
  let created = false;
  return watchUntil(
    fy,
    STATEFULSETS,
    (sets) => {
      const s = sets.get(name);
      if (!created && statusNumber(s, 'replicas') >= replicas) {
        created = true;
        onCreated?.(performance.now());
      }
      return statusNumber(s, 'readyReplicas') >= replicas;
    },
    timeoutMs,
  );
}

/** The set's `status.currentRevision` now (before an update: the revision it leaves). */
export async function currentRevision(client: ApiClient, name: string): Promise<string> {
  const s = await client.getJson<KObject>(`${STATEFULSETS}/${name}`);
  const r = s.status?.currentRevision;
  if (typeof r !== 'string') throw new Error(`statefulset ${name}: no status.currentRevision`);
  return r;
}

/**
 * The rolling update away from revision `from` is over: every member updated and Ready, one
 * revision left, and it is not `from` (the set was complete before the update too).
 */
export function updateComplete(s: KObject | undefined, replicas: number, from: string): boolean {
  if (s === undefined) return false;
  const current = s.status?.currentRevision;
  return (
    current !== from &&
    statusNumber(s, 'observedGeneration') >= (s.metadata.generation ?? 0) &&
    statusNumber(s, 'updatedReplicas') === replicas &&
    statusNumber(s, 'readyReplicas') === replicas &&
    typeof current === 'string' &&
    current === s.status?.updateRevision
  );
}

/**
 * `statefulset ≤ 250 ms (mean 12.3 ms, 104 syncs), …`: the upper bound of the
 * `controller_runtime_reconcile_time_seconds` bucket holding each controller's 99th
 * percentile since start, slowest first; controllers that never reconciled are left out.
 */
export function reconcileSummary(samples: readonly Sample[]): string {
  const controllers = new Set(
    samples
      .filter((x) => x.name === 'controller_runtime_reconcile_time_seconds_count')
      .map((x) => x.labels.controller)
      .filter((c): c is string => c !== undefined),
  );
  const rows: Array<{ bound: number; text: string }> = [];
  for (const c of controllers) {
    const h = histogramQuantile(
      samples,
      'controller_runtime_reconcile_time_seconds',
      (l) => l.controller === c,
      0.99,
    );
    if (!h || h.count === 0) continue;
    const past = !Number.isFinite(h.upperBound);
    const bound = past ? h.lastBound : h.upperBound;
    const mean = ((h.sum / h.count) * 1000).toFixed(1);
    rows.push({
      bound,
      text: `${c} ${past ? '>' : '≤'} ${Math.round(bound * 1000)} ms (mean ${mean} ms, ${h.count} syncs)`,
    });
  }
  return rows
    .sort((a, b) => b.bound - a.bound)
    .map((r) => r.text)
    .join(', ');
}

/** The zones `withStorageCluster` spreads its nodes over (named in the benches' notes). */
export const STORAGE_CLUSTER_ZONES = 'a,b,c';

/**
 * A fresh `fleetyard up --ephemeral` of `nodes` nodes over zones a, b and c, with its nodes
 * Ready and the zonal `ebs` class in place, for the length of `body`; `args` adds flags.
 */
export async function withStorageCluster<T>(
  nodes: number,
  args: readonly string[],
  body: (fy: Fleetyard, client: ApiClient) => Promise<T>,
): Promise<T> {
  const fy = await startFleetyard({
    ephemeral: true,
    cluster: true,
    args: ['--nodes', String(nodes), '--zones', STORAGE_CLUSTER_ZONES, ...args],
    timeoutMs: 30_000,
  });
  const client = await ApiClient.open(fy);
  try {
    await nodesReady(fy, nodes, 60_000);
    await storageClassExists(fy, 'ebs', 30_000);
    return await body(fy, client);
  } finally {
    client.close();
    await fy.stop();
  }
}
