/**
 * The cluster map's model: zones (label `topology.kubernetes.io/zone`) holding nodes holding
 * their pods (`spec.nodeName`), plus the disks (PVs) pinned by `spec.nodeAffinity` to a zone
 * or to one node.
 *
 * Built once per batch of changes, so it is linear in objects and reuses the previous build's
 * node boxes whose node and pods did not change: the view skips re-rendering a node box with
 * the same identity, which keeps a rollout's frame cost to the nodes it touches.
 *
 * @module
 */
import { arr, condition, isJsonObject, type KubeObject, str } from './json.js';
import type { ObjectStore } from './store.js';

export const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** Affinity keys that pin a volume to a zone: the simulated EBS driver's and the legacy one. */
export const ZONE_KEYS = [
  ZONE_LABEL,
  'topology.ebs.csi.aws.com/zone',
  'failure-domain.beta.kubernetes.io/zone',
];
/** Keys that pin a volume to a node: what the simulated hostpath driver writes, and the real one's. */
export const NODE_KEYS = ['kubernetes.io/hostname', 'topology.hostpath.csi/node'];
export const STATE_ANNOTATION = 'sim.fleetyard.dev/state';
export const READY_ANNOTATION = 'sim.fleetyard.dev/ready';
export const STORAGE_FAULTS = { namespace: 'kube-system', name: 'fleetyard-storage' } as const;

export type NodeState = 'Ready' | 'NotReady' | 'Down' | 'Cordoned';

export interface PodChip {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly phase: string;
  readonly ready: boolean;
  readonly terminating: boolean;
}

export interface PvChip {
  readonly name: string;
  readonly phase: string;
  /** `ns/claim`, or '' when unclaimed. */
  readonly claim: string;
  readonly capacity: string;
}

export interface NodeBox {
  readonly name: string;
  readonly zone: string;
  readonly state: NodeState;
  readonly unschedulable: boolean;
  readonly object: KubeObject;
  readonly pods: readonly PodChip[];
  readonly pvs: readonly PvChip[];
}

export interface ZoneBox {
  readonly zone: string;
  readonly failing: boolean;
  readonly nodes: readonly NodeBox[];
  readonly pvs: readonly PvChip[];
}

export interface ClusterMapModel {
  readonly zones: readonly ZoneBox[];
  /** Pods no node runs (not scheduled yet, or on a node that is gone). */
  readonly unplaced: readonly PodChip[];
  readonly podCount: number;
}

export const collator = new Intl.Collator('en', { numeric: true });

/** Down (annotation) > NotReady (Ready condition not True) > Cordoned > Ready. */
export function nodeState(node: KubeObject): NodeState {
  if (node.metadata.annotations?.[STATE_ANNOTATION] === 'down') return 'Down';
  if (condition(node, 'Ready')?.status !== 'True') return 'NotReady';
  if (node.spec?.unschedulable === true) return 'Cordoned';
  return 'Ready';
}

export function podReady(pod: KubeObject): boolean {
  return condition(pod, 'Ready')?.status === 'True';
}

const chips = new WeakMap<KubeObject, PodChip>();

export function podChip(pod: KubeObject): PodChip {
  let chip = chips.get(pod);
  if (chip === undefined) {
    const namespace = pod.metadata.namespace ?? '';
    chip = {
      key: `${namespace}/${pod.metadata.name}`,
      namespace,
      name: pod.metadata.name,
      phase: str(pod, 'status', 'phase') ?? 'Pending',
      ready: podReady(pod),
      terminating: pod.metadata.deletionTimestamp !== undefined,
    };
    chips.set(pod, chip);
  }
  return chip;
}

export type Pin = { readonly zone: string } | { readonly node: string } | undefined;

/** Where a PV's node affinity pins it: the first zone or node key of its required terms. */
export function pvPin(pv: KubeObject): Pin {
  for (const term of arr(pv, 'spec', 'nodeAffinity', 'required', 'nodeSelectorTerms')) {
    for (const expr of arr(term, 'matchExpressions')) {
      if (!isJsonObject(expr) || expr.operator !== 'In') continue;
      const key = typeof expr.key === 'string' ? expr.key : '';
      const value = str(expr, 'values', 0);
      if (value === undefined) continue;
      if (ZONE_KEYS.includes(key)) return { zone: value };
      if (NODE_KEYS.includes(key)) return { node: value };
    }
  }
  return undefined;
}

export function pvChip(pv: KubeObject): PvChip {
  const ns = str(pv, 'spec', 'claimRef', 'namespace');
  const claim = str(pv, 'spec', 'claimRef', 'name');
  return {
    name: pv.metadata.name,
    phase: str(pv, 'status', 'phase') ?? 'Pending',
    claim: claim === undefined ? '' : `${ns ?? ''}/${claim}`,
    capacity: str(pv, 'spec', 'capacity', 'storage') ?? '',
  };
}

/** The zones listed in `failing-zones` of the storage faults ConfigMap. */
export function failingZones(store: ObjectStore): ReadonlySet<string> {
  const cm = store.get('', 'configmaps', STORAGE_FAULTS.namespace, STORAGE_FAULTS.name);
  const list = str(cm, 'data', 'failing-zones') ?? '';
  return new Set(
    list
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const byKey = (a: PodChip, b: PodChip): number => collator.compare(a.key, b.key);
const byName = (a: { name: string }, b: { name: string }): number =>
  collator.compare(a.name, b.name);

function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}

/** Disks by the node they are pinned to, and the rest by zone ('' when unpinned or the node is gone). */
function placeVolumes(
  store: ObjectStore,
  nodeNames: ReadonlySet<string>,
  nodeOfHostname: ReadonlyMap<string, string>,
): { byNode: Map<string, PvChip[]>; byZone: Map<string, PvChip[]> } {
  const byNode = new Map<string, PvChip[]>();
  const byZone = new Map<string, PvChip[]>();
  for (const pv of store.list('', 'persistentvolumes')) {
    const pin = pvPin(pv);
    const node =
      pin !== undefined && 'node' in pin ? (nodeOfHostname.get(pin.node) ?? pin.node) : undefined;
    if (node !== undefined && nodeNames.has(node)) listIn(byNode, node).push(pvChip(pv));
    else listIn(byZone, pin !== undefined && 'zone' in pin ? pin.zone : '').push(pvChip(pv));
  }
  return { byNode, byZone };
}

const pvSignature = (pvs: readonly PvChip[]): string[] =>
  pvs.map((p) => `${p.name} ${p.phase} ${p.claim}`);

/** The previous box when nothing it shows changed (so the view skips it), else a new one. */
function nodeBox(
  node: KubeObject,
  pods: PodChip[],
  pvs: PvChip[],
  prev: NodeBox | undefined,
): NodeBox {
  pods.sort(byKey);
  pvs.sort(byName);
  if (
    prev !== undefined &&
    prev.object === node &&
    sameItems(prev.pods, pods) &&
    sameItems(pvSignature(prev.pvs), pvSignature(pvs))
  ) {
    return prev;
  }
  return {
    name: node.metadata.name,
    zone: node.metadata.labels?.[ZONE_LABEL] ?? '',
    state: nodeState(node),
    unschedulable: node.spec?.unschedulable === true,
    object: node,
    pods,
    pvs,
  };
}

export function buildClusterMap(store: ObjectStore, previous?: ClusterMapModel): ClusterMapModel {
  const prevNodes = new Map<string, NodeBox>();
  for (const z of previous?.zones ?? []) for (const n of z.nodes) prevNodes.set(n.name, n);

  const nodes = store.list('', 'nodes');
  const nodeNames = new Set(nodes.map((n) => n.metadata.name));
  const nodeOfHostname = new Map<string, string>();
  for (const node of nodes) {
    const host = node.metadata.labels?.['kubernetes.io/hostname'];
    if (host !== undefined) nodeOfHostname.set(host, node.metadata.name);
  }
  const podsByNode = new Map<string, PodChip[]>();
  const unplaced: PodChip[] = [];
  const pods = store.list('', 'pods');
  for (const pod of pods) {
    const nodeName = str(pod, 'spec', 'nodeName');
    if (nodeName !== undefined && nodeNames.has(nodeName))
      listIn(podsByNode, nodeName).push(podChip(pod));
    else unplaced.push(podChip(pod));
  }
  const volumes = placeVolumes(store, nodeNames, nodeOfHostname);
  const pvsByZone = volumes.byZone;
  const failing = failingZones(store);
  const nodesByZone = new Map<string, NodeBox[]>();
  for (const node of nodes) {
    const name = node.metadata.name;
    const box = nodeBox(
      node,
      podsByNode.get(name) ?? [],
      volumes.byNode.get(name) ?? [],
      prevNodes.get(name),
    );
    listIn(nodesByZone, box.zone).push(box);
  }
  const zoneNames = new Set([...nodesByZone.keys(), ...pvsByZone.keys(), ...failing]);
  const zones = [...zoneNames]
    .sort((a, b) => (a === '' ? 1 : b === '' ? -1 : collator.compare(a, b)))
    .map(
      (zone): ZoneBox => ({
        zone,
        failing: failing.has(zone),
        nodes: (nodesByZone.get(zone) ?? []).sort(byName),
        pvs: (pvsByZone.get(zone) ?? []).sort(byName),
      }),
    );
  return { zones, unplaced: unplaced.sort(byKey), podCount: pods.length };
}
