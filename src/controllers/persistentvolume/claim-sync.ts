/**
 * The PV controller's decision for one claim, after upstream `pv_controller.go` `syncClaim`,
 * `syncUnboundClaim`, `syncBoundClaim`, `provisionClaim` (external provisioners) and
 * `emitEventForUnboundDelayBindingClaim`: observed claim, volumes and classes in; the writes
 * and events out.
 *
 * A claim without `pv.kubernetes.io/bind-completed` is unbound:
 * - no `volumeName`: bind the best matching volume; with none, assign the default class to a
 *   claim that has none (then stop), wait for a WaitForFirstConsumer claim's first consumer
 *   (until the scheduler's `volume.kubernetes.io/selected-node`), hand a class's claim to its
 *   external provisioner (the two storage-provisioner annotations), or report that no class
 *   is set;
 * - a `volumeName`: bind that volume if it is free and fits, or finish a binding it already
 *   points back to; stay Pending otherwise.
 * A bound claim becomes Lost (once, with its event) when its volume disappears, its
 * `volumeName` is cleared, or the volume names another claim.
 *
 * @module
 */
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '../../api/model/index.js';
import { bindWrites, claimPhaseWithEvent, claimStatus, type Writes } from './claim-bind.js';
import { findBestMatchForClaim, volumeSatisfiesClaim } from './matching.js';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  annotation,
  claimClassName,
  claimHasClass,
  claimKey,
  claimRefOf,
  defaultClass,
  EVENT_REASONS,
  findClass,
  hasAnnotation,
  isVolumeBoundToClaim,
  isWaitForFirstConsumer,
  nameOf,
  type PlannedEvent,
  volumeNameOf,
} from './volume-util.js';

/** What the sync decided, for logs, metrics and tests. */
export type ClaimOutcome =
  | 'Bind'
  | 'Pending'
  | 'WaitForFirstConsumer'
  | 'Provision'
  | 'AssignDefaultClass'
  | 'Lost'
  | 'Error';

export interface ClaimPlan extends Writes {
  readonly outcome: ClaimOutcome;
  /** The volume being bound (Bind). */
  readonly volumeName?: string;
  readonly events: readonly PlannedEvent[];
  /** Upstream returns an error (the key is retried with backoff). */
  readonly error?: string;
}

export interface ClaimSyncOptions {
  /** Pods in the claim's namespace, to name unscheduled consumers (`WaitForPodScheduled`). */
  readonly pods?: readonly Pod[];
}

const LOST_REFERENCE =
  'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!';
const LOST_VOLUME = 'Bound claim has lost its PersistentVolume. Data on the volume is lost!';
const MISBOUND = 'Two claims are bound to the same volume, this one is bound incorrectly';
const NO_CLASS = 'no persistent volumes available for this claim and no storage class is set';
const WAIT_FIRST_CONSUMER = 'waiting for first consumer to be created before binding';

/** The claim's next writes and events. */
export function planClaim(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  classes: readonly StorageClass[],
  now: number,
  options: ClaimSyncOptions = {},
): ClaimPlan {
  const byName = new Map(volumes.map((v) => [nameOf(v), v]));
  if (hasAnnotation(claim, ANN_BIND_COMPLETED)) return syncBound(claim, byName, now);
  const volumeName = volumeNameOf(claim);
  if (volumeName === '') return syncUnnamed(claim, volumes, classes, now, options);
  return syncNamed(claim, byName.get(volumeName), now);
}

function bind(pv: PersistentVolume, claim: PersistentVolumeClaim, now: number): ClaimPlan {
  return { outcome: 'Bind', volumeName: nameOf(pv), events: [], ...bindWrites(pv, claim, now) };
}

function pending(
  claim: PersistentVolumeClaim,
  events: PlannedEvent[],
  outcome: ClaimOutcome = 'Pending',
) {
  const status = claimStatus(claim, 'Pending', undefined);
  const plan: ClaimPlan = { outcome, events };
  return status === undefined ? plan : { ...plan, claimStatus: status };
}

function lost(claim: PersistentVolumeClaim, reason: string, message: string): ClaimPlan {
  const r = claimPhaseWithEvent(claim, 'Lost', { type: 'Warning', reason, message });
  return { outcome: 'Lost', events: r.events, ...r.writes };
}

function syncBound(
  claim: PersistentVolumeClaim,
  byName: Map<string, PersistentVolume>,
  now: number,
): ClaimPlan {
  const volumeName = volumeNameOf(claim);
  if (volumeName === '') return lost(claim, EVENT_REASONS.claimLost, LOST_REFERENCE);
  const pv = byName.get(volumeName);
  if (pv === undefined) return lost(claim, EVENT_REASONS.claimLost, LOST_VOLUME);
  const ref = claimRefOf(pv);
  // A claimRef without a uid here is the volume "not bound back" yet: bind fixes it.
  if (ref === undefined || ref.uid === claim.metadata?.uid) return bind(pv, claim, now);
  return lost(claim, EVENT_REASONS.claimMisbound, MISBOUND);
}

function syncNamed(
  claim: PersistentVolumeClaim,
  pv: PersistentVolume | undefined,
  now: number,
): ClaimPlan {
  if (pv === undefined) return pending(claim, []);
  if (claimRefOf(pv) === undefined) {
    const reason = volumeSatisfiesClaim(pv, claim);
    if (reason === undefined) return bind(pv, claim, now);
    const message = `Cannot bind to requested volume "${nameOf(pv)}": ${reason}`;
    return pending(claim, [
      { on: 'claim', type: 'Warning', reason: EVENT_REASONS.volumeMismatch, message },
    ]);
  }
  if (isVolumeBoundToClaim(pv, claim)) return bind(pv, claim, now);
  const message = `volume "${nameOf(pv)}" already bound to a different claim.`;
  const event: PlannedEvent = {
    on: 'claim',
    type: 'Warning',
    reason: EVENT_REASONS.failedBinding,
    message,
  };
  if (!hasAnnotation(claim, ANN_BOUND_BY_CONTROLLER)) return pending(claim, [event]);
  const ref = claimRefOf(pv);
  const other = `${ref?.namespace ?? ''}/${ref?.name ?? ''}`;
  return {
    outcome: 'Error',
    events: [event],
    error: `invalid binding of claim "${claimKey(claim)}" to volume "${nameOf(pv)}": volume already claimed by "${other}"`,
  };
}

function syncUnnamed(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  classes: readonly StorageClass[],
  now: number,
  options: ClaimSyncOptions,
): ClaimPlan {
  const className = claimClassName(claim);
  const sc = className === '' ? undefined : findClass(classes, className);
  const delayBinding = isWaitForFirstConsumer(sc);
  const pv = findBestMatchForClaim(claim, volumes, delayBinding);
  if (pv !== undefined) return bind(pv, claim, now);
  // Retroactive default class (GA 1.28): a claim with no class at all gets today's default.
  const fallback = claimHasClass(claim) ? undefined : defaultClass(classes);
  if (fallback !== undefined) {
    const spec = { ...claim.spec, storageClassName: nameOf(fallback) };
    return { outcome: 'AssignDefaultClass', events: [], claim: { ...claim, spec } };
  }
  if (delayBinding && !hasAnnotation(claim, ANN_SELECTED_NODE)) {
    return pending(claim, [waitEvent(claim, options.pods ?? [])], 'WaitForFirstConsumer');
  }
  if (className !== '') return provision(claim, className, sc);
  return pending(claim, [
    { on: 'claim', type: 'Normal', reason: EVENT_REASONS.failedBinding, message: NO_CLASS },
  ]);
}

function usesClaim(pod: Pod, claim: PersistentVolumeClaim): boolean {
  if (pod.metadata?.namespace !== claim.metadata?.namespace) return false;
  const volumes = pod.spec?.volumes;
  if (volumes === undefined) return false;
  const name = nameOf(claim);
  return volumes.some((v) => {
    if (v.persistentVolumeClaim?.claimName === name) return true;
    // Generic ephemeral volumes own a claim named `<pod>-<volume>`.
    return 'ephemeral' in v && `${nameOf(pod)}-${v.name ?? ''}` === name;
  });
}

/** Upstream `emitEventForUnboundDelayBindingClaim`. */
function waitEvent(claim: PersistentVolumeClaim, pods: readonly Pod[]): PlannedEvent {
  const waiting = pods
    .filter((p) => usesClaim(p, claim) && (p.spec?.nodeName ?? '') === '')
    .map(nameOf);
  if (waiting.length === 0) {
    return {
      on: 'claim',
      type: 'Normal',
      reason: EVENT_REASONS.waitForFirstConsumer,
      message: WAIT_FIRST_CONSUMER,
    };
  }
  const message =
    waiting.length > 1
      ? `waiting for pods ${waiting.join(',')} to be scheduled`
      : `waiting for pod ${waiting[0]} to be scheduled`;
  return { on: 'claim', type: 'Normal', reason: EVENT_REASONS.waitForPodScheduled, message };
}

/**
 * Upstream `provisionClaimOperation` for CSI (external) provisioners: stamp the provisioner
 * on the claim and say who is expected to create the volume. No status write: upstream
 * returns before marking the claim Pending on this path.
 */
function provision(
  claim: PersistentVolumeClaim,
  className: string,
  sc: StorageClass | undefined,
): ClaimPlan {
  if (sc === undefined) {
    const message = `storageclass.storage.k8s.io "${className}" not found`;
    return {
      outcome: 'Pending',
      events: [{ on: 'claim', type: 'Warning', reason: EVENT_REASONS.provisioningFailed, message }],
    };
  }
  const provisioner = sc.provisioner;
  const message = `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`;
  const events: PlannedEvent[] = [
    { on: 'claim', type: 'Normal', reason: EVENT_REASONS.externalProvisioning, message },
  ];
  const stamped =
    annotation(claim, ANN_STORAGE_PROVISIONER) === provisioner &&
    annotation(claim, ANN_BETA_STORAGE_PROVISIONER) === provisioner;
  if (stamped) return { outcome: 'Provision', events };
  const annotations = {
    ...(claim.metadata?.annotations ?? {}),
    [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
    [ANN_STORAGE_PROVISIONER]: provisioner,
  };
  return {
    outcome: 'Provision',
    events,
    claim: { ...claim, metadata: { ...claim.metadata, annotations } },
  };
}
