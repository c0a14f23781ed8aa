/**
 * Shared fixtures of the ReplicaSet controller tests: manifests, and small helpers over a
 * {@link Harness} (namespaces, scaling, pod status writes, owned-pod listing).
 *
 * @module
 */
import {
  asKind,
  type Pod,
  type ReplicaSet,
  type ReplicaSetStatus,
} from '../../../api/model/index.js';
import { formatTime } from '../../../api/time.js';
import { RESOURCES } from '../../../controller/context.js';
import { controllerRefOf } from '../../../controller/controller-ref.js';
import type { Harness } from '../../../controller/testing/harness.js';
import { isPodActive } from '../status.js';

export interface RsOptions {
  readonly replicas?: number;
  readonly selector?: Record<string, string>;
  readonly templateLabels?: Record<string, string>;
  readonly minReadySeconds?: number;
  readonly finalizers?: string[];
}

const CONTAINERS = [{ name: 'app', image: 'registry.example/app:1' }];

export function replicaSetManifest(namespace: string, name: string, o: RsOptions = {}): ReplicaSet {
  const selector = o.selector ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace, ...(o.finalizers ? { finalizers: o.finalizers } : {}) },
    spec: {
      replicas: o.replicas ?? 1,
      ...(o.minReadySeconds !== undefined ? { minReadySeconds: o.minReadySeconds } : {}),
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: o.templateLabels ?? selector },
        spec: { containers: CONTAINERS },
      },
    },
  };
}

export function podManifest(namespace: string, name: string, labels: Record<string, string>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: CONTAINERS },
  };
}

export async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.client.create(RESOURCES.namespaces, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
}

export function rsRef(namespace: string, name: string) {
  return { ...RESOURCES.replicasets, namespace, name };
}

export function podRef(namespace: string, name: string) {
  return { ...RESOURCES.pods, namespace, name };
}

export async function createReplicaSet(
  h: Harness,
  namespace: string,
  name: string,
  o: RsOptions = {},
): Promise<ReplicaSet> {
  const manifest = replicaSetManifest(namespace, name, o);
  return asKind(
    await h.client.create({ ...RESOURCES.replicasets, namespace }, manifest),
    'ReplicaSet',
  );
}

export async function scale(h: Harness, namespace: string, name: string, replicas: number) {
  await h.client.patch(rsRef(namespace, name), { spec: { replicas } }, 'merge');
}

/** Active pods in `namespace` whose controllerRef is `rs`'s UID. */
export async function ownedPods(h: Harness, rs: ReplicaSet): Promise<Pod[]> {
  const listed = await h.list({ ...RESOURCES.pods, namespace: rs.metadata?.namespace ?? '' });
  const pods = listed.map((p) => asKind(p, 'Pod'));
  return pods.filter((p) => controllerRefOf(p)?.uid === rs.metadata?.uid && isPodActive(p));
}

/** Waits until `rs` owns exactly `n` active pods, and returns them. */
export async function waitForOwned(
  h: Harness,
  rs: ReplicaSet,
  n: number,
  eventually: <T>(probe: () => Promise<T | undefined | false>) => Promise<T>,
): Promise<Pod[]> {
  return eventually(async () => {
    const pods = await ownedPods(h, rs);
    return pods.length === n ? pods : false;
  });
}

/** Writes a pod's status through `/status`: Running and Ready (since `readySince`) or not ready. */
export async function setPodReady(
  h: Harness,
  pod: Pod,
  ready: boolean,
  readySince = Date.now(),
): Promise<void> {
  const ref = podRef(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
  const fresh = await h.client.get(ref);
  const status = {
    phase: 'Running',
    conditions: [
      {
        type: 'Ready',
        status: ready ? 'True' : 'False',
        lastTransitionTime: formatTime(readySince),
      },
    ],
  };
  await h.client.updateStatus(ref, { ...fresh, status });
}

/** The ReplicaSet's status as stored. */
export async function rsStatus(h: Harness, namespace: string, name: string) {
  const rs = asKind(await h.client.get(rsRef(namespace, name)), 'ReplicaSet');
  const status: Partial<ReplicaSetStatus> = rs.status ?? {};
  return { generation: rs.metadata?.generation, status };
}
