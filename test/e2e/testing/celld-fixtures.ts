/**
 * Shared pieces of the celld operator end-to-end suites: one `fleetyard up` per file with
 * kubectl 1.33 and client-node clients for it, CelldFleet manifests, typed read-backs of a
 * fleet and its members, waits on the fleet's own status, `fleetyard chaos`, and a pod
 * informer that checks an invariant at every event (not only at the end of a step).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  makeInformer,
  type V1PersistentVolumeClaim,
  type V1Pod,
  type V1StatefulSet,
} from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { type Cluster, FLEETYARD_BIN, startCluster } from './cluster.js';
import { type Kubectl, kubectl } from './kubectl.js';
import { pollUntil } from './kubectl-fixtures.js';

export const GROUP = 'celld.fleetyard.dev';
export const API_VERSION = `${GROUP}/v1alpha1`;
export const LABEL_FLEET = `${GROUP}/fleet`;
export const LABEL_FLEET_UID = `${GROUP}/fleet-uid`;
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const ZONES = ['local-a', 'local-b', 'local-c'] as const;

/** Digest-pinned images: the operator refuses tags. */
export const IMAGE_V1 = `ghcr.io/ewhauser/celld@sha256:${'1'.repeat(64)}`;
export const IMAGE_V2 = `ghcr.io/ewhauser/celld@sha256:${'2'.repeat(64)}`;
/** The simulated kubelet fails pulls of a repository whose last segment is `nonexistent`. */
export const IMAGE_UNPULLABLE = `registry.example/nonexistent@sha256:${'3'.repeat(64)}`;

const KUBECTL_VERSION = '1.33';

export interface FleetEnv {
  readonly cluster: Cluster;
  readonly k: Kubectl;
  readonly kc: KubeConfig;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly custom: CustomObjectsApi;
  readonly objects: KubernetesObjectApi;
}

/**
 * One `fleetyard up` for the whole file (root hooks), stopped with SIGTERM at the end and
 * required to exit 0. Returns the getter the tests use.
 */
export function fleetEnvForFile(args: readonly string[], ephemeral = true): () => FleetEnv {
  let env: FleetEnv | undefined;
  before(async () => {
    const cluster = await startCluster({ ephemeral, args });
    const k = kubectl(KUBECTL_VERSION, cluster.kubeconfig);
    assert.ok(k, `kubectl.${KUBECTL_VERSION} is not installed beside the kubectl on the PATH`);
    const kc = new KubeConfig();
    kc.loadFromFile(cluster.kubeconfig);
    env = {
      cluster,
      k,
      kc,
      core: kc.makeApiClient(CoreV1Api),
      apps: kc.makeApiClient(AppsV1Api),
      custom: kc.makeApiClient(CustomObjectsApi),
      objects: KubernetesObjectApi.makeApiClient(kc),
    };
  });
  after(async () => {
    if (env === undefined) return;
    const code = await env.cluster.stop();
    const logs = env.cluster.stderr();
    env.cluster.cleanup();
    assert.equal(code, 0, `fleetyard up exited with ${code}; stderr:\n${logs}`);
  });
  return () => {
    if (env === undefined) throw new Error('the cluster is not started (root before hook failed)');
    return env;
  };
}

// ---------------------------------------------------------------------------------------------
// Manifests

export interface FleetOptions {
  readonly name: string;
  readonly namespace: string;
  readonly bucket: string;
  readonly replicas: number;
  readonly profile?: 'PersistentFleet' | 'Bucket';
  readonly bucketWorkload?: 'Deployment' | 'Ordered';
  readonly storageClassName?: string;
  readonly mode?: 'Strict' | 'Relaxed';
  readonly image?: string;
  readonly serviceAccountName?: string;
}

export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  readonly spec?: Record<string, unknown>;
}

export function serviceAccount(name: string, namespace: string): Manifest {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } };
}

/** A CelldFleet; PersistentFleet on `ebs` unless told otherwise. */
export function fleet(o: FleetOptions): Manifest {
  const profile = o.profile ?? 'PersistentFleet';
  const storage: Record<string, unknown> = { bucket: o.bucket, region: 'us-east-1', sizeGiB: 1 };
  if (profile === 'PersistentFleet') storage.storageClassName = o.storageClassName ?? 'ebs';
  return {
    apiVersion: API_VERSION,
    kind: 'CelldFleet',
    metadata: { name: o.name, namespace: o.namespace },
    spec: {
      profile,
      ...(o.bucketWorkload ? { bucketWorkload: o.bucketWorkload } : {}),
      replicas: o.replicas,
      runtimeImage: o.image ?? IMAGE_V1,
      serviceAccountName: o.serviceAccountName ?? `${o.name}-celld`,
      storage,
      placement: { zones: [...ZONES], ...(o.mode ? { mode: o.mode } : {}) },
    },
  };
}

/** `kubectl apply -f -` of the objects (as a JSON List, which kubectl reads like YAML). */
export async function apply(env: FleetEnv, ...objects: Manifest[]): Promise<string> {
  const list = { apiVersion: 'v1', kind: 'List', items: objects };
  return env.k.ok(['apply', '-f', '-'], { input: JSON.stringify(list) });
}

/** `kubectl patch cf <name> --type=merge` of `spec` fields, as a user edits a fleet. */
export function patchFleet(
  env: FleetEnv,
  ns: string,
  name: string,
  spec: Record<string, unknown>,
): Promise<string> {
  return env.k.ok(['patch', 'cf', name, '-n', ns, '--type=merge', '-p', JSON.stringify({ spec })]);
}

/**
 * A namespace for fleets, as deploy/operator/rbac.yaml tells users to make one: the namespace,
 * then a copy of its `celld-operator-fleet` Role and RoleBinding there (the operator may see a
 * fleet anywhere, but writes only where that Role grants it).
 */
export async function createNamespace(env: FleetEnv, name: string): Promise<void> {
  await env.k.ok(['create', 'namespace', name]);
  await grantFleetNamespace(env, name);
}

/** The fleet-namespace Role and RoleBinding of deploy/operator/rbac.yaml, copied into `ns`. */
export async function grantFleetNamespace(env: FleetEnv, ns: string): Promise<void> {
  const docs = parseAllDocuments(readFileSync(OPERATOR_RBAC, 'utf8')).map((d) => d.toJS());
  const copies = docs
    .filter((d) => d?.metadata?.name === 'celld-operator-fleet')
    .map((d) => ({ ...d, metadata: { ...d.metadata, namespace: ns } }));
  assert.equal(
    copies.length,
    2,
    'deploy/operator/rbac.yaml: Role and RoleBinding celld-operator-fleet',
  );
  await env.k.ok(['apply', '-f', '-'], {
    input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: copies }),
  });
}

const OPERATOR_RBAC = fileURLToPath(new URL('../../../deploy/operator/rbac.yaml', import.meta.url));

// ---------------------------------------------------------------------------------------------
// Read-backs

export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

export interface MemberRow {
  pod: string;
  ordinal?: number;
  ready: boolean;
  node?: string;
  zone?: string;
  claim?: string;
  claimPhase?: string;
  downSince?: string;
  replacementDue?: string;
  note?: string;
}

export interface Fleet {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    generation: number;
    finalizers?: string[];
    deletionTimestamp?: string;
  };
  spec: { replicas: number; maintenance?: { paused?: boolean; restartToken?: string } };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    observedGeneration?: number;
    state?: string;
    reservation?: string;
    conditions?: Condition[];
    members?: MemberRow[];
  };
}

export async function getFleet(env: FleetEnv, ns: string, name: string): Promise<Fleet> {
  return JSON.parse(await env.k.ok(['get', 'cf', name, '-n', ns, '-o', 'json'])) as Fleet;
}

export function condition(f: Fleet, type: string): Condition | undefined {
  return f.status?.conditions?.find((c) => c.type === type);
}

/** A one-line summary for failure messages. */
export function describeFleet(f: Fleet): string {
  const conds = (f.status?.conditions ?? [])
    .filter((c) => c.status === 'True')
    .map((c) => `${c.type}/${c.reason}: ${c.message}`);
  return `state=${f.status?.state} ready=${f.status?.readyReplicas}/${f.spec.replicas} gen=${f.metadata.generation} observed=${f.status?.observedGeneration} [${conds.join(' | ')}] members=${JSON.stringify(f.status?.members ?? [])}`;
}

/**
 * Waits until the fleet's status, written for its current generation, satisfies `check`;
 * the last fleet read is in the failure message.
 */
export async function waitFleet(
  env: FleetEnv,
  ns: string,
  name: string,
  what: string,
  check: (f: Fleet) => boolean,
  timeoutMs = 20_000,
): Promise<Fleet> {
  let last: Fleet | undefined;
  try {
    return await pollUntil(
      `${ns}/${name}: ${what}`,
      async () => {
        last = await getFleet(env, ns, name);
        const current = last.status?.observedGeneration === last.metadata.generation;
        return current && check(last) ? last : undefined;
      },
      timeoutMs,
      100,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; last: ${last ? describeFleet(last) : 'none'}`);
  }
}

/** Ready at its declared replica count. */
export function waitReady(env: FleetEnv, ns: string, name: string, timeoutMs = 20_000) {
  return waitFleet(
    env,
    ns,
    name,
    'Ready',
    (f) =>
      f.status?.state === 'Ready' &&
      f.status.readyReplicas === f.spec.replicas &&
      condition(f, 'Ready')?.status === 'True',
    timeoutMs,
  );
}

/** Blocked with `reason`. */
export function waitBlocked(env: FleetEnv, ns: string, name: string, reason: string) {
  return waitFleet(
    env,
    ns,
    name,
    `Blocked ${reason}`,
    (f) =>
      f.status?.state === 'Blocked' &&
      condition(f, 'Blocked')?.status === 'True' &&
      condition(f, 'Blocked')?.reason === reason,
  );
}

export async function memberPods(env: FleetEnv, ns: string, name: string): Promise<V1Pod[]> {
  const list = await env.core.listNamespacedPod({
    namespace: ns,
    labelSelector: `${LABEL_FLEET}=${name}`,
  });
  return list.items;
}

export async function fleetClaims(
  env: FleetEnv,
  ns: string,
  name: string,
): Promise<V1PersistentVolumeClaim[]> {
  const list = await env.core.listNamespacedPersistentVolumeClaim({ namespace: ns });
  return list.items.filter((c) => c.metadata?.name?.startsWith(`data-${name}-`));
}

export async function statefulSet(
  env: FleetEnv,
  ns: string,
  name: string,
): Promise<V1StatefulSet | undefined> {
  const list = await env.apps.listNamespacedStatefulSet({ namespace: ns });
  return list.items.find((s) => s.metadata?.name === name);
}

/** name → uid of the objects, sorted by name, for before/after comparisons. */
export function uids(items: readonly { metadata?: { name?: string; uid?: string } }[]) {
  return Object.fromEntries(
    items
      .map((o) => [o.metadata?.name ?? '', o.metadata?.uid ?? ''] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export function isReady(p: V1Pod): boolean {
  return (
    p.metadata?.deletionTimestamp === undefined &&
    (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

export function ordinalOf(p: { metadata?: { name?: string } }): number {
  return Number(/-(\d+)$/.exec(p.metadata?.name ?? '')?.[1] ?? Number.NaN);
}

/** The fleet's events with this reason (the operator records them on the CelldFleet). */
export async function fleetEvents(env: FleetEnv, ns: string, name: string, reason: string) {
  const list = await env.core.listNamespacedEvent({ namespace: ns });
  return list.items.filter(
    (e) =>
      e.involvedObject.kind === 'CelldFleet' &&
      e.involvedObject.name === name &&
      e.reason === reason,
  );
}

/** `fleetyard chaos <args…>` against this cluster. */
export async function chaos(env: FleetEnv, ns: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    FLEETYARD_BIN,
    'chaos',
    '--kubeconfig',
    env.cluster.kubeconfig,
    '-n',
    ns,
    ...args,
  ]);
  return stdout;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// ---------------------------------------------------------------------------------------------
// A pod watch with an invariant

export interface PodWatch {
  /** The pods the informer holds now. */
  pods(): V1Pod[];
  /** Invariant violations seen so far, one line each. */
  readonly violations: string[];
  /** Every (pod, uid) the watch saw created after the initial list, in order. */
  readonly created: { name: string; uid: string }[];
  stop(): Promise<void>;
}

/**
 * Watches the fleet's pods and calls `check(pods)` after every add, update and delete. An
 * invariant checked only between steps would miss a moment when it broke and came back.
 */
export async function watchPods(
  env: FleetEnv,
  ns: string,
  name: string,
  check: (pods: readonly V1Pod[]) => string | undefined,
): Promise<PodWatch> {
  const selector = `${LABEL_FLEET}=${name}`;
  const list = () => env.core.listNamespacedPod({ namespace: ns, labelSelector: selector });
  const informer = makeInformer(env.kc, `/api/v1/namespaces/${ns}/pods`, list, selector);
  const violations: string[] = [];
  const created: { name: string; uid: string }[] = [];
  const seen = new Set<string>();
  let listed = false;
  const onEvent = (p: V1Pod) => {
    const uid = p.metadata?.uid ?? '';
    if (listed && !seen.has(uid)) created.push({ name: p.metadata?.name ?? '', uid });
    seen.add(uid);
    if (!listed) return;
    const broken = check(informer.list());
    if (broken !== undefined) violations.push(broken);
  };
  informer.on('add', onEvent);
  informer.on('update', onEvent);
  informer.on('delete', onEvent);
  await informer.start();
  listed = true;
  return {
    pods: () => [...informer.list()],
    violations,
    created,
    stop: () => informer.stop(),
  };
}

/**
 * Records the StatefulSet's `spec.replicas` at every event (consecutive repeats folded), to
 * show that the operator wrote one step at a time.
 */
export async function watchReplicas(
  env: FleetEnv,
  ns: string,
  name: string,
): Promise<{ history: number[]; stop(): Promise<void> }> {
  const list = () => env.apps.listNamespacedStatefulSet({ namespace: ns });
  const informer = makeInformer(env.kc, `/apis/apps/v1/namespaces/${ns}/statefulsets`, list);
  const history: number[] = [];
  const record = (s: V1StatefulSet) => {
    if (s.metadata?.name !== name) return;
    const r = s.spec?.replicas;
    if (r !== undefined && history.at(-1) !== r) history.push(r);
  };
  informer.on('add', record);
  informer.on('update', record);
  await informer.start();
  return { history, stop: () => informer.stop() };
}
