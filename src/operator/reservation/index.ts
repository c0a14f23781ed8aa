/**
 * The permanent storage reservation: its name, the immutable-settings fingerprint, the object
 * the operator creates, and the judgement of one that exists. Pure; the reconcile does the I/O.
 *
 * @module
 */
export { desiredReservation, fleetReservationName, judgeReservation } from './judge.js';
export { awsPartition, endpointScope, reservationName } from './name.js';
export {
  IMMUTABLE_SPEC_FIELDS,
  immutableSettings,
  immutableSettingsHash,
} from './settings-hash.js';
export type {
  DesiredReservation,
  FleetSpec,
  ReservationFleet,
  ReservationJudgement,
  ReservationSpec,
  StorageReservation,
} from './types.js';
export { RESERVATION_API_VERSION, RESERVATION_KIND } from './types.js';
