/**
 * The celld API (`celld.fleetyard.dev/v1alpha1`): its group and version, the condition types,
 * reasons and states the operator writes, and names for the object types. The object types are
 * the generated ones (`src/api/model/celld.generated.ts`), made from the OpenAPI schemas the API
 * server enforces (`fleet-schema.ts`, `reservation.ts`): a field is added there, and the types
 * follow when they are regenerated (`scripts/gen-api-types.ts`).
 *
 * @module
 */
import type {
  CelldFleetMemberStatus,
  CelldFleetSpec,
  CelldFleetStatus,
} from '../../api/model/index.js';
import type { MetaCondition } from '../../api/policy/pdb-conditions.js';

export const CELLD_GROUP = 'celld.fleetyard.dev';
export const CELLD_VERSION = 'v1alpha1';
export const CELLD_API_VERSION = `${CELLD_GROUP}/${CELLD_VERSION}`;

export type {
  CelldCondition,
  CelldFleet,
  CelldFleetMemberStatus,
  CelldFleetSpec,
  CelldFleetStatus,
  CelldStorageReservation,
  CelldStorageReservationSpec,
} from '../../api/model/index.js';

/** Short names for parts of the generated spec. */
export type FleetProfile = CelldFleetSpec['profile'];
/** How a Bucket fleet runs: a Deployment, or a StatefulSet with ordinal zone assignment. */
export type BucketWorkload = NonNullable<CelldFleetSpec['bucketWorkload']>;
export type PlacementMode = NonNullable<CelldFleetSpec['placement']['mode']>;

export type FleetConditionType =
  | 'Ready'
  | 'Progressing'
  | 'Blocked'
  | 'MaintenancePaused'
  | 'Deleting';

export const FLEET_CONDITION_TYPES: readonly FleetConditionType[] = [
  'Ready',
  'Progressing',
  'Blocked',
  'MaintenancePaused',
  'Deleting',
];

/**
 * The reasons `Ready`, `Progressing` and `Blocked` carry (docs/design/operator-api.md §1.5), minus the
 * journal-era, seeding and qualification ones this operator does not have.
 */
export const FLEET_REASONS = [
  'Provisioned',
  'Provisioning',
  'LifecycleProgress',
  'MemberUnschedulable',
  'SchedulingBlocked',
  'CapacityUncertain',
  'InfrastructureBlocked',
  'LifecycleBlocked',
  'IsolationUnverified',
  'NamespaceAccessDenied',
  'StorageIdentityConflict',
  'StorageScopeConflict',
  'StorageClassMissing',
  'InvalidStorageClass',
  'ServiceAccountMissing',
  'InvalidConfiguration',
  'UnsupportedTransition',
  'MaintenancePaused',
  'DeletionBlocked',
] as const;
export type FleetReason = (typeof FLEET_REASONS)[number];

/** One-word summary of the conditions, for the State printer column. */
export type FleetState = NonNullable<CelldFleetStatus['state']>;
export const FLEET_STATES: readonly FleetState[] = [
  'Ready',
  'Progressing',
  'Blocked',
  'Paused',
  'Deleting',
];

/** A `metav1.Condition`. */
export type Condition = MetaCondition;

export type ClaimPhase = NonNullable<CelldFleetMemberStatus['claimPhase']>;

/**
 * One row of the per-member table (improvement over the Go operator, docs/design/operator.md §10).
 */
export type FleetMemberStatus = CelldFleetMemberStatus;
