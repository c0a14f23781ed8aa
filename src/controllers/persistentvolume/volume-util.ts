/**
 * Shared names and readers of the PV controller (upstream `component-helpers/storage/volume`
 * `pv_helpers.go`, `helpers.go`, `pkg/controller/volume/events`): the annotations and
 * finalizers, event reasons, the class of a claim or volume, storage sizes, access modes, the
 * claimRef tests, and the default StorageClass choice. Claims, volumes and classes are the
 * API's `PersistentVolumeClaim`, `PersistentVolume` and `StorageClass`.
 *
 * @module
 */
import {
  BETA_DEFAULT_CLASS_ANNOTATION,
  BETA_STORAGE_CLASS_ANNOTATION,
  claimHasClass,
  DEFAULT_CLASS_ANNOTATION,
  defaultClassOf,
  isDefaultClass,
  storageClassOf,
} from '../../api/kinds/storage-class.js';
import type {
  ObjectReference,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { parseQuantity } from '../../api/validation/quantity.js';
import type { ResourceType } from '../../client/resource-path.js';

/** storage.k8s.io/v1 storageclasses (not in `RESOURCES`). */
export const STORAGE_CLASSES: ResourceType = {
  group: 'storage.k8s.io',
  version: 'v1',
  plural: 'storageclasses',
};

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
export {
  BETA_DEFAULT_CLASS_ANNOTATION as ANN_BETA_DEFAULT_CLASS,
  BETA_STORAGE_CLASS_ANNOTATION as ANN_BETA_STORAGE_CLASS,
  DEFAULT_CLASS_ANNOTATION as ANN_DEFAULT_CLASS,
};
export const FINALIZER_EXTERNAL_PROVISIONER = 'external-provisioner.volume.kubernetes.io/finalizer';
export const FINALIZER_PV_PROTECTION = 'kubernetes.io/pv-protection';
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

/** Upstream `pkg/controller/volume/events` reasons used here. */
export const EVENT_REASONS = {
  failedBinding: 'FailedBinding',
  volumeMismatch: 'VolumeMismatch',
  waitForFirstConsumer: 'WaitForFirstConsumer',
  waitForPodScheduled: 'WaitForPodScheduled',
  externalProvisioning: 'ExternalProvisioning',
  provisioningFailed: 'ProvisioningFailed',
  provisioning: 'Provisioning',
  provisioningSucceeded: 'ProvisioningSucceeded',
  claimLost: 'ClaimLost',
  claimMisbound: 'ClaimMisbound',
  volumeFailedRecycle: 'VolumeFailedRecycle',
} as const;

/** One event the caller records on the claim or the volume. */
export interface PlannedEvent {
  readonly on: 'claim' | 'volume';
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** A volume's `spec.claimRef` (and what a binding writes there). */
export type ClaimRef = ObjectReference;

/** `status.phase` of a claim or volume ('' before the controller set one). */
export function phaseOf(obj: PersistentVolume | PersistentVolumeClaim): string {
  return obj.status?.phase ?? '';
}

export function annotation(obj: KubeObject, key: string): string | undefined {
  return obj.metadata?.annotations?.[key] ?? undefined;
}

export function hasAnnotation(obj: KubeObject, key: string): boolean {
  return annotation(obj, key) !== undefined;
}

export function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}

export function claimKey(claim: KubeObject): string {
  return `${claim.metadata?.namespace ?? ''}/${nameOf(claim)}`;
}

/** Upstream `GetPersistentVolumeClaimClass`: the beta annotation wins over the field. */
export const claimClassName = storageClassOf;

/** Upstream `GetPersistentVolumeClass`. */
export const volumeClassName = storageClassOf;

function bytesOf(v: string | undefined): bigint {
  if (v === undefined) return 0n;
  const r = parseQuantity(v);
  // Quantity.Value() rounds up to whole units; nanos → units, ceiling.
  return r.ok ? (r.quantity.nanos + 999_999_999n) / 1_000_000_000n : 0n;
}

/** The claim's `resources.requests.storage` in bytes (0 when absent). */
export function requestedBytes(claim: PersistentVolumeClaim): bigint {
  return bytesOf(claim.spec?.resources?.requests?.storage);
}

/** The volume's `capacity.storage` in bytes (0 when absent). */
export function capacityBytes(pv: PersistentVolume): bigint {
  return bytesOf(pv.spec?.capacity?.storage);
}

export function accessModes(obj: PersistentVolume | PersistentVolumeClaim): string[] {
  return obj.spec?.accessModes ?? [];
}

/** Upstream `CheckAccessModes`: every mode the claim asks for is one the volume offers. */
export function accessModesSatisfy(claim: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  const offered = new Set(accessModes(pv));
  return accessModes(claim).every((m) => offered.has(m));
}

/** Upstream `CheckVolumeModeMismatches`: an unset mode is `Filesystem`. */
export function volumeModeMismatch(claim: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  const want = claim.spec?.volumeMode ?? 'Filesystem';
  const have = pv.spec?.volumeMode ?? 'Filesystem';
  return want !== have;
}

export function claimRefOf(pv: PersistentVolume): ClaimRef | undefined {
  return pv.spec?.claimRef;
}

/** `spec.volumeName` of a claim ('' while it names no volume). */
export function volumeNameOf(claim: PersistentVolumeClaim): string {
  return claim.spec?.volumeName ?? '';
}

/** Upstream `IsVolumeBoundToClaim`: name and namespace equal, and the uid when the ref has one. */
export function isVolumeBoundToClaim(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = claimRefOf(pv);
  if (ref === undefined) return false;
  if ((ref.name ?? '') !== nameOf(claim)) return false;
  if ((ref.namespace ?? '') !== (claim.metadata?.namespace ?? '')) return false;
  return (ref.uid ?? '') === '' || ref.uid === claim.metadata?.uid;
}

/** The claimRef a binding writes (upstream `reference.GetReference`). */
export function referenceTo(claim: PersistentVolumeClaim): ClaimRef {
  return {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata?.namespace ?? '',
    name: nameOf(claim),
    uid: claim.metadata?.uid ?? '',
    apiVersion: 'v1',
    resourceVersion: claim.metadata?.resourceVersion ?? '',
  };
}

export { claimHasClass, defaultClassOf as defaultClass, isDefaultClass };

export function findClass(
  classes: readonly StorageClass[],
  name: string,
): StorageClass | undefined {
  return classes.find((c) => nameOf(c) === name);
}

/** `volumeBindingMode` of a class; the API defaults it to `Immediate`. */
export function isWaitForFirstConsumer(sc: StorageClass | undefined): boolean {
  return sc?.volumeBindingMode === 'WaitForFirstConsumer';
}
