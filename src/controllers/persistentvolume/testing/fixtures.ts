/**
 * Builders for the PV controller's tests: claims, volumes, classes and nodes as plain objects.
 *
 * @module
 */
import {
  asKind,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';

export const NOW = Date.parse('2024-06-01T12:00:00Z');

export interface ClaimSpec {
  name?: string;
  uid?: string;
  size?: string;
  modes?: string[];
  className?: string | null;
  volumeName?: string;
  selector?: unknown;
  volumeMode?: string;
  annotations?: Record<string, string>;
  phase?: string;
}

export function claim(c: ClaimSpec = {}): PersistentVolumeClaim {
  const spec: Record<string, unknown> = {
    accessModes: c.modes ?? ['ReadWriteOnce'],
    resources: { requests: { storage: c.size ?? '1Gi' } },
    volumeMode: c.volumeMode ?? 'Filesystem',
  };
  if (c.className !== null) spec.storageClassName = c.className ?? '';
  if (c.volumeName !== undefined) spec.volumeName = c.volumeName;
  if (c.selector !== undefined) spec.selector = c.selector;
  return asKind(
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: c.name ?? 'data',
        namespace: 'default',
        uid: c.uid ?? 'uid-data',
        annotations: c.annotations ?? {},
      },
      spec,
      status: { phase: c.phase ?? 'Pending' },
    },
    'PersistentVolumeClaim',
  );
}

export interface VolumeSpec {
  name: string;
  size?: string;
  modes?: string[];
  className?: string;
  phase?: string;
  labels?: Record<string, string>;
  claimRef?: { name: string; uid?: string; namespace?: string };
  zone?: string;
  volumeMode?: string;
  policy?: string;
  annotations?: Record<string, string>;
  finalizers?: string[];
  deleting?: boolean;
}

export function volume(v: VolumeSpec): PersistentVolume {
  const spec: Record<string, unknown> = {
    accessModes: v.modes ?? ['ReadWriteOnce'],
    capacity: { storage: v.size ?? '1Gi' },
    storageClassName: v.className ?? '',
    volumeMode: v.volumeMode ?? 'Filesystem',
    persistentVolumeReclaimPolicy: v.policy ?? 'Retain',
    csi: { driver: 'ebs.csi.aws.com', volumeHandle: `h-${v.name}` },
  };
  if (v.claimRef !== undefined) {
    spec.claimRef = { namespace: 'default', ...v.claimRef };
  }
  if (v.zone !== undefined) {
    spec.nodeAffinity = {
      required: {
        nodeSelectorTerms: [
          {
            matchExpressions: [
              { key: 'topology.kubernetes.io/zone', operator: 'In', values: [v.zone] },
            ],
          },
        ],
      },
    };
  }
  const metadata: KubeObject['metadata'] = {
    name: v.name,
    labels: v.labels ?? {},
    annotations: v.annotations ?? {},
    finalizers: v.finalizers ?? ['kubernetes.io/pv-protection'],
  };
  if (v.deleting === true) metadata.deletionTimestamp = '2024-06-01T11:00:00Z';
  return asKind(
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata,
      spec,
      status: { phase: v.phase ?? 'Available' },
    },
    'PersistentVolume',
  );
}

export function storageClass(
  name: string,
  opts: {
    provisioner?: string;
    wffc?: boolean;
    isDefault?: boolean;
    reclaimPolicy?: string;
    allowedZones?: string[];
    created?: string;
  } = {},
): StorageClass {
  const sc: KubeObject = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name,
      creationTimestamp: opts.created ?? '2024-01-01T00:00:00Z',
      annotations:
        opts.isDefault === true ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {},
    },
    provisioner: opts.provisioner ?? 'ebs.csi.aws.com',
    volumeBindingMode: opts.wffc === true ? 'WaitForFirstConsumer' : 'Immediate',
    reclaimPolicy: opts.reclaimPolicy ?? 'Delete',
  };
  if (opts.allowedZones !== undefined) {
    sc.allowedTopologies = [
      {
        matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: opts.allowedZones }],
      },
    ];
  }
  return asKind(sc, 'StorageClass');
}

export function node(name: string, zone: string): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone },
    },
  };
}
