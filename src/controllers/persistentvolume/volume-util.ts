/**
 * Shared names and readers of the PV controller (upstream `component-helpers/storage/volume`
 * `pv_helpers.go`, `helpers.go`, `pkg/controller/volume/events`): the annotations and
 * finalizers, event reasons, the class of a claim or volume, storage sizes, access modes, the
 * claimRef tests, and the default StorageClass choice.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import { parseQuantity } from '../../api/validation/quantity.js';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const ANN_BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';
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

export interface ClaimRef {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

type Obj = Record<string, unknown>;

function objAt(o: unknown, key: string): Obj | undefined {
  if (typeof o !== 'object' || o === null) return undefined;
  const v = (o as Obj)[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

function strAt(o: unknown, key: string): string | undefined {
  const v = typeof o === 'object' && o !== null ? (o as Obj)[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

export function specOf(obj: KubeObject): Obj {
  return objAt(obj, 'spec') ?? {};
}

export function phaseOf(obj: KubeObject): string {
  return strAt(objAt(obj, 'status'), 'phase') ?? '';
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
export function claimClassName(claim: KubeObject): string {
  const beta = annotation(claim, ANN_BETA_STORAGE_CLASS);
  if (beta !== undefined) return beta;
  return strAt(specOf(claim), 'storageClassName') ?? '';
}

/** Upstream `PersistentVolumeClaimHasClass`: a class was asked for, even `""`. */
export function claimHasClass(claim: KubeObject): boolean {
  if (hasAnnotation(claim, ANN_BETA_STORAGE_CLASS)) return true;
  return typeof specOf(claim).storageClassName === 'string';
}

/** Upstream `GetPersistentVolumeClass`. */
export function volumeClassName(pv: KubeObject): string {
  const beta = annotation(pv, ANN_BETA_STORAGE_CLASS);
  if (beta !== undefined) return beta;
  return strAt(specOf(pv), 'storageClassName') ?? '';
}

function bytesOf(v: unknown): bigint {
  if (typeof v !== 'string' && typeof v !== 'number') return 0n;
  const r = parseQuantity(v);
  // Quantity.Value() rounds up to whole units; nanos → units, ceiling.
  return r.ok ? (r.quantity.nanos + 999_999_999n) / 1_000_000_000n : 0n;
}

/** The claim's `resources.requests.storage` in bytes (0 when absent). */
export function requestedBytes(claim: KubeObject): bigint {
  return bytesOf(objAt(objAt(specOf(claim), 'resources'), 'requests')?.storage);
}

/** The volume's `capacity.storage` in bytes (0 when absent). */
export function capacityBytes(pv: KubeObject): bigint {
  return bytesOf(objAt(specOf(pv), 'capacity')?.storage);
}

export function accessModes(obj: KubeObject): string[] {
  const v = specOf(obj).accessModes;
  return Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : [];
}

/** Upstream `CheckAccessModes`: every mode the claim asks for is one the volume offers. */
export function accessModesSatisfy(claim: KubeObject, pv: KubeObject): boolean {
  const offered = new Set(accessModes(pv));
  return accessModes(claim).every((m) => offered.has(m));
}

/** Upstream `CheckVolumeModeMismatches`: an unset mode is `Filesystem`. */
export function volumeModeMismatch(claim: KubeObject, pv: KubeObject): boolean {
  const want = strAt(specOf(claim), 'volumeMode') ?? 'Filesystem';
  const have = strAt(specOf(pv), 'volumeMode') ?? 'Filesystem';
  return want !== have;
}

export function claimRefOf(pv: KubeObject): ClaimRef | undefined {
  return objAt(specOf(pv), 'claimRef') as ClaimRef | undefined;
}

/** Upstream `IsVolumeBoundToClaim`: name and namespace equal, and the uid when the ref has one. */
export function isVolumeBoundToClaim(pv: KubeObject, claim: KubeObject): boolean {
  const ref = claimRefOf(pv);
  if (ref === undefined) return false;
  if ((ref.name ?? '') !== nameOf(claim)) return false;
  if ((ref.namespace ?? '') !== (claim.metadata?.namespace ?? '')) return false;
  return (ref.uid ?? '') === '' || ref.uid === claim.metadata?.uid;
}

/** The claimRef a binding writes (upstream `reference.GetReference`). */
export function referenceTo(claim: KubeObject): ClaimRef {
  return {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata?.namespace ?? '',
    name: nameOf(claim),
    uid: claim.metadata?.uid ?? '',
    apiVersion: 'v1',
    resourceVersion: claim.metadata?.resourceVersion ?? '',
  };
}

/** Upstream `IsDefaultAnnotation`. */
export function isDefaultClass(sc: KubeObject): boolean {
  return (
    annotation(sc, ANN_DEFAULT_CLASS) === 'true' ||
    annotation(sc, ANN_BETA_DEFAULT_CLASS) === 'true'
  );
}

/**
 * Upstream `util.GetDefaultClass` (1.26+): with several defaults, the newest wins, and among
 * equally new ones the first by name.
 */
export function defaultClass(classes: readonly KubeObject[]): KubeObject | undefined {
  const created = (c: KubeObject) => parseTime(c.metadata?.creationTimestamp) ?? 0;
  const defaults = classes.filter(isDefaultClass);
  defaults.sort((a, b) => created(b) - created(a) || nameOf(a).localeCompare(nameOf(b)));
  return defaults[0];
}

export function findClass(classes: readonly KubeObject[], name: string): KubeObject | undefined {
  return classes.find((c) => nameOf(c) === name);
}

/** `volumeBindingMode` of a class; the API defaults it to `Immediate`. */
export function isWaitForFirstConsumer(sc: KubeObject | undefined): boolean {
  return strAt(sc, 'volumeBindingMode') === 'WaitForFirstConsumer';
}
