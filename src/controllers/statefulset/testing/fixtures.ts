/**
 * Fixtures for the StatefulSet controller's harness tests: manifests, readiness written as a
 * kubelet would, and a tiny fake kubelet loop. Only tests import this file.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import { formatTime } from '../../../api/time.js';
import { RESOURCES } from '../../../controller/context.js';
import type { Harness } from '../../../controller/testing/harness.js';
import { ordinalInSet } from '../identity.js';

export interface SetManifestOptions {
  replicas?: number;
  policy?: 'OrderedReady' | 'Parallel';
  partition?: number;
  claims?: string[];
  whenDeleted?: 'Retain' | 'Delete';
  whenScaled?: 'Retain' | 'Delete';
  image?: string;
  revisionHistoryLimit?: number;
  start?: number;
  minReadySeconds?: number;
}

export function setManifest(namespace: string, name: string, o: SetManifestOptions = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace },
    spec: {
      replicas: o.replicas ?? 3,
      serviceName: name,
      podManagementPolicy: o.policy ?? 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: o.partition ?? 0 } },
      ...(o.revisionHistoryLimit !== undefined
        ? { revisionHistoryLimit: o.revisionHistoryLimit }
        : {}),
      ...(o.start !== undefined ? { ordinals: { start: o.start } } : {}),
      ...(o.minReadySeconds !== undefined ? { minReadySeconds: o.minReadySeconds } : {}),
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: o.image ?? 'nginx:1' }] },
      },
      volumeClaimTemplates: (o.claims ?? []).map((claim) => ({
        metadata: { name: claim },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      })),
      persistentVolumeClaimRetentionPolicy: {
        whenDeleted: o.whenDeleted ?? 'Retain',
        whenScaled: o.whenScaled ?? 'Retain',
      },
    },
  };
}

export async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.client.create(RESOURCES.namespaces, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
}

export function setRef(namespace: string, name: string) {
  return { ...RESOURCES.statefulsets, namespace, name };
}

export function podRef(namespace: string, name: string) {
  return { ...RESOURCES.pods, namespace, name };
}

export function claimRef(namespace: string, name: string) {
  return { ...RESOURCES.persistentvolumeclaims, namespace, name };
}

export async function createSet(
  h: Harness,
  namespace: string,
  name: string,
  o: SetManifestOptions = {},
): Promise<KubeObject> {
  await createNamespace(h, namespace);
  return h.client.create({ ...RESOURCES.statefulsets, namespace }, setManifest(namespace, name, o));
}

/** The set's pods (by name), sorted by ordinal. */
export async function setPods(h: Harness, namespace: string, name: string): Promise<KubeObject[]> {
  const pods = await h.list({ ...RESOURCES.pods, namespace });
  return pods
    .filter((p) => ordinalInSet(name, p.metadata?.name ?? '') >= 0)
    .sort(
      (a, b) =>
        ordinalInSet(name, a.metadata?.name ?? '') - ordinalInSet(name, b.metadata?.name ?? ''),
    );
}

export function names(pods: readonly KubeObject[]): string[] {
  return pods.map((p) => p.metadata?.name ?? '');
}

export function isReady(pod: KubeObject): boolean {
  const status = pod.status as { phase?: string; conditions?: { type: string; status: string }[] };
  return (
    status?.phase === 'Running' &&
    (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

/** Writes the pod's status: `Running`+Ready, `Running` not ready, or `Failed`. */
export async function setPhase(
  h: Harness,
  pod: KubeObject,
  state: 'Ready' | 'NotReady' | 'Failed',
): Promise<void> {
  const ref = podRef(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
  const fresh = await h.client.get(ref);
  const ready = state === 'Ready';
  const status = {
    phase: state === 'Failed' ? 'Failed' : 'Running',
    conditions: [
      {
        type: 'Ready',
        status: ready ? 'True' : 'False',
        lastTransitionTime: formatTime(Date.now() - 60_000),
      },
    ],
  };
  await h.client.updateStatus(ref, { ...fresh, status });
}

/**
 * A fake kubelet for one namespace: every ~20 ms, pods that are not Ready become Running+Ready,
 * except those `broken` says stay unready. Returns the stop function.
 */
export function fakeKubelet(
  h: Harness,
  namespace: string,
  broken: (pod: KubeObject) => boolean = () => false,
): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const pods = await h.list({ ...RESOURCES.pods, namespace }).catch(() => []);
      for (const pod of pods) {
        if (pod.metadata?.deletionTimestamp || isReady(pod) || broken(pod)) continue;
        await setPhase(h, pod, 'Ready').catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

export function imageOf(pod: KubeObject): string {
  const spec = pod.spec as { containers?: { image?: string }[] };
  return spec?.containers?.[0]?.image ?? '';
}

export function revisionOf(pod: KubeObject): string {
  return pod.metadata?.labels?.['controller-revision-hash'] ?? '';
}

export async function setStatus(
  h: Harness,
  namespace: string,
  name: string,
): Promise<Record<string, unknown>> {
  const set = await h.client.get(setRef(namespace, name));
  return (set.status ?? {}) as Record<string, unknown>;
}
