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
 *   the provisioner) and {@link checkBindings} its progress test.
 *
 * Provisioning is judged for the two simulated CSI drivers only: the node must carry the
 * driver's topology key and fit the class's `allowedTopologies`; any other provisioner (and
 * `kubernetes.io/no-provisioner`) cannot serve a node. Upstream asks only that the provisioner
 * is not `no-provisioner`; here the simulated drivers are the only ones that ever answer.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { FilterStatus } from '../../scheduler/types.js';
import { findMatchingVolume } from './matching.js';
import { nodeLabels, VOLUME_REASONS, volumeNodeAffinityMatches } from './node-affinity.js';
import { type DriverModel, EBS_DRIVER, HOSTPATH_DRIVER } from './provisioning.js';
import {
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  accessModes,
  annotation,
  claimClassName,
  claimRefOf,
  isWaitForFirstConsumer,
  nameOf,
  phaseOf,
  requestedBytes,
  specOf,
} from './volume-util.js';

/** What the decisions read: the scheduler's claim, volume, class and pod caches. */
export interface StorageSnapshot {
  claim(namespace: string, name: string): KubeObject | undefined;
  volume(name: string): KubeObject | undefined;
  volumes(): readonly KubeObject[];
  storageClass(name: string): KubeObject | undefined;
  /** Non-terminal pods bound to a node that use the claim `namespace/name`. */
  claimUsers(namespace: string, name: string): readonly KubeObject[];
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

/** The simulated drivers, by provisioner name. */
export const SIMULATED_DRIVERS: ReadonlyMap<string, DriverModel> = new Map([
  [HOSTPATH_DRIVER.name, HOSTPATH_DRIVER],
  [EBS_DRIVER.name, EBS_DRIVER],
]);

type Vol = { name?: string; persistentVolumeClaim?: { claimName?: string } | null };

/** The claim names of the pod's `persistentVolumeClaim` volumes, de-duplicated, in order. */
export function podClaimNames(pod: KubeObject): string[] {
  const vols = (specOf(pod).volumes ?? []) as Vol[];
  const names = vols.map((v) => v.persistentVolumeClaim?.claimName ?? '').filter((n) => n !== '');
  return [...new Set(names)];
}

/** Upstream `isPVCFullyBound`: a volume name and the controller's bind-completed mark. */
export function isClaimFullyBound(claim: KubeObject): boolean {
  return (
    String(specOf(claim).volumeName ?? '') !== '' &&
    annotation(claim, ANN_BIND_COMPLETED) !== undefined
  );
}

/** The pod's claims by binding state (upstream `PodVolumeClaims`). */
export interface PodClaims {
  readonly all: readonly KubeObject[];
  readonly bound: readonly KubeObject[];
  /** Unbound, WaitForFirstConsumer, no volume name: the scheduler binds them. */
  readonly delayed: readonly KubeObject[];
  readonly immediateUnbound: readonly KubeObject[];
}

const unresolvable = (reason: string): FilterStatus => ({
  code: 'UnschedulableAndUnresolvable',
  reasons: [reason],
});

/** Upstream `IsDelayBindingMode`: no class name, or an unknown class, is Immediate. */
function delayBinding(claim: KubeObject, snap: StorageSnapshot): boolean {
  const name = claimClassName(claim);
  return name !== '' && isWaitForFirstConsumer(snap.storageClass(name));
}

/** Looks up and sorts the pod's claims, or the PreFilter status that rules the pod out. */
export function podClaims(pod: KubeObject, snap: StorageSnapshot): PodClaims | FilterStatus {
  const ns = pod.metadata?.namespace ?? '';
  const all: KubeObject[] = [];
  const bound: KubeObject[] = [];
  const delayed: KubeObject[] = [];
  const immediateUnbound: KubeObject[] = [];
  for (const name of podClaimNames(pod)) {
    const claim = snap.claim(ns, name);
    if (claim === undefined) return unresolvable(VOLUME_MESSAGES.claimNotFound(name));
    if (phaseOf(claim) === 'Lost') {
      return unresolvable(VOLUME_MESSAGES.claimLost(name, String(specOf(claim).volumeName ?? '')));
    }
    if (claim.metadata?.deletionTimestamp) return unresolvable(VOLUME_MESSAGES.claimDeleting(name));
    all.push(claim);
    if (isClaimFullyBound(claim)) bound.push(claim);
    else if (delayBinding(claim, snap) && String(specOf(claim).volumeName ?? '') === '')
      delayed.push(claim);
    else immediateUnbound.push(claim);
  }
  return { all, bound, delayed, immediateUnbound };
}

function isStatus(v: PodClaims | FilterStatus): v is FilterStatus {
  return 'code' in v;
}

/** VolumeRestrictions + VolumeBinding PreFilter. */
export function preFilterVolumes(pod: KubeObject, snap: StorageSnapshot): FilterStatus | null {
  const claims = podClaims(pod, snap);
  if (isStatus(claims)) return claims;
  if (claims.immediateUnbound.length > 0)
    return unresolvable(VOLUME_REASONS.unboundImmediateClaims);
  return null;
}

function usesClaim(pod: KubeObject, name: string): boolean {
  return podClaimNames(pod).includes(name);
}

function samePod(a: KubeObject, b: KubeObject): boolean {
  const uid = a.metadata?.uid;
  if (uid && uid === b.metadata?.uid) return true;
  return nameOf(a) === nameOf(b) && (a.metadata?.namespace ?? '') === (b.metadata?.namespace ?? '');
}

/**
 * VolumeRestrictions' ReadWriteOncePod rule: another scheduled pod (on any node, or assumed on
 * this one) already uses one of the pod's RWOP claims.
 */
export function readWriteOncePodConflict(
  pod: KubeObject,
  claims: readonly KubeObject[],
  podsOnNode: readonly KubeObject[],
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
function allowedTopologiesFit(sc: KubeObject, labels: Readonly<Record<string, string>>): boolean {
  const terms = sc.allowedTopologies as
    | { matchLabelExpressions?: { key?: string; values?: string[] }[] }[]
    | undefined;
  if (!Array.isArray(terms) || terms.length === 0) return true;
  return terms.some((t) =>
    (t.matchLabelExpressions ?? []).every((e) => {
      const v = labels[e.key ?? ''];
      return v !== undefined && (e.values ?? []).includes(v);
    }),
  );
}

/** Whether a simulated provisioner can create the claim's volume for `node`. */
export function canProvisionOn(
  claim: KubeObject,
  node: KubeObject,
  snap: StorageSnapshot,
): boolean {
  const sc = snap.storageClass(claimClassName(claim));
  if (sc === undefined) return false;
  const driver = SIMULATED_DRIVERS.get(String(sc.provisioner ?? ''));
  if (driver === undefined) return false;
  const labels = nodeLabels(node);
  return labels[driver.topologyKey] !== undefined && allowedTopologiesFit(sc, labels);
}

/** What PreBind does for one node: PVs to pre-bind, claims to hand to the provisioner. */
export interface PodVolumePlan {
  readonly bindings: readonly { readonly claim: KubeObject; readonly pv: KubeObject }[];
  readonly provisions: readonly KubeObject[];
}

/**
 * Upstream `FindPodVolumes` for one node: the plan, or the reasons the node cannot serve the
 * pod's claims (all UnschedulableAndUnresolvable upstream).
 */
export function findPodVolumes(
  claims: PodClaims,
  node: KubeObject,
  snap: StorageSnapshot,
): { plan: PodVolumePlan } | { reasons: string[] } {
  const reasons: string[] = [];
  const labels = nodeLabels(node);
  let affinityOk = true;
  let pvsFound = true;
  for (const claim of claims.bound) {
    const pv = snap.volume(String(specOf(claim).volumeName ?? ''));
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
  delayed: readonly KubeObject[],
  node: KubeObject,
  snap: StorageSnapshot,
): PodVolumePlan | undefined {
  const nodeName = nameOf(node);
  const bindings: { claim: KubeObject; pv: KubeObject }[] = [];
  const provisions: KubeObject[] = [];
  const toMatch: KubeObject[] = [];
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
export function volumeZoneConflict(claims: PodClaims, node: KubeObject, snap: StorageSnapshot) {
  const labels = nodeLabels(node);
  return claims.bound.some((claim) => {
    const pv = snap.volume(String(specOf(claim).volumeName ?? ''));
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
  pod: KubeObject,
  node: KubeObject,
  podsOnNode: readonly KubeObject[],
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

/** Where PreBind's wait stands: done, still waiting, or failed (upstream's error text). */
export type BindingProgress = { done: true } | { done: false } | { error: string };

/** Numeric resourceVersion order; false when either is not a number. */
function olderThan(obj: KubeObject, rv: string | undefined): boolean {
  if (rv === undefined) return false;
  try {
    return BigInt(obj.metadata?.resourceVersion ?? '') < BigInt(rv);
  } catch {
    return false;
  }
}

/**
 * Upstream `checkBindings`: every pre-bound PV still names its claim and the claim is fully
 * bound; every provisioned claim still selects the node (the provisioner removes the
 * annotation when it fails) and is fully bound to a PV that fits the node. `written` holds the
 * resourceVersions PreBind wrote, so a cache still older than the write counts as waiting.
 */
export function checkBindings(
  plan: PodVolumePlan,
  node: KubeObject,
  snap: StorageSnapshot,
  written: ReadonlyMap<string, string> = new Map(),
): BindingProgress {
  let done = true;
  for (const { claim, pv } of plan.bindings) {
    const p = preBoundProgress(claim, pv, snap, written);
    if ('error' in p) return p;
    if (!p.done) done = false;
  }
  for (const claim of plan.provisions) {
    const p = provisionProgress(claim, node, snap, written);
    if ('error' in p) return p;
    if (!p.done) done = false;
  }
  return { done };
}

/** One PV PreBind pre-bound: still naming its claim, and the claim fully bound. */
function preBoundProgress(
  claim: KubeObject,
  planned: KubeObject,
  snap: StorageSnapshot,
  written: ReadonlyMap<string, string>,
): BindingProgress {
  const pv = snap.volume(nameOf(planned));
  if (pv === undefined) {
    return { error: `failed to check pv binding: persistentvolume "${nameOf(planned)}" not found` };
  }
  if (olderThan(pv, written.get(`pv/${nameOf(pv)}`))) return { done: false };
  if ((claimRefOf(pv)?.uid ?? '') === '') {
    return { error: `ClaimRef got reset for pv "${nameOf(pv)}"` };
  }
  const current = snap.claim(claim.metadata?.namespace ?? '', nameOf(claim));
  return { done: current !== undefined && isClaimFullyBound(current) };
}

/** One claim handed to the provisioner: still selecting the node, then bound to a PV there. */
function provisionProgress(
  claim: KubeObject,
  node: KubeObject,
  snap: StorageSnapshot,
  written: ReadonlyMap<string, string>,
): BindingProgress {
  const nodeName = nameOf(node);
  const ns = claim.metadata?.namespace ?? '';
  const current = snap.claim(ns, nameOf(claim));
  if (current === undefined) {
    return {
      error: `failed to check provisioning pvc: persistentvolumeclaim "${nameOf(claim)}" not found`,
    };
  }
  if (olderThan(current, written.get(`pvc/${ns}/${nameOf(claim)}`))) return { done: false };
  if (annotation(current, ANN_SELECTED_NODE) !== nodeName) {
    return { error: `provisioning failed for PVC "${nameOf(claim)}"` };
  }
  const volumeName = String(specOf(current).volumeName ?? '');
  if (volumeName !== '') {
    const pv = snap.volume(volumeName);
    // Not in the cache yet: the PV's event is on its way.
    if (pv === undefined) return { done: false };
    if (!volumeNodeAffinityMatches(pv, nodeLabels(node))) {
      return {
        error: `pv "${volumeName}" node affinity doesn't match node "${nodeName}": no matching NodeSelectorTerms`,
      };
    }
  }
  return { done: isClaimFullyBound(current) };
}
