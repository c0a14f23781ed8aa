/**
 * The Storage view's model: claims (with Lost ones first, in plain sight), volumes, classes,
 * and the provisioned capacity per zone (the sum of PV `spec.capacity.storage`; a node-local
 * volume counts in its node's zone).
 *
 * @module
 */
import { collator, pvPin, ZONE_LABEL } from './cluster-map.js';
import { type KubeObject, str } from './json.js';
import type { ObjectStore } from './store.js';

export interface ClaimRow {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly phase: string;
  readonly volume: string;
  readonly storageClass: string;
  readonly capacity: string;
  readonly object: KubeObject;
}

export interface PvRow {
  readonly name: string;
  readonly phase: string;
  readonly claim: string;
  readonly capacity: string;
  readonly storageClass: string;
  readonly reclaimPolicy: string;
  /** `zone a`, `node n`, or ''. */
  readonly pinnedTo: string;
  readonly zone: string;
}

export interface ClassRow {
  readonly name: string;
  readonly provisioner: string;
  readonly bindingMode: string;
  readonly reclaimPolicy: string;
  readonly isDefault: boolean;
}

export interface ZoneCapacity {
  readonly zone: string;
  readonly bytes: number;
  readonly volumes: number;
}

export interface StorageModel {
  readonly claims: readonly ClaimRow[];
  readonly pvs: readonly PvRow[];
  readonly classes: readonly ClassRow[];
  readonly zones: readonly ZoneCapacity[];
}

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A Kubernetes quantity (`10Gi`, `500M`, `1.5Ti`, `1e9`) in bytes; 0 when unparsable. */
export function quantityBytes(q: string): number {
  const m = /^([+-]?\d+(?:\.\d+)?)(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?)$/.exec(
    q.trim(),
  );
  if (m === null) return 0;
  const base = Number(m[1]);
  if (m[2] !== undefined) return base * 10 ** Number(m[2]);
  return base * (SUFFIX[m[3] ?? ''] ?? 0);
}

/** `1.5 GiB`, `200 MiB`: binary units, as volume sizes are written. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const text = v >= 100 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(1);
  return `${text} ${units[i]}`;
}

const PHASE_ORDER: Readonly<Record<string, number>> = { Lost: 0, Pending: 1, Bound: 2 };

export function buildStorage(store: ObjectStore): StorageModel {
  const zoneOfNode = new Map<string, string>();
  for (const node of store.list('', 'nodes')) {
    const zone = node.metadata.labels?.[ZONE_LABEL] ?? '';
    zoneOfNode.set(node.metadata.name, zone);
    const host = node.metadata.labels?.['kubernetes.io/hostname'];
    if (host !== undefined) zoneOfNode.set(host, zone);
  }
  const claims = store
    .list('', 'persistentvolumeclaims')
    .map((object): ClaimRow => {
      const namespace = object.metadata.namespace ?? '';
      return {
        key: `${namespace}/${object.metadata.name}`,
        namespace,
        name: object.metadata.name,
        phase: str(object, 'status', 'phase') ?? 'Pending',
        volume: str(object, 'spec', 'volumeName') ?? '',
        storageClass: str(object, 'spec', 'storageClassName') ?? '',
        capacity:
          str(object, 'status', 'capacity', 'storage') ??
          str(object, 'spec', 'resources', 'requests', 'storage') ??
          '',
        object,
      };
    })
    .sort(
      (a, b) =>
        (PHASE_ORDER[a.phase] ?? 3) - (PHASE_ORDER[b.phase] ?? 3) || collator.compare(a.key, b.key),
    );
  const capacity = new Map<string, { bytes: number; volumes: number }>();
  const pvs = store
    .list('', 'persistentvolumes')
    .map((pv): PvRow => {
      const pin = pvPin(pv);
      const zone =
        pin === undefined ? '' : 'zone' in pin ? pin.zone : (zoneOfNode.get(pin.node) ?? '');
      const cap = str(pv, 'spec', 'capacity', 'storage') ?? '';
      const sum = capacity.get(zone) ?? { bytes: 0, volumes: 0 };
      capacity.set(zone, { bytes: sum.bytes + quantityBytes(cap), volumes: sum.volumes + 1 });
      const ns = str(pv, 'spec', 'claimRef', 'namespace');
      const claim = str(pv, 'spec', 'claimRef', 'name');
      return {
        name: pv.metadata.name,
        phase: str(pv, 'status', 'phase') ?? 'Pending',
        claim: claim === undefined ? '' : `${ns ?? ''}/${claim}`,
        capacity: cap,
        storageClass: str(pv, 'spec', 'storageClassName') ?? '',
        reclaimPolicy: str(pv, 'spec', 'persistentVolumeReclaimPolicy') ?? '',
        pinnedTo: pin === undefined ? '' : 'zone' in pin ? `zone ${pin.zone}` : `node ${pin.node}`,
        zone,
      };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
  const classes = store
    .list('storage.k8s.io', 'storageclasses')
    .map(
      (c): ClassRow => ({
        name: c.metadata.name,
        provisioner: str(c, 'provisioner') ?? '',
        bindingMode: str(c, 'volumeBindingMode') ?? 'Immediate',
        reclaimPolicy: str(c, 'reclaimPolicy') ?? 'Delete',
        isDefault:
          c.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true',
      }),
    )
    .sort((a, b) => collator.compare(a.name, b.name));
  for (const zone of new Set(zoneOfNode.values()))
    if (!capacity.has(zone)) capacity.set(zone, { bytes: 0, volumes: 0 });
  const zones = [...capacity]
    .map(([zone, c]) => ({ zone, ...c }))
    .sort((a, b) => (a.zone === '' ? 1 : b.zone === '' ? -1 : collator.compare(a.zone, b.zone)));
  return { claims, pvs, classes, zones };
}
