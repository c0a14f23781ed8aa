/**
 * Shared harness of the client-node end-to-end tests: one `fleetyard up --ephemeral` with a
 * client-node `KubeConfig` for it, and a recorder of informer callbacks.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import {
  AppsV1Api,
  CoreV1Api,
  type Informer,
  KubeConfig,
  KubernetesObjectApi,
  makeInformer,
  type ObjectCache,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { type Cluster, startCluster } from './cluster.js';

// ---------------------------------------------------------------------------------------------
// Harness

export interface Harness {
  readonly cluster: Cluster;
  readonly kc: KubeConfig;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly objects: KubernetesObjectApi;
}

export async function startHarness(args: readonly string[] = []): Promise<Harness> {
  const cluster = await startCluster({ ephemeral: true, args });
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  return {
    cluster,
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    objects: KubernetesObjectApi.makeApiClient(kc),
  };
}

export async function stopHarness(h: Harness | undefined): Promise<void> {
  if (h === undefined) return;
  const code = await h.cluster.stop();
  h.cluster.cleanup();
  assert.equal(code, 0, `fleetyard up exited with ${code}; stderr:\n${h.cluster.stderr()}`);
}

export async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.core.createNamespace({ body: { metadata: { name } } });
}

/** Polls `check` until it returns true; fails with `what` (and `detail()`) after the deadline. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; detail?: () => string } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}${options.detail ? `: ${options.detail()}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A GET with the cluster's CA and token; resolves with the status and the whole body. */
export function rawGet(
  cluster: Cluster,
  path: string,
  timeoutMs = 10_000,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, cluster.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { ca: cluster.ca, headers: { authorization: `Bearer ${cluster.token}` }, timeout: timeoutMs },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: no end within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** `apiserver_request_total{verb,resource}` summed over codes, from the server's `/metrics`. */
export async function serverRequests(
  cluster: Cluster,
  verb: string,
  resource: string,
): Promise<number> {
  const { status, body } = await rawGet(cluster, '/metrics');
  assert.equal(status, 200, body);
  let total = 0;
  for (const line of body.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    if (!line.includes(`verb="${verb}"`) || !line.includes(`resource="${resource}"`)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// A recorded informer

export type Verb = 'add' | 'update' | 'delete';

export interface InformerEvent {
  readonly verb: Verb;
  readonly name: string;
  readonly resourceVersion: string;
  readonly data: Readonly<Record<string, string>>;
}

export interface RecordedInformer {
  readonly informer: Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;
  readonly events: InformerEvent[];
  readonly errors: unknown[];
  /** Calls of the wrapped listFn (each is one relist). */
  lists(): number;
  /** `connect` callbacks: the first start plus one per reconnect. */
  connects(): number;
  of(verb: Verb, name: string): InformerEvent[];
}

export function recordInformer(h: Harness, namespace: string): RecordedInformer {
  let lists = 0;
  let connects = 0;
  const events: InformerEvent[] = [];
  const errors: unknown[] = [];
  const informer = makeInformer<V1ConfigMap>(
    h.kc,
    `/api/v1/namespaces/${namespace}/configmaps`,
    () => {
      lists++;
      return h.core.listNamespacedConfigMap({ namespace });
    },
  );
  const record =
    (verb: Verb) =>
    (obj: V1ConfigMap): void => {
      events.push({
        verb,
        name: obj.metadata?.name ?? '',
        resourceVersion: obj.metadata?.resourceVersion ?? '',
        data: { ...(obj.data ?? {}) },
      });
    };
  informer.on('add', record('add'));
  informer.on('update', record('update'));
  informer.on('delete', record('delete'));
  informer.on('connect', () => {
    connects++;
  });
  informer.on('error', (err: unknown) => {
    errors.push(err);
  });
  return {
    informer,
    events,
    errors,
    lists: () => lists,
    connects: () => connects,
    of: (verb, name) => events.filter((e) => e.verb === verb && e.name === name),
  };
}

/** name → resourceVersion + data, for comparing the informer cache with the server. */
export function snapshot(
  items: readonly V1ConfigMap[],
): Map<string, { rv: string; data: unknown }> {
  const out = new Map<string, { rv: string; data: unknown }>();
  for (const cm of [...items].sort((a, b) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  )) {
    out.set(cm.metadata?.name ?? '', {
      rv: cm.metadata?.resourceVersion ?? '',
      data: cm.data ?? {},
    });
  }
  return out;
}

export async function assertCacheMatchesServer(
  h: Harness,
  rec: RecordedInformer,
  namespace: string,
): Promise<void> {
  const server = await h.core.listNamespacedConfigMap({ namespace });
  assert.deepEqual(snapshot(rec.informer.list(namespace)), snapshot(server.items));
}

export function configMap(
  namespace: string,
  name: string,
  data: Record<string, string>,
): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}
