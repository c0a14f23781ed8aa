/**
 * Workloads view models: one row per Deployment, ReplicaSet, StatefulSet, DaemonSet and Job
 * with its replica counts, and a StatefulSet's members in ordinal order with the revision
 * each Pod runs (label `controller-revision-hash`) against `status.updateRevision`, the
 * rolling-update partition and the rollout's progress.
 *
 * @module
 */
import { collator, type PodChip, podChip } from './cluster-map.js';
import { type KubeObject, num, str } from './json.js';
import type { ObjectStore } from './store.js';

export type WorkloadKind = 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'DaemonSet' | 'Job';

export const WORKLOAD_RESOURCES: readonly {
  kind: WorkloadKind;
  group: string;
  resource: string;
}[] = [
  { kind: 'Deployment', group: 'apps', resource: 'deployments' },
  { kind: 'StatefulSet', group: 'apps', resource: 'statefulsets' },
  { kind: 'DaemonSet', group: 'apps', resource: 'daemonsets' },
  { kind: 'ReplicaSet', group: 'apps', resource: 'replicasets' },
  { kind: 'Job', group: 'batch', resource: 'jobs' },
];

export interface WorkloadRow {
  readonly kind: WorkloadKind;
  readonly group: string;
  readonly resource: string;
  /** `ns/name` */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly desired: number;
  readonly ready: number;
  readonly updated: number;
  readonly scalable: boolean;
  readonly object: KubeObject;
  /** Owned by another workload (a Deployment's ReplicaSet). */
  readonly owned: boolean;
}

export interface OrdinalRow {
  readonly ordinal: number;
  readonly pod: string;
  /** The Pod, or undefined when the ordinal has none right now. */
  readonly chip: PodChip | undefined;
  readonly node: string;
  readonly revision: string;
  readonly updated: boolean;
  /** Below the partition: a rolling update leaves it on the current revision. */
  readonly belowPartition: boolean;
}

export interface StatefulSetRollout {
  readonly replicas: number;
  readonly updatedReplicas: number;
  readonly readyReplicas: number;
  readonly partition: number;
  readonly currentRevision: string;
  readonly updateRevision: string;
  readonly rolling: boolean;
  readonly members: readonly OrdinalRow[];
}

function counts(
  kind: WorkloadKind,
  o: KubeObject,
): { desired: number; ready: number; updated: number } {
  switch (kind) {
    case 'DaemonSet':
      return {
        desired: num(o, 'status', 'desiredNumberScheduled') ?? 0,
        ready: num(o, 'status', 'numberReady') ?? 0,
        updated: num(o, 'status', 'updatedNumberScheduled') ?? 0,
      };
    case 'Job':
      return {
        desired: num(o, 'spec', 'completions') ?? 1,
        ready: num(o, 'status', 'succeeded') ?? 0,
        updated: num(o, 'status', 'active') ?? 0,
      };
    default:
      return {
        desired: num(o, 'spec', 'replicas') ?? 1,
        ready: num(o, 'status', 'readyReplicas') ?? 0,
        updated:
          num(o, 'status', kind === 'ReplicaSet' ? 'availableReplicas' : 'updatedReplicas') ?? 0,
      };
  }
}

export function workloadRows(store: ObjectStore): WorkloadRow[] {
  const rows: WorkloadRow[] = [];
  for (const { kind, group, resource } of WORKLOAD_RESOURCES) {
    for (const object of store.list(group, resource)) {
      const namespace = object.metadata.namespace ?? '';
      rows.push({
        kind,
        group,
        resource,
        key: `${namespace}/${object.metadata.name}`,
        namespace,
        name: object.metadata.name,
        ...counts(kind, object),
        scalable: kind === 'Deployment' || kind === 'ReplicaSet' || kind === 'StatefulSet',
        object,
        owned: (object.metadata.ownerReferences ?? []).some((r) => r.controller === true),
      });
    }
  }
  return rows.sort((a, b) => collator.compare(a.key, b.key) || collator.compare(a.kind, b.kind));
}

/** Pods by the uid of their controller, built once per store version for all StatefulSets. */
export function podsByController(store: ObjectStore): Map<string, KubeObject[]> {
  const out = new Map<string, KubeObject[]>();
  for (const pod of store.list('', 'pods')) {
    const owner = pod.metadata.ownerReferences?.find((r) => r.controller === true);
    if (owner?.uid === undefined) continue;
    let list = out.get(owner.uid);
    if (list === undefined) {
      list = [];
      out.set(owner.uid, list);
    }
    list.push(pod);
  }
  return out;
}

/** The ordinal of a StatefulSet Pod: label `apps.kubernetes.io/pod-index`, else the name's suffix. */
export function ordinalOf(setName: string, pod: KubeObject): number | undefined {
  const label = pod.metadata.labels?.['apps.kubernetes.io/pod-index'];
  if (label !== undefined && /^\d+$/.test(label)) return Number(label);
  const prefix = `${setName}-`;
  const rest = pod.metadata.name.startsWith(prefix) ? pod.metadata.name.slice(prefix.length) : '';
  return /^\d+$/.test(rest) ? Number(rest) : undefined;
}

export function statefulSetRollout(
  set: KubeObject,
  pods: readonly KubeObject[],
): StatefulSetRollout {
  const replicas = num(set, 'spec', 'replicas') ?? 1;
  const partition = num(set, 'spec', 'updateStrategy', 'rollingUpdate', 'partition') ?? 0;
  const currentRevision = str(set, 'status', 'currentRevision') ?? '';
  const updateRevision = str(set, 'status', 'updateRevision') ?? '';
  const byOrdinal = new Map<number, KubeObject>();
  for (const pod of pods) {
    const ordinal = ordinalOf(set.metadata.name, pod);
    if (ordinal !== undefined) byOrdinal.set(ordinal, pod);
  }
  const ordinals = new Set<number>(byOrdinal.keys());
  for (let i = 0; i < replicas; i++) ordinals.add(i);
  const ns = set.metadata.namespace ?? '';
  const members = [...ordinals]
    .sort((a, b) => a - b)
    .map((ordinal): OrdinalRow => {
      const pod = byOrdinal.get(ordinal);
      const revision = pod?.metadata.labels?.['controller-revision-hash'] ?? '';
      return {
        ordinal,
        pod: `${ns}/${set.metadata.name}-${ordinal}`,
        chip: pod === undefined ? undefined : podChip(pod),
        node: str(pod, 'spec', 'nodeName') ?? '',
        revision,
        updated: revision !== '' && revision === updateRevision,
        belowPartition: ordinal < partition,
      };
    });
  return {
    replicas,
    updatedReplicas: num(set, 'status', 'updatedReplicas') ?? 0,
    readyReplicas: num(set, 'status', 'readyReplicas') ?? 0,
    partition,
    currentRevision,
    updateRevision,
    rolling: updateRevision !== '' && currentRevision !== updateRevision,
    members,
  };
}
