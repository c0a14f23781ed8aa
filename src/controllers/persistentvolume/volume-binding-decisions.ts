/**
 * The scheduler's volume decisions, pure over a {@link StorageSnapshot}: upstream's
 * VolumeRestrictions (ReadWriteOncePod), VolumeBinding (`binder.go`: `GetPodVolumeClaims`,
 * `FindPodVolumes`, `checkBindings`) and VolumeZone plugins.
 *
 * - PreFilter rejects the pod everywhere (UnschedulableAndUnresolvable) for a missing claim, a
 *   Lost claim, a claim being deleted, or an unbound claim whose class binds Immediately (or
 *   that is pre-bound by name but not yet bound: upstream treats it the same).
 * - Filter decides one node, in upstream's plugin order: a ReadWriteOncePod claim used by another
 *   scheduled pod (Unschedulable: preempting the holder would help); bound claims whose PV is
 *   missing or whose `nodeAffinity` excludes the node; WaitForFirstConsumer claims with neither a
 *   matching Available PV nor a provisioner able to serve the node; then bound PVs' legacy zone
 *   labels (VolumeZone).
 * - {@link findPodVolumes} is also PreBind's plan (which PV to pre-bind, which claims to hand to
 *   the provisioner); `volume-binding-progress.ts` holds its progress test.
 *
 * Provisioning is judged for the two simulated CSI drivers only: the node must carry the
 * driver's topology key and fit the class's `allowedTopologies`; any other provisioner (and
 * `kubernetes.io/no-provisioner`) cannot serve a node. Upstream asks only that the provisioner
 * is not `no-provisioner`; here the simulated drivers are the only ones that ever answer.
 *
 * @module
 */
import type {
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '../../api/model/index.js';
import type { FilterStatus } from '../../scheduler/types.js';
import { findMatchingVolume } from './matching.js';
import { nodeLabels, VOLUME_REASONS, volumeNodeAffinityMatches } from './node-affinity.js';
import {
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  accessModes,
  annotation,
  claimClassName,
  isWaitForFirstConsumer,
  nameOf,
  phaseOf,
  requestedBytes,
  volumeNameOf,
} from './volume-util.js';

/** What the decisions read: the scheduler's claim, volume, class and pod caches. */
export interface StorageSnapshot {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
  volumes(): readonly PersistentVolume[];
  storageClass(name: string): StorageClass | undefined;
  /** Non-terminal pods bound to a node that use the claim `namespace/name`. */
  claimUsers(namespace: string, name: string): readonly Pod[];
  /** The CSI driver behind a provisioner name, when the cluster has it. */
  csiDriver(provisioner: string): CsiDriverTopology | undefined;
}

/**
 * What the scheduler knows of a CSI driver: the node label its volumes are pinned by
 * (upstream learns it from the driver's CSINode `topologyKeys`; here the cluster's wiring
 * passes the drivers in, `VolumeBindingOptions.csiDrivers`).
 */
export interface CsiDriverTopology {
  readonly topologyKey: string;
}

/** Upstream texts beyond the hook's {@link VOLUME_REASONS}. */
export const VOLUME_MESSAGES = {
  claimNotFound: (name: string) => `persistentvolumeclaim "${name}" not found`,
  claimDeleting: (name: string) => `persistentvolumeclaim "${name}" is being deleted`,
  claimLost: (name: string, pv: string) =>
    `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${pv}"`,
  /** ErrReasonPVNotExist. */
  pvNotExist: 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)',
  /** VolumeZone's ErrReasonConflict. */
  volumeZoneConflict: 'node(s) had no available volume zone',
} as const;

/** The claim names of the pod's `persistentVolumeClaim` volumes, de-duplicated, in order. */
export function podClaimNames(pod: Pod): string[] {
  const vols = pod.spec?.volumes ?? [];
  const names = vols.map((v) => v.persistentVolumeClaim?.claimName ?? '').filter((n) => n !== '');
  return [...new Set(names)];
}

/** Upstream `isPVCFullyBound`: a volume name and the controller's bind-completed mark. */
export function isClaimFullyBound(claim: PersistentVolumeClaim): boolean {
  return volumeNameOf(claim) !== '' && annotation(claim, ANN_BIND_COMPLETED) !== undefined;
}

/** The pod's claims by binding state (upstream `PodVolumeClaims`). */
export interface PodClaims {
  readonly all: readonly PersistentVolumeClaim[];
  readonly bound: readonly PersistentVolumeClaim[];
  /** Unbound, WaitForFirstConsumer, no volume name: the scheduler binds them. */
  readonly delayed: readonly PersistentVolumeClaim[];
  readonly immediateUnbound: readonly PersistentVolumeClaim[];
}

const unresolvable = (reason: string): FilterStatus => ({
  code: 'UnschedulableAndUnresolvable',
  reasons: [reason],
});

/** Upstream `IsDelayBindingMode`: no class name, or an unknown class, is Immediate. */
function delayBinding(claim: PersistentVolumeClaim, snap: StorageSnapshot): boolean {
  const name = claimClassName(claim);
  return name !== '' && isWaitForFirstConsumer(snap.storageClass(name));
}

/** Looks up and sorts the pod's claims, or the PreFilter status that rules the pod out. */
export function podClaims(pod: Pod, snap: StorageSnapshot): PodClaims | FilterStatus {
  const ns = pod.metadata?.namespace ?? '';
  const all: PersistentVolumeClaim[] = [];
  const bound: PersistentVolumeClaim[] = [];
  const delayed: PersistentVolumeClaim[] = [];
  const immediateUnbound: PersistentVolumeClaim[] = [];
  for (const name of podClaimNames(pod)) {
    const claim = snap.claim(ns, name);
    if (claim === undefined) return unresolvable(VOLUME_MESSAGES.claimNotFound(name));
    if (phaseOf(claim) === 'Lost') {
      return unresolvable(VOLUME_MESSAGES.claimLost(name, volumeNameOf(claim)));
    }
    if (claim.metadata?.deletionTimestamp) return unresolvable(VOLUME_MESSAGES.claimDeleting(name));
    all.push(claim);
    if (isClaimFullyBound(claim)) bound.push(claim);
    else if (delayBinding(claim, snap) && volumeNameOf(claim) === '') delayed.push(claim);
    else immediateUnbound.push(claim);
  }
  return { all, bound, delayed, immediateUnbound };
}

function isStatus(v: PodClaims | FilterStatus): v is FilterStatus {
  return 'code' in v;
}

/** VolumeRestrictions + VolumeBinding PreFilter. */
export function preFilterVolumes(pod: Pod, snap: StorageSnapshot): FilterStatus | null {
  const claims = podClaims(pod, snap);
  if (isStatus(claims)) return claims;
  if (claims.immediateUnbound.length > 0)
    return unresolvable(VOLUME_REASONS.unboundImmediateClaims);
  return null;
}

function usesClaim(pod: Pod, name: string): boolean {
  return podClaimNames(pod).includes(name);
}

function samePod(a: Pod, b: Pod): boolean {
  const uid = a.metadata?.uid;
  if (uid && uid === b.metadata?.uid) return true;
  return nameOf(a) === nameOf(b) && (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '');
}

/**
 * VolumeRestrictions' ReadWriteOncePod rule: another scheduled pod (on any node, or assumed on
 * this one) already uses one of the pod's RWOP claims.
 */
export function readWriteOncePodConflict(
  pod: Pod,
  claims: readonly PersistentVolumeClaim[],
  podsOnNode: readonly Pod[],
  snap: StorageSnapshot,
): boolean {
  const ns = pod.metadata?.namespace ?? '';
  return claims.some((claim) => {
    if (!accessModes(claim).includes('ReadWriteOncePod')) return false;
    const name = nameOf(claim);
    const users = [
      ...snap.claimUsers(ns, name),
      ...podsOnNode.filter((p) => (p.metadata?.namespace ?? '') === ns && usesClaim(p, name)),
    ];
    return users.some((u) => !samePod(u, pod));
  });
}

/** Upstream `MatchTopologySelectorTerms`: no terms match everything; else one term fully. */
function allowedTopologiesFit(sc: StorageClass, labels: Readonly<Record<string, string>>): boolean {
  const terms = sc.allowedTopologies ?? [];
  if (terms.length === 0) return true;
  return terms.some((t) =>
    (t.matchLabelExpressions ?? []).every((e) => {
      const v = labels[e.key];
      return v !== undefined && e.values.includes(v);
    }),
  );
}

/** Whether a simulated provisioner can create the claim's volume for `node`. */
export function canProvisionOn(
  claim: PersistentVolumeClaim,
  node: Node,
  snap: StorageSnapshot,
): boolean {
  const sc = snap.storageClass(claimClassName(claim));
  if (sc === undefined) return false;
  const driver = snap.csiDriver(sc.provisioner);
  if (driver === undefined) return false;
  const labels = nodeLabels(node);
  return labels[driver.topologyKey] !== undefined && allowedTopologiesFit(sc, labels);
}

/** What PreBind does for one node: PVs to pre-bind, claims to hand to the provisioner. */
export interface PodVolumePlan {
  readonly bindings: readonly {
    readonly claim: PersistentVolumeClaim;
    readonly pv: PersistentVolume;
  }[];
  readonly provisions: readonly PersistentVolumeClaim[];
}

/**
 * Upstream `FindPodVolumes` for one node: the plan, or the reasons the node cannot serve the
 * pod's claims (all UnschedulableAndUnresolvable upstream).
 */
export function findPodVolumes(
  claims: PodClaims,
  node: Node,
  snap: StorageSnapshot,
): { plan: PodVolumePlan } | { reasons: string[] } {
  const reasons: string[] = [];
  const labels = nodeLabels(node);
  let affinityOk = true;
  let pvsFound = true;
  for (const claim of claims.bound) {
    const pv = snap.volume(volumeNameOf(claim));
    if (pv === undefined) pvsFound = false;
    else if (!volumeNodeAffinityMatches(pv, labels)) affinityOk = false;
  }
  if (!affinityOk) reasons.push(VOLUME_REASONS.nodeAffinityConflict);
  if (!pvsFound) reasons.push(VOLUME_MESSAGES.pvNotExist);
  const plan = planDelayed(claims.delayed, node, snap);
  if (plan === undefined) reasons.push(VOLUME_REASONS.noPersistentVolumes);
  return reasons.length > 0 || plan === undefined ? { reasons } : { plan };
}

/** WaitForFirstConsumer claims, smallest request first so the smallest PVs go to them. */
function planDelayed(
  delayed: readonly PersistentVolumeClaim[],
  node: Node,
  snap: StorageSnapshot,
): PodVolumePlan | undefined {
  const nodeName = nameOf(node);
  const bindings: { claim: PersistentVolumeClaim; pv: PersistentVolume }[] = [];
  const provisions: PersistentVolumeClaim[] = [];
  const toMatch: PersistentVolumeClaim[] = [];
  for (const claim of delayed) {
    const selected = annotation(claim, ANN_SELECTED_NODE);
    // A claim already handed to the provisioner for another node fits no other node.
    if (selected !== undefined && selected !== nodeName) return undefined;
    if (selected !== undefined) provisions.push(claim);
    else toMatch.push(claim);
  }
  toMatch.sort((a, b) => {
    const d = requestedBytes(a) - requestedBytes(b);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  });
  const chosen = new Set<string>();
  for (const claim of toMatch) {
    const pv = findMatchingVolume(claim, snap.volumes(), node, { excluded: chosen });
    if (pv === undefined) {
      provisions.push(claim);
      continue;
    }
    chosen.add(nameOf(pv));
    bindings.push({ claim, pv });
  }
  if (!provisions.every((c) => canProvisionOn(c, node, snap))) return undefined;
  return { bindings, provisions };
}

const ZONE_LABELS = [
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
];

/** VolumeZone: a bound PV labelled with a zone/region (`a__b` is a set) fits nodes there. */
export function volumeZoneConflict(claims: PodClaims, node: Node, snap: StorageSnapshot) {
  const labels = nodeLabels(node);
  return claims.bound.some((claim) => {
    const pv = snap.volume(volumeNameOf(claim));
    const pvLabels = pv?.metadata?.labels ?? {};
    return ZONE_LABELS.some((key) => {
      const want = pvLabels[key];
      if (want === undefined) return false;
      const have = labels[key];
      return have === undefined || !want.split('__').includes(have);
    });
  });
}

/** VolumeRestrictions, VolumeBinding and VolumeZone Filter for one node, upstream's order. */
export function filterVolumes(
  pod: Pod,
  node: Node,
  podsOnNode: readonly Pod[],
  snap: StorageSnapshot,
): FilterStatus | null {
  if (podClaimNames(pod).length === 0) return null;
  const claims = podClaims(pod, snap);
  if (isStatus(claims)) return claims;
  if (readWriteOncePodConflict(pod, claims.all, podsOnNode, snap)) {
    return { code: 'Unschedulable', reasons: [VOLUME_REASONS.readWriteOncePodInUse] };
  }
  if (claims.immediateUnbound.length > 0)
    return unresolvable(VOLUME_REASONS.unboundImmediateClaims);
  const found = findPodVolumes(claims, node, snap);
  if ('reasons' in found) return { code: 'UnschedulableAndUnresolvable', reasons: found.reasons };
  if (volumeZoneConflict(claims, node, snap)) {
    return unresolvable(VOLUME_MESSAGES.volumeZoneConflict);
  }
  return null;
}
