/**
 * The shapes the reservation helpers read and write. The fleet side is the minimum they need
 * from a CelldFleet; the reservation side is the `CelldStorageReservation` object this module
 * renders. Defined locally so the helpers stay independent of the fleet API module; the API's
 * CRD schema must declare every field of `ReservationSpec`, or the API server prunes it.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';

/** API version and kind of the reservation (group `celld.fleetyard.dev`, issue 6). */
export const RESERVATION_API_VERSION = 'celld.fleetyard.dev/v1alpha1';
export const RESERVATION_KIND = 'CelldStorageReservation';

/** `spec.storage.endpoint` of a fleet: a custom S3 endpoint and its credentials Secret. */
export interface FleetStorageEndpoint {
  url: string;
  credentialsSecretName?: string;
  [field: string]: unknown;
}

/** `spec.storage` of a fleet, as far as the reservation cares. */
export interface FleetStorage {
  bucket: string;
  region: string;
  endpoint?: FleetStorageEndpoint;
  [field: string]: unknown;
}

/** A fleet spec as stored (defaults applied by the API server). Other fields pass through. */
export interface FleetSpec {
  profile: string;
  storage: FleetStorage;
  [field: string]: unknown;
}

/** The fleet a reservation is judged for: a stored object, so it has a UID. */
export interface ReservationFleet {
  metadata: { name: string; namespace: string; uid: string };
  spec: FleetSpec;
}

/** `spec` of a `CelldStorageReservation`; immutable once created (CEL `self == oldSelf`). */
export interface ReservationSpec {
  bucket: string;
  region: string;
  /** The custom endpoint URL as the fleet gave it; absent for AWS S3. */
  endpoint?: string;
  fleetNamespace: string;
  fleetName: string;
  fleetUID: string;
  /** `immutableSettingsHash` of the fleet spec at creation. */
  specHash: string;
  /** The fleet's `spec.replicas` when the bucket was reserved (a record; replicas may change). */
  initialReplicas: number;
}

/** A `CelldStorageReservation` as read from the API (any field may be missing or wrong). */
export interface StorageReservation extends KubeObject {
  spec?: Partial<ReservationSpec>;
}

/** The reservation the operator creates for a fleet. */
export interface DesiredReservation extends KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: ReservationSpec;
}

/** What to do about the reservation (see `judgeReservation`). */
export type ReservationJudgement =
  | { kind: 'create'; object: DesiredReservation }
  | { kind: 'ours' }
  | { kind: 'conflict'; reason: 'StorageScopeConflict'; message: string };
