/**
 * The decision for one PersistentVolume, after upstream `pv_controller.go` `syncVolume`,
 * `unbindVolume`, `reclaimVolume`, `modifyDeletionFinalizers`, the pv-protection controller, and
 * the external provisioner's `shouldDelete` (sig-storage-lib-external-provisioner).
 *
 * - no claimRef, or a claimRef without uid (pre-bound by a user): Available;
 * - the claim is gone (or recreated with another uid): Released (Failed is kept), then the
 *   reclaim policy: Retain stays Released; Delete is the provisioner's job when the volume
 *   carries its `pv.kubernetes.io/provisioned-by` (it deletes the storage, drops
 *   `external-provisioner.volume.kubernetes.io/finalizer`, then deletes the PV), else the
 *   volume is Failed; Recycle has no CSI recycler and fails;
 * - the claim names no volume yet: the claim's sync finishes the binding (enqueue the claim);
 * - the claim names this volume: Bound;
 * - the claim names another volume: a dynamically provisioned Delete volume is released and
 *   deleted; otherwise it is unbound (the controller's own binding is dropped, a user's
 *   pre-binding keeps its name and loses the uid).
 * `kubernetes.io/pv-protection` is added to every live PV and removed from a deleting one that
 * is not Bound.
 *
 * @module
 */
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeSpec,
  PersistentVolumeStatus,
} from '../../api/model/index.js';
import { volumePhase } from './claim-bind.js';
import {
  ANN_BOUND_BY_CONTROLLER,
  ANN_DYNAMICALLY_PROVISIONED,
  annotation,
  claimRefOf,
  EVENT_REASONS,
  FINALIZER_EXTERNAL_PROVISIONER,
  FINALIZER_PV_PROTECTION,
  hasAnnotation,
  nameOf,
  type PlannedEvent,
  phaseOf,
  volumeModeMismatch,
  volumeNameOf,
} from './volume-util.js';

export type VolumeOutcome =
  | 'Available'
  | 'Bound'
  | 'Released'
  | 'Failed'
  | 'Unbind'
  | 'SyncClaim'
  | 'Delete';

export interface VolumePlan {
  readonly outcome: VolumeOutcome;
  /** The PV with its new metadata/spec (claimRef, annotations, finalizers), when it changes. */
  readonly volume?: PersistentVolume;
  /** The PV's new status, when it changes. */
  readonly volumeStatus?: PersistentVolumeStatus;
  /** The provisioner deletes the PV object (after writing `volume` without its finalizer). */
  readonly deleteVolume?: boolean;
  /** A claim key (`ns/name`) whose sync should run soon. */
  readonly syncClaim?: string;
  readonly events: readonly PlannedEvent[];
}

export interface VolumeSyncOptions {
  /** Names of the provisioners that are running (`ebs.csi.aws.com`, …). */
  readonly provisioners?: ReadonlySet<string>;
  /** Provisioners whose deletes fail (fault injection): the volume stays Released. */
  readonly failingProvisioners?: ReadonlySet<string>;
}

const RELEASED_OR_FAILED = new Set(['Released', 'Failed']);

function finalizersOf(pv: PersistentVolume): string[] {
  return [...(pv.metadata?.finalizers ?? [])];
}

function withFinalizers(pv: PersistentVolume, finalizers: string[]): PersistentVolume {
  return { ...pv, metadata: { ...pv.metadata, finalizers } };
}

function deleting(pv: PersistentVolume): boolean {
  return pv.metadata?.deletionTimestamp !== undefined && pv.metadata.deletionTimestamp !== null;
}

/** Upstream `modifyDeletionFinalizers` and pv-protection, applied to the planned phase. */
function finalizerChanges(pv: PersistentVolume, phase: string): PersistentVolume | undefined {
  const before = finalizersOf(pv);
  let after = before;
  if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') {
    after = after.filter((f) => f !== FINALIZER_EXTERNAL_PROVISIONER);
  }
  if (!deleting(pv) && !after.includes(FINALIZER_PV_PROTECTION)) {
    after = [...after, FINALIZER_PV_PROTECTION];
  }
  if (deleting(pv) && phase !== 'Bound') after = after.filter((f) => f !== FINALIZER_PV_PROTECTION);
  return after.length === before.length && after.every((f, i) => f === before[i])
    ? undefined
    : withFinalizers(pv, after);
}

interface Step {
  outcome: VolumeOutcome;
  phase: string;
  message?: string;
  volume?: PersistentVolume;
  deleteVolume?: boolean;
  syncClaim?: string;
  events?: PlannedEvent[];
}

/** The PV's next writes. `claims` are the claims of the ref's namespace (or all claims). */
export function planVolume(
  pv: PersistentVolume,
  claims: readonly PersistentVolumeClaim[],
  now: number,
  options: VolumeSyncOptions = {},
): VolumePlan {
  const step = decide(pv, claims, options);
  // The step's spec/metadata change first, then the finalizer rules on top of it.
  const base = step.volume ?? pv;
  // The provisioner's delete drops its own finalizer only; pv-protection then sees Released.
  const finalized = step.deleteVolume === true ? undefined : finalizerChanges(base, step.phase);
  const volume = finalized ?? step.volume;
  const status = volumePhase(pv, step.phase, now, step.message);
  const plan: {
    -readonly [K in keyof VolumePlan]: VolumePlan[K];
  } = { outcome: step.outcome, events: step.events ?? [] };
  if (volume !== undefined) plan.volume = volume;
  if (status !== undefined) plan.volumeStatus = status;
  if (step.deleteVolume === true) plan.deleteVolume = true;
  if (step.syncClaim !== undefined) plan.syncClaim = step.syncClaim;
  return plan;
}

function decide(
  pv: PersistentVolume,
  claims: readonly PersistentVolumeClaim[],
  options: VolumeSyncOptions,
): Step {
  const ref = claimRefOf(pv);
  if (ref === undefined || (ref.uid ?? '') === '')
    return { outcome: 'Available', phase: 'Available' };
  const claim = claims.find(
    (c) => nameOf(c) === ref.name && (c.metadata?.namespace ?? '') === (ref.namespace ?? ''),
  );
  if (claim === undefined || claim.metadata?.uid !== ref.uid) return reclaim(pv, options);
  const claimVolume = volumeNameOf(claim);
  if (claimVolume === '') return pendingClaim(pv, claim);
  if (claimVolume === nameOf(pv)) return { outcome: 'Bound', phase: 'Bound' };
  const dynamic = hasAnnotation(pv, ANN_DYNAMICALLY_PROVISIONED);
  if (dynamic && pv.spec?.persistentVolumeReclaimPolicy === 'Delete') return reclaim(pv, options);
  return unbind(pv);
}

function pendingClaim(pv: PersistentVolume, claim: PersistentVolumeClaim): Step {
  const key = `${claim.metadata?.namespace ?? ''}/${nameOf(claim)}`;
  const phase = phaseOf(pv);
  if (!volumeModeMismatch(claim, pv)) return { outcome: 'SyncClaim', phase, syncClaim: key };
  const reason = EVENT_REASONS.volumeMismatch;
  return {
    outcome: 'SyncClaim',
    phase,
    events: [
      {
        on: 'volume',
        type: 'Warning',
        reason,
        message: `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${nameOf(claim)}" due to incompatible volumeMode.`,
      },
      {
        on: 'claim',
        type: 'Warning',
        reason,
        message: `Cannot bind PersistentVolume "${nameOf(pv)}" to requested PersistentVolumeClaim due to incompatible volumeMode.`,
      },
    ],
  };
}

/** Upstream `unbindVolume`. */
function unbind(pv: PersistentVolume): Step {
  const spec: PersistentVolumeSpec = { ...pv.spec };
  let metadata = pv.metadata;
  if (hasAnnotation(pv, ANN_BOUND_BY_CONTROLLER)) {
    delete spec.claimRef;
    const annotations = { ...(pv.metadata?.annotations ?? {}) };
    delete annotations[ANN_BOUND_BY_CONTROLLER];
    metadata = { ...pv.metadata, annotations };
  } else {
    spec.claimRef = { ...claimRefOf(pv), uid: '' };
  }
  return { outcome: 'Unbind', phase: 'Available', volume: { ...pv, metadata, spec } };
}

/** Release (keeping Failed), then upstream `reclaimVolume` / the provisioner's delete. */
function reclaim(pv: PersistentVolume, options: VolumeSyncOptions): Step {
  const released = RELEASED_OR_FAILED.has(phaseOf(pv)) ? phaseOf(pv) : 'Released';
  const policy = pv.spec?.persistentVolumeReclaimPolicy;
  if (policy === 'Recycle') {
    return failed(
      pv,
      released,
      EVENT_REASONS.volumeFailedRecycle,
      'No recycler plugin found for the volume!',
    );
  }
  if (policy !== 'Delete') return { outcome: 'Released', phase: released };
  const provisioner = annotation(pv, ANN_DYNAMICALLY_PROVISIONED) ?? '';
  if (provisioner === '') {
    const message = `error getting deleter volume plugin for volume "${nameOf(pv)}": no deletable volume plugin matched`;
    return failed(pv, released, 'VolumeFailedDelete', message);
  }
  // An external provisioner not running (or failing) leaves the volume Released until it is.
  const running = options.provisioners?.has(provisioner) === true;
  if (!running || options.failingProvisioners?.has(provisioner) === true) {
    return { outcome: 'Released', phase: released };
  }
  const finalizers = finalizersOf(pv).filter((f) => f !== FINALIZER_EXTERNAL_PROVISIONER);
  return {
    outcome: 'Delete',
    phase: released,
    volume: withFinalizers(pv, finalizers),
    deleteVolume: true,
  };
}

/** Upstream `updateVolumePhaseWithEvent(Failed)`: the event only on the transition. */
function failed(pv: PersistentVolume, current: string, reason: string, message: string): Step {
  const events: PlannedEvent[] =
    phaseOf(pv) === 'Failed' ? [] : [{ on: 'volume', type: 'Warning', reason, message }];
  return { outcome: 'Failed', phase: current === 'Failed' ? current : 'Failed', message, events };
}
