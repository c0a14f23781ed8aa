/**
 * The permanent storage reservation (docs/design/operator-api.md §2; docs/design/operator.md §2.4): what the operator would create
 * for a fleet, and whether a reservation that exists is this fleet's.
 *
 * The reconcile does: Get the reservation by `reservationName`; `judgeReservation(found, fleet)`;
 * on `create`, Create it; on AlreadyExists (another fleet won the create, which is the
 * arbitration point; leader election is not), Get again and judge again. A reservation is never
 * updated and never deleted, even with its fleet, so a fleet recreated under the same name (a
 * new UID) is refused the bucket and adopts nothing.
 *
 * The reservation carries no fleet label and no owner reference on purpose: the garbage
 * collector and the fleet's label-driven clean-up must never reach it.
 *
 * @module
 */
import { FLEET_DEFAULTS } from '../api/fleet-defaults.js';
import { reservationName } from './name.js';
import { immutableSettingsHash } from './settings-hash.js';
import type {
  DesiredReservation,
  ReservationFleet,
  ReservationJudgement,
  StorageReservation,
} from './types.js';
import { RESERVATION_API_VERSION, RESERVATION_KIND } from './types.js';

/** The reservation name for a fleet's bucket scope. */
export function fleetReservationName(fleet: ReservationFleet): string {
  const { bucket, region, endpoint } = fleet.spec.storage;
  return reservationName(bucket, region, endpoint?.url);
}

/** The reservation the operator creates for `fleet`: bound to its UID and settings hash. */
export function desiredReservation(fleet: ReservationFleet): DesiredReservation {
  const name = fleet.metadata?.name ?? '';
  const namespace = fleet.metadata?.namespace ?? '';
  const uid = fleet.metadata?.uid;
  if (!uid)
    throw new TypeError(`fleet ${namespace}/${name} has no UID: reserve only a stored fleet`);
  const { bucket, region, endpoint } = fleet.spec.storage;
  return {
    apiVersion: RESERVATION_API_VERSION,
    kind: RESERVATION_KIND,
    metadata: { name: fleetReservationName(fleet) },
    spec: {
      bucket,
      region,
      ...(endpoint?.url ? { endpoint: endpoint.url } : {}),
      fleetNamespace: namespace,
      fleetName: name,
      fleetUID: uid,
      specHash: immutableSettingsHash(fleet.spec),
      initialReplicas: initialReplicas(fleet.spec.replicas),
    },
  };
}

/** The CRD allows 1–100; the fleet's own schema enforces the same range and has the default. */
function initialReplicas(replicas: number | undefined): number {
  return typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= 1
    ? Math.min(replicas, 100)
    : FLEET_DEFAULTS.replicas;
}

/**
 * `create` when there is none; `ours` when it names this fleet's UID, namespace, name, bucket
 * and settings hash and is neither owned nor being deleted; otherwise `conflict`.
 */
export function judgeReservation(
  existing: StorageReservation | undefined,
  fleet: ReservationFleet,
): ReservationJudgement {
  const desired = desiredReservation(fleet);
  if (existing === undefined) return { kind: 'create', object: desired };
  const detail = mismatch(existing, desired);
  if (detail === undefined) return { kind: 'ours' };
  return {
    kind: 'conflict',
    reason: 'StorageScopeConflict',
    message: `Bucket ${desired.spec.bucket} is permanently reserved to another fleet UID or immutable configuration; no resources adopted (reservation ${desired.metadata.name}: ${detail})`,
  };
}

/** Why `existing` is not `desired`'s reservation, or undefined when it is. */
function mismatch(existing: StorageReservation, desired: DesiredReservation): string | undefined {
  const meta = existing.metadata ?? {};
  const spec = existing.spec ?? {};
  const want = desired.spec;
  if (meta.name !== desired.metadata.name) return `it is named ${meta.name ?? '(none)'}`;
  if (meta.deletionTimestamp) return 'it is being deleted';
  if ((meta.ownerReferences ?? []).length > 0) return 'it has owner references';
  const holder = `${spec.fleetNamespace ?? '?'}/${spec.fleetName ?? '?'} UID ${spec.fleetUID ?? '?'}`;
  if (spec.fleetUID !== want.fleetUID) {
    return `reserved to fleet ${holder}, not ${want.fleetNamespace}/${want.fleetName} UID ${want.fleetUID}`;
  }
  if (spec.fleetNamespace !== want.fleetNamespace || spec.fleetName !== want.fleetName) {
    return `reserved to fleet ${holder}`;
  }
  if (spec.bucket !== want.bucket) return `reserved for bucket ${spec.bucket ?? '(none)'}`;
  if (spec.specHash !== want.specHash) {
    return 'the fleet’s immutable settings differ from those the bucket was reserved with';
  }
  return undefined;
}
