/**
 * Test fixtures for the StatefulSet planner: a set, pods in a given state, claims. Only tests
 * import this file.
 *
 * @module
 */
import {
  asKind,
  type PersistentVolumeClaim,
  type Pod,
  type StatefulSet,
} from '../../../api/model/index.js';
import { formatTime } from '../../../api/time.js';
import { newStatefulSetPod } from '../identity.js';

export const NOW = Date.parse('2026-01-01T00:00:00Z');

export interface SetOptions {
  name?: string;
  replicas?: number;
  start?: number;
  policy?: 'OrderedReady' | 'Parallel';
  strategy?: 'RollingUpdate' | 'OnDelete';
  /** `null` → RollingUpdate without `rollingUpdate`. */
  partition?: number | null;
  maxUnavailable?: number | string;
  minReadySeconds?: number;
  claims?: string[];
  whenScaled?: 'Retain' | 'Delete';
  image?: string;
  currentReplicas?: number;
}

export function makeSet(o: SetOptions = {}): StatefulSet {
  const rolling: Record<string, unknown> = { partition: o.partition ?? 0 };
  if (o.maxUnavailable !== undefined) rolling.maxUnavailable = o.maxUnavailable;
  const strategy =
    o.strategy === 'OnDelete'
      ? { type: 'OnDelete' }
      : o.partition === null
        ? { type: 'RollingUpdate' }
        : { type: 'RollingUpdate', rollingUpdate: rolling };
  return asKind(
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: o.name ?? 'web', namespace: 'default', uid: 'set-uid', generation: 3 },
      spec: {
        replicas: o.replicas ?? 3,
        ...(o.start !== undefined ? { ordinals: { start: o.start } } : {}),
        serviceName: 'nginx',
        podManagementPolicy: o.policy ?? 'OrderedReady',
        updateStrategy: strategy,
        minReadySeconds: o.minReadySeconds ?? 0,
        selector: { matchLabels: { app: 'nginx' } },
        template: {
          metadata: { labels: { app: 'nginx' } },
          spec: { containers: [{ name: 'nginx', image: o.image ?? 'nginx:1' }] },
        },
        volumeClaimTemplates: (o.claims ?? []).map((name) => ({
          metadata: { name },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        })),
        persistentVolumeClaimRetentionPolicy: {
          whenDeleted: 'Retain',
          whenScaled: o.whenScaled ?? 'Retain',
        },
      },
      status: { currentReplicas: o.currentReplicas ?? 0 },
    },
    'StatefulSet',
  );
}

export type PodState = 'Pending' | 'Running' | 'Ready' | 'Failed' | 'Terminating';

/** A created pod of `set` in `state`; `readySinceMs` is the Ready transition (default long ago). */
export function makePod(
  set: StatefulSet,
  ordinal: number,
  revision: string,
  state: PodState,
  readySinceMs = NOW - 3_600_000,
): Pod {
  const pod = newStatefulSetPod(set, revision, ordinal);
  const ready = state === 'Ready' || state === 'Terminating';
  const phase = state === 'Ready' || state === 'Terminating' ? 'Running' : state;
  const metadata = { ...pod.metadata, uid: `pod-${ordinal}-uid` };
  if (state === 'Terminating') metadata.deletionTimestamp = formatTime(NOW);
  return {
    ...pod,
    metadata,
    status: {
      phase,
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          lastTransitionTime: formatTime(readySinceMs),
        },
      ],
    },
  };
}

export function makeClaim(
  name: string,
  extra: Partial<NonNullable<PersistentVolumeClaim['metadata']>> = {},
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default', ...extra },
  };
}
