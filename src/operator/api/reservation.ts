/**
 * The `CelldStorageReservation` schema. A reservation is the permanent, cluster-wide record
 * that a bucket belongs to one fleet UID and one immutable configuration (docs/design/operator-api.md §2): creating
 * it is the arbitration point between two fleets naming the same bucket, so its name is a pure
 * function of the store and bucket (`reservationName` in `src/operator/reservation/`), and its
 * spec can never change.
 *
 * @module
 */
import { int, obj, type SchemaNode, str } from './schema-builder.js';

export const RESERVATION_MESSAGES = {
  immutable: 'storage reservations cannot be transferred or changed',
} as const;

export function celldStorageReservationSchema(): SchemaNode {
  const spec = obj(
    {
      bucket: str({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9-]*[a-z0-9]$' }),
      fleetNamespace: str({ minLength: 1, maxLength: 63 }),
      fleetName: str({ minLength: 1, maxLength: 63 }),
      fleetUID: str({ minLength: 1, maxLength: 128 }),
      specHash: str({
        minLength: 1,
        maxLength: 128,
        description: 'Fingerprint of the fleet’s immutable settings.',
      }),
      initialReplicas: int({ minimum: 1, maximum: 100 }),
      endpoint: str({ maxLength: 2048, description: 'Custom S3 endpoint URL, if any.' }),
    },
    {
      required: [
        'bucket',
        'fleetNamespace',
        'fleetName',
        'fleetUID',
        'specHash',
        'initialReplicas',
      ],
      rules: [{ rule: 'self == oldSelf', message: RESERVATION_MESSAGES.immutable }],
    },
  );
  return obj(
    {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
    },
    { required: ['spec'] },
  );
}
