/**
 * The celld API: types, schemas, CRDs and naming for `celld.fleetyard.dev/v1alpha1`.
 *
 * @module
 */
export * from './crds.js';
export * from './env-names.js';
export { celldFleetSchema, FLEET_MESSAGES } from './fleet-schema.js';
export {
  celldStorageReservationSchema,
  RESERVATION_MESSAGES,
} from './reservation.js';
export type { SchemaNode, ValidationRule } from './schema-builder.js';
export * from './types.js';
