/**
 * The writes of one claim↔volume binding and of claim status changes, after upstream
 * `pv_controller.go` `bind`, `GetBindVolumeToClaim`, `getBindClaimToVolume`,
 * `updateClaimStatus` and `updateVolumePhase`. Each piece is present only when it would change
 * something, so the caller never writes a no-op.
 *
 * Write order for a binding (upstream's, so an interrupted binding is finished by the next
 * sync): the volume (claimRef and `bound-by-controller`), the volume status (Bound), the claim
 * (`volumeName`, `bind-completed`, `bound-by-controller`), the claim status (Bound, access modes,
 * capacity).
 *
 * @module
 */
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimStatus,
  PersistentVolumeStatus,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  accessModes,
  claimRefOf,
  hasAnnotation,
  isVolumeBoundToClaim,
  nameOf,
  type PlannedEvent,
  phaseOf,
  referenceTo,
  volumeNameOf,
} from './volume-util.js';

/** The writes of one sync; absent parts need no write. */
export interface Writes {
  /** The PV with its new `spec.claimRef` / annotations, written first. */
  readonly volume?: PersistentVolume;
  /** The PV's new `status`. */
  readonly volumeStatus?: PersistentVolumeStatus;
  /** The claim with its new metadata / spec. */
  readonly claim?: PersistentVolumeClaim;
  /** The claim's new `status`. */
  readonly claimStatus?: PersistentVolumeClaimStatus;
}

function withAnnotation<T extends KubeObject>(obj: T, key: string): T {
  const annotations = { ...(obj.metadata?.annotations ?? {}), [key]: 'yes' };
  return { ...obj, metadata: { ...obj.metadata, annotations } };
}

/** Upstream `GetBindVolumeToClaim`: the PV pointing at the claim, or undefined if it does. */
export function volumeBoundTo(
  pv: PersistentVolume,
  claim: PersistentVolumeClaim,
): PersistentVolume | undefined {
  const byController = !isVolumeBoundToClaim(pv, claim);
  const ref = claimRefOf(pv);
  let next = pv;
  let dirty = false;
  const sameRef =
    ref !== undefined &&
    ref.name === nameOf(claim) &&
    ref.namespace === (claim.metadata?.namespace ?? '') &&
    ref.uid === claim.metadata?.uid;
  if (!sameRef) {
    next = { ...pv, spec: { ...pv.spec, claimRef: referenceTo(claim) } };
    dirty = true;
  }
  if (byController && !hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) {
    next = withAnnotation(next, ANN_BOUND_BY_CONTROLLER);
    dirty = true;
  }
  return dirty ? next : undefined;
}

/** Upstream `getBindClaimToVolume`: the claim naming the PV, or undefined if it does. */
export function claimBoundTo(
  claim: PersistentVolumeClaim,
  pv: PersistentVolume,
): PersistentVolumeClaim | undefined {
  let next = claim;
  let dirty = false;
  const byController = volumeNameOf(claim) === '';
  if (claim.spec?.volumeName !== nameOf(pv)) {
    next = { ...claim, spec: { ...claim.spec, volumeName: nameOf(pv) } };
    dirty = true;
  }
  if (byController && !hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) {
    next = withAnnotation(next, ANN_BOUND_BY_CONTROLLER);
    dirty = true;
  }
  if (!hasAnnotation(next, ANN_BIND_COMPLETED)) {
    next = withAnnotation(next, ANN_BIND_COMPLETED);
    dirty = true;
  }
  return dirty ? next : undefined;
}

/** Upstream `updateVolumePhase`: a new status only when the phase changes. */
export function volumePhase(
  pv: PersistentVolume,
  phase: string,
  now: number,
  message = '',
): PersistentVolumeStatus | undefined {
  if (phaseOf(pv) === phase) return undefined;
  const status: PersistentVolumeStatus = {
    ...pv.status,
    phase,
    lastPhaseTransitionTime: formatTime(now),
  };
  if (message === '') delete status.message;
  else status.message = message;
  return status;
}

/**
 * Upstream `updateClaimStatus`: phase, and with a volume its access modes and (only when the
 * phase changes) its capacity; without one, both cleared.
 */
export function claimStatus(
  claim: PersistentVolumeClaim,
  phase: string,
  pv: PersistentVolume | undefined,
): PersistentVolumeClaimStatus | undefined {
  const old: PersistentVolumeClaimStatus = claim.status ?? {};
  const next: PersistentVolumeClaimStatus = { ...old, phase };
  if (pv === undefined) {
    delete next.accessModes;
    delete next.capacity;
  } else {
    next.accessModes = accessModes(pv);
    const capacity = pv.spec?.capacity;
    if (old.phase !== phase && JSON.stringify(old.capacity) !== JSON.stringify(capacity)) {
      next.capacity = capacity;
    }
  }
  return JSON.stringify(next) === JSON.stringify(old) ? undefined : next;
}

/** Upstream `bind`: every write that makes the pair Bound. */
export function bindWrites(
  pv: PersistentVolume,
  claim: PersistentVolumeClaim,
  now: number,
): Writes {
  const volume = volumeBoundTo(pv, claim);
  const nextClaim = claimBoundTo(claim, pv);
  const out: { -readonly [K in keyof Writes]: Writes[K] } = {};
  if (volume !== undefined) out.volume = volume;
  const vs = volumePhase(pv, 'Bound', now);
  if (vs !== undefined) out.volumeStatus = vs;
  if (nextClaim !== undefined) out.claim = nextClaim;
  const cs = claimStatus(claim, 'Bound', pv);
  if (cs !== undefined) out.claimStatus = cs;
  return out;
}

/** Upstream `updateClaimStatusWithEvent`: status and event only when the phase changes. */
export function claimPhaseWithEvent(
  claim: PersistentVolumeClaim,
  phase: string,
  event: Omit<PlannedEvent, 'on'>,
): { writes: Writes; events: PlannedEvent[] } {
  if (phaseOf(claim) === phase) return { writes: {}, events: [] };
  const status = claimStatus(claim, phase, undefined);
  return {
    writes: status === undefined ? {} : { claimStatus: status },
    events: [{ on: 'claim', ...event }],
  };
}
