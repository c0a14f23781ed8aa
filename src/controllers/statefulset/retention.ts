/**
 * The PVC retention policy (`persistentVolumeClaimRetentionPolicy`, feature
 * `StatefulSetAutoDeletePVC`, on by default) as a pure plan: which ownerReferences a pod's claim
 * must carry so that the garbage collector deletes it at the right moment (upstream
 * `stateful_set_utils.go: isClaimOwnerUpToDate, updateClaimOwnerRefForSetAndPod,
 * hasUnexpectedController, hasNonControllerOwner, hasStaleOwnerRef` and
 * `stateful_pod_control.go: UpdatePodClaimForRetentionPolicy, PodClaimIsStale`;
 * docs/design/statefulset.md §3).
 *
 * | whenScaled | whenDeleted | claim of an in-range pod | claim of a condemned pod |
 * |---|---|---|---|
 * | Retain | Retain | no ref to set or pod | no ref to set or pod |
 * | Retain | Delete | set | set |
 * | Delete | Retain | none | pod |
 * | Delete | Delete | set | pod (set ref removed) |
 *
 * Refs are controller refs (`controller` and `blockOwnerDeletion` true, as upstream's
 * `NewControllerRef`); refs to third parties are kept. A claim another controller owns, or one
 * carrying a ref to an earlier set or pod of the same name (stale UID), is left alone.
 *
 * @module
 */
import type { StatefulSet } from '../../api/model/index.js';
import type { KubeObject, OwnerReference } from '../../api/object.js';
import { type GroupVersionKind, newControllerRef } from '../../controller/controller-ref.js';

export type RetentionPolicyType = 'Retain' | 'Delete';

export interface RetentionPolicy {
  readonly whenDeleted: RetentionPolicyType;
  readonly whenScaled: RetentionPolicyType;
}

/** Event reason upstream records on the set for a claim with a foreign controller. */
export const CONFLICTING_CONTROLLER_REASON = 'ConflictingController';

const SET_KIND: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'StatefulSet' };
const POD_KIND: GroupVersionKind = { group: '', version: 'v1', kind: 'Pod' };

/** The Warning event's message (upstream's text, its "manging" typo included). */
export function conflictingControllerMessage(claimName: string): string {
  return `PersistentVolumeClaim ${claimName} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`;
}

function policyValue(v: string | undefined): RetentionPolicyType {
  // Unknown values are treated as Retain (upstream logs "Unknown policy, treating as Retain").
  return v === 'Delete' ? 'Delete' : 'Retain';
}

/** Upstream `getPersistentVolumeClaimRetentionPolicy`: absent policy or field → Retain. */
export function retentionPolicyOf(set: StatefulSet): RetentionPolicy {
  const raw = set.spec?.persistentVolumeClaimRetentionPolicy ?? {};
  return { whenDeleted: policyValue(raw.whenDeleted), whenScaled: policyValue(raw.whenScaled) };
}

function isRetainRetain(p: RetentionPolicy): boolean {
  return p.whenDeleted === 'Retain' && p.whenScaled === 'Retain';
}

function refsOf(claim: KubeObject): readonly OwnerReference[] {
  return claim.metadata?.ownerReferences ?? [];
}

function uidOf(obj: KubeObject): string {
  return obj.metadata?.uid ?? '';
}

/** Upstream `matchesRef`: same apiVersion, kind and name (UID not compared). */
function matchesRef(ref: OwnerReference, obj: KubeObject, gvk: GroupVersionKind): boolean {
  const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
  return ref.apiVersion === apiVersion && ref.kind === gvk.kind && ref.name === obj.metadata?.name;
}

/** Upstream `hasOwnerRef`: some ref carries the owner's UID (controller or not). */
function hasOwnerRef(claim: KubeObject, owner: KubeObject): boolean {
  return refsOf(claim).some((r) => r.uid === uidOf(owner));
}

/** Upstream `hasStaleOwnerRef`: the first ref matching the owner by name has another UID. */
export function hasStaleOwnerRef(
  claim: KubeObject,
  owner: KubeObject,
  gvk: GroupVersionKind,
): boolean {
  const ref = refsOf(claim).find((r) => matchesRef(r, owner, gvk));
  return ref !== undefined && ref.uid !== uidOf(owner);
}

/**
 * Upstream `hasUnexpectedController`: under a non-Retain/Retain policy, the claim has a
 * controller that is neither this set nor this pod, or a ref to a namesake set/pod with another
 * UID (orphaned by an earlier incarnation; left for the garbage collector).
 */
export function hasUnexpectedController(
  claim: KubeObject,
  set: StatefulSet,
  pod: KubeObject,
): boolean {
  if (isRetainRetain(retentionPolicyOf(set))) return false;
  for (const ref of refsOf(claim)) {
    if (matchesRef(ref, set, SET_KIND)) {
      if (ref.uid !== uidOf(set)) return true;
      continue;
    }
    if (matchesRef(ref, pod, POD_KIND)) {
      if (ref.uid !== uidOf(pod)) return true;
      continue;
    }
    if (ref.controller === true) return true;
  }
  return false;
}

/** Upstream `hasNonControllerOwner`: the set or pod owns the claim without being controller. */
export function hasNonControllerOwner(
  claim: KubeObject,
  set: KubeObject,
  pod: KubeObject,
): boolean {
  return refsOf(claim).some(
    (r) => (r.uid === uidOf(set) || r.uid === uidOf(pod)) && r.controller !== true,
  );
}

/** Which of set and pod the policy wants as owner of the claim. */
function wantedOwners(policy: RetentionPolicy, condemned: boolean): { set: boolean; pod: boolean } {
  const scaledDelete = policy.whenScaled === 'Delete';
  const deletedDelete = policy.whenDeleted === 'Delete';
  return {
    set: deletedDelete && !(scaledDelete && condemned),
    pod: scaledDelete && condemned,
  };
}

/**
 * Upstream `isClaimOwnerUpToDate`. True (leave alone) for stale refs, and for a foreign
 * controller once our refs are gone; false when our refs are not controllers; otherwise
 * whether the set and pod refs are exactly what the policy wants.
 */
export function isClaimOwnerUpToDate(
  claim: KubeObject,
  set: StatefulSet,
  pod: KubeObject,
  condemned: boolean,
): boolean {
  if (hasStaleOwnerRef(claim, set, SET_KIND) || hasStaleOwnerRef(claim, pod, POD_KIND)) return true;
  if (hasUnexpectedController(claim, set, pod)) {
    return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  }
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const want = wantedOwners(retentionPolicyOf(set), condemned);
  return hasOwnerRef(claim, set) === want.set && hasOwnerRef(claim, pod) === want.pod;
}

/**
 * Upstream `updateClaimOwnerRefForSetAndPod`: drop every ref to the set or pod (by name),
 * then, unless a foreign controller is present, add the controller refs the policy wants.
 */
export function claimOwnerRefsFor(
  claim: KubeObject,
  set: StatefulSet,
  pod: KubeObject,
  condemned: boolean,
): OwnerReference[] {
  const unexpected = hasUnexpectedController(claim, set, pod);
  const refs = refsOf(claim).filter(
    (r) => !matchesRef(r, set, SET_KIND) && !matchesRef(r, pod, POD_KIND),
  );
  if (unexpected) return refs;
  const want = wantedOwners(retentionPolicyOf(set), condemned);
  const add = (owner: KubeObject, gvk: GroupVersionKind): void => {
    if (!refs.some((r) => r.uid === uidOf(owner))) refs.push(newControllerRef(owner, gvk));
  };
  if (want.set) add(set, SET_KIND);
  if (want.pod) add(pod, POD_KIND);
  return refs;
}

/** What to do with one claim of one pod. */
export interface ClaimRetentionPlan<C extends KubeObject = KubeObject> {
  /** A foreign controller owns the claim: record a Warning `ConflictingController` on the set. */
  readonly conflictingController: boolean;
  /** The claim's ownerReferences after the change; absent when the claim is up to date. */
  readonly ownerReferences?: OwnerReference[];
  /**
   * The claim to PUT: the observed one with those ownerReferences (none left: the field goes),
   * keeping its `resourceVersion` so a concurrent change answers 409. Upstream updates rather
   * than patches, and the controller's bootstrap role grants `update` on claims, not `patch`.
   * Absent when nothing is to be written.
   */
  readonly updated?: C;
}

export interface ClaimRetentionInput<C extends KubeObject = KubeObject> {
  /** The StatefulSet (name, uid, `spec.persistentVolumeClaimRetentionPolicy`). */
  readonly set: StatefulSet;
  /** The pod the claim belongs to (name and uid). */
  readonly pod: KubeObject;
  /** The pod's ordinal is outside the set's range (scaled down). */
  readonly condemned: boolean;
  /** The claim as observed. */
  readonly claim: C;
}

/** Upstream `UpdatePodClaimForRetentionPolicy` for one existing claim, as a plan. */
export function planClaimRetention<C extends KubeObject>(
  input: ClaimRetentionInput<C>,
): ClaimRetentionPlan<C> {
  const { set, pod, condemned, claim } = input;
  const conflictingController = hasUnexpectedController(claim, set, pod);
  if (isClaimOwnerUpToDate(claim, set, pod, condemned)) return { conflictingController };
  const ownerReferences = claimOwnerRefsFor(claim, set, pod, condemned);
  const { ownerReferences: _old, ...rest } = claim.metadata ?? {};
  const metadata = ownerReferences.length > 0 ? { ...rest, ownerReferences } : rest;
  return { conflictingController, ownerReferences, updated: { ...claim, metadata } };
}

/**
 * Upstream `PodClaimIsStale`, for one existing claim of a pod about to be created: under
 * `whenScaled: Delete`, a claim still owned by an earlier pod of that name (any pod ref with
 * that name, since the new pod has no UID yet) blocks the creation until the garbage collector
 * removes the claim, so the new pod never starts on storage that is about to vanish.
 */
export function claimIsStale(set: StatefulSet, podName: string, claim: KubeObject): boolean {
  if (retentionPolicyOf(set).whenScaled === 'Retain') return false;
  return hasStaleOwnerRef(claim, { metadata: { name: podName, uid: '' } }, POD_KIND);
}
