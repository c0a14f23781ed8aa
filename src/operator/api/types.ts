/**
 * The celld API (`celld.fleetyard.dev/v1alpha1`) as TypeScript types: what the operator reads
 * from and writes to `CelldFleet` and `CelldStorageReservation` objects. The OpenAPI schemas
 * that the API server enforces live beside these (`fleet-schema.ts`, `reservation-schema.ts`);
 * a field added here must be added there too, and the CRD tests create objects through the
 * server so a drift shows up as a pruned or rejected field.
 *
 * @module
 */
import type { ObjectMeta } from '../../api/object.js';
import type { MetaCondition } from '../../api/policy/pdb-conditions.js';

export const CELLD_GROUP = 'celld.fleetyard.dev';
export const CELLD_VERSION = 'v1alpha1';
export const CELLD_API_VERSION = `${CELLD_GROUP}/${CELLD_VERSION}`;

export type FleetProfile = 'PersistentFleet' | 'Bucket';
/** How a Bucket fleet runs: a Deployment, or a StatefulSet with ordinal zone assignment. */
export type BucketWorkload = 'Deployment' | 'Ordered';
export type PlacementMode = 'Strict' | 'Relaxed';

export interface MaintenanceSpec {
  /** Stops workload writes and self-healing. */
  paused?: boolean;
  /** A new value rolls every member (written to the Pod template annotation). */
  restartToken?: string;
}

export interface StorageEndpoint {
  /** `http://` or `https://` URL of an S3-compatible store. */
  url: string;
  /** Secret in the fleet's namespace with keys `accessKeyId` and `secretAccessKey`. */
  credentialsSecretName: string;
}

export interface StorageSpec {
  /** Permanently reserved to this fleet (see CelldStorageReservation). */
  bucket: string;
  region: string;
  endpoint?: StorageEndpoint;
  /** Required for PersistentFleet, forbidden for Bucket. */
  storageClassName?: string;
  /** PVC size (PersistentFleet) or emptyDir limit (Bucket). @default 10 */
  sizeGiB?: number;
}

export interface PlacementSpec {
  /** The zones members may run in, 1–6, each listed once. */
  zones: string[];
  /** @default 'Strict' */
  mode?: PlacementMode;
}

export interface ExecutionSpec {
  /** @default '250m' */
  cpuRequest?: string;
  cpuLimit?: string;
  /** @default '512Mi' */
  memoryRequest?: string;
  /** @default '1Gi' */
  memoryLimit?: string;
  /** → `CELLD_MAX_RESIDENT_CELLS` */
  maxResidentCells?: number;
  /** → `CELLD_IDLE_EVICT_S` */
  idleEvictSeconds?: number;
}

export interface LifecycleSpec {
  /** → `CELLD_SHUTDOWN_TOTAL_MS`. @default 20 */
  shutdownSeconds?: number;
  /** Pod termination grace; at least shutdownSeconds + 5. @default 30 */
  terminationGraceSeconds?: number;
}

export interface SecretKeySelector {
  name: string;
  key: string;
}

/** A user variable: exactly one of `value` and `secretKeyRef`. */
export interface EnvVar {
  name: string;
  value?: string;
  secretKeyRef?: SecretKeySelector;
}

export interface CelldFleetSpec {
  profile: FleetProfile;
  /** Bucket only; absent means Deployment. */
  bucketWorkload?: BucketWorkload;
  /** @default 3 */
  replicas?: number;
  /** Digest-pinned celld image. */
  runtimeImage: string;
  maintenance?: MaintenanceSpec;
  serviceAccountName: string;
  storage: StorageSpec;
  placement: PlacementSpec;
  execution?: ExecutionSpec;
  lifecycle?: LifecycleSpec;
  env?: EnvVar[];
}

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
 * The reasons `Ready`, `Progressing` and `Blocked` carry (§1.1 of the spec), minus the
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
export type FleetState = 'Ready' | 'Progressing' | 'Blocked' | 'Paused' | 'Deleting';
export const FLEET_STATES: readonly FleetState[] = [
  'Ready',
  'Progressing',
  'Blocked',
  'Paused',
  'Deleting',
];

/** A `metav1.Condition`. */
export type Condition = MetaCondition;

export type ClaimPhase = 'Pending' | 'Bound' | 'Lost';

/** One row of the per-member table (improvement over the Go operator, §8). */
export interface FleetMemberStatus {
  /** The Pod name: the row's key. */
  pod: string;
  /** StatefulSet ordinal; absent for Deployment-backed Bucket fleets. */
  ordinal?: number;
  ready: boolean;
  node?: string;
  zone?: string;
  claim?: string;
  claimPhase?: ClaimPhase;
  /** When the member last stopped being Ready (RFC 3339). */
  downSince?: string;
  /** When the operator will replace the member's disk if it stays down (RFC 3339). */
  replacementDue?: string;
  /** Why a down member is not (yet) replaced. */
  note?: string;
}

export interface CelldFleetStatus {
  replicas?: number;
  readyReplicas?: number;
  labelSelector?: string;
  observedGeneration?: number;
  state?: FleetState;
  /** Name of the fleet's CelldStorageReservation. */
  reservation?: string;
  conditions?: Condition[];
  /** When the current continuous Blocked state began (RFC 3339). */
  blockedSince?: string;
  members?: FleetMemberStatus[];
}

export interface CelldFleet {
  apiVersion: typeof CELLD_API_VERSION;
  kind: 'CelldFleet';
  metadata: ObjectMeta;
  spec: CelldFleetSpec;
  status?: CelldFleetStatus;
}

export interface CelldStorageReservationSpec {
  bucket: string;
  fleetNamespace: string;
  fleetName: string;
  fleetUID: string;
  /** Fingerprint of the fleet's immutable settings. */
  specHash: string;
  /** The replica count the hash was computed with. */
  initialReplicas: number;
  /** The custom endpoint URL, when the fleet has one: a bucket name is only unique per store. */
  endpoint?: string;
}

export interface CelldStorageReservation {
  apiVersion: typeof CELLD_API_VERSION;
  kind: 'CelldStorageReservation';
  metadata: ObjectMeta;
  spec: CelldStorageReservationSpec;
}
