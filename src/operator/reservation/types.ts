/**
 * The shapes the reservation helpers read and write: the generated `CelldFleet` and
 * `CelldStorageReservation` (`src/api/model/`), and the reservation this module renders.
 *
 * @module
 */
import type {
  CelldFleet,
  CelldFleetSpec,
  CelldStorageReservation,
  CelldStorageReservationSpec,
} from '../../api/model/index.js';

/** API version and kind of the reservation (group `celld.fleetyard.dev`, issue 6). */
export const RESERVATION_API_VERSION = 'celld.fleetyard.dev/v1alpha1';
export const RESERVATION_KIND = 'CelldStorageReservation';

/**
 * What the reservation reads of a fleet spec as stored (defaults applied by the API server):
 * the storage and replicas by name, the rest as the JSON the settings hash fingerprints. A
 * `CelldFleetSpec` is one.
 */
export type FleetSpec = Pick<CelldFleetSpec, 'storage' | 'replicas'> &
  Readonly<Record<string, unknown>>;

/** The fleet a reservation is judged for: a stored object, so it has a UID. */
export interface ReservationFleet {
  readonly metadata?: CelldFleet['metadata'];
  readonly spec: FleetSpec;
}

/**
 * `spec` of the reservation the operator writes; immutable once created (CEL `self == oldSelf`).
 * `region` is written too, though the reservation schema does not declare it (the server
 * prunes it; the reservation's name already carries the region).
 */
export type ReservationSpec = CelldStorageReservationSpec & { region: string };

/** A `CelldStorageReservation` as read from the API: any field may be missing or wrong. */
export type StorageReservation = Omit<CelldStorageReservation, 'spec'> & {
  spec?: Partial<CelldStorageReservationSpec>;
};

/** The reservation the operator creates for a fleet. */
export type DesiredReservation = {
  apiVersion: typeof RESERVATION_API_VERSION;
  kind: typeof RESERVATION_KIND;
  metadata: { name: string };
  spec: ReservationSpec;
};

/** What to do about the reservation (see `judgeReservation`). */
export type ReservationJudgement =
  | { kind: 'create'; object: DesiredReservation }
  | { kind: 'ours' }
  | { kind: 'conflict'; reason: 'StorageScopeConflict'; message: string };
