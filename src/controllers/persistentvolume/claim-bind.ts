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
import type { JsonObject, KubeObject } from '../../api/object.js';
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
  specOf,
} from './volume-util.js';

/** The writes of one sync; absent parts need no write. */
export interface Writes {
  /** The PV with its new `spec.claimRef` / annotations, written first. */
  readonly volume?: KubeObject;
  /** The PV's new `status`. */
  readonly volumeStatus?: JsonObject;
  /** The claim with its new metadata / spec. */
  readonly claim?: KubeObject;
  /** The claim's new `status`. */
  readonly claimStatus?: JsonObject;
}

function withAnnotation(obj: KubeObject, key: string): KubeObject {
  const annotations = { ...(obj.metadata?.annotations ?? {}), [key]: 'yes' };
  return { ...obj, metadata: { ...obj.metadata, annotations } };
}

/** Upstream `GetBindVolumeToClaim`: the PV pointing at the claim, or undefined if it does. */
export function volumeBoundTo(pv: KubeObject, claim: KubeObject): KubeObject | undefined {
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
    next = { ...pv, spec: { ...specOf(pv), claimRef: referenceTo(claim) } };
    dirty = true;
  }
  if (byController && !hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) {
    next = withAnnotation(next, ANN_BOUND_BY_CONTROLLER);
    dirty = true;
  }
  return dirty ? next : undefined;
}

/** Upstream `getBindClaimToVolume`: the claim naming the PV, or undefined if it does. */
export function claimBoundTo(claim: KubeObject, pv: KubeObject): KubeObject | undefined {
  let next = claim;
  let dirty = false;
  const byController = (specOf(claim).volumeName ?? '') === '';
  if (specOf(claim).volumeName !== nameOf(pv)) {
    next = { ...claim, spec: { ...specOf(claim), volumeName: nameOf(pv) } };
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

function statusOf(obj: KubeObject): JsonObject {
  const s = obj.status;
  return typeof s === 'object' && s !== null && !Array.isArray(s) ? (s as JsonObject) : {};
}

/** Upstream `updateVolumePhase`: a new status only when the phase changes. */
export function volumePhase(
  pv: KubeObject,
  phase: string,
  now: number,
  message = '',
): JsonObject | undefined {
  if (phaseOf(pv) === phase) return undefined;
  const status: JsonObject = {
    ...statusOf(pv),
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
  claim: KubeObject,
  phase: string,
  pv: KubeObject | undefined,
): JsonObject | undefined {
  const old = statusOf(claim);
  const next: JsonObject = { ...old, phase };
  if (pv === undefined) {
    delete next.accessModes;
    delete next.capacity;
  } else {
    next.accessModes = accessModes(pv);
    const capacity = specOf(pv).capacity;
    if (old.phase !== phase && JSON.stringify(old.capacity) !== JSON.stringify(capacity)) {
      next.capacity = capacity;
    }
  }
  return JSON.stringify(next) === JSON.stringify(old) ? undefined : next;
}

/** Upstream `bind`: every write that makes the pair Bound. */
export function bindWrites(pv: KubeObject, claim: KubeObject, now: number): Writes {
  const volume = volumeBoundTo(pv, claim);
  const nextClaim = claimBoundTo(claim, pv);
  const out: {
    volume?: KubeObject;
    volumeStatus?: JsonObject;
    claim?: KubeObject;
    claimStatus?: JsonObject;
  } = {};
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
  claim: KubeObject,
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
