/**
 * The celld API (celld.fleetyard.dev/v1alpha1), from the schemas its CRDs are built from.
 *
 * GENERATED from src/operator/api/fleet-schema.ts and reservation.ts by scripts/gen-api-types.ts:
 * do not edit. Regenerate the schemas and every src/api/model/*.generated.ts with
 *
 *     node --import tsx scripts/gen-builtin-schemas.ts
 *
 * or only the types (from the committed JSON and the celld schemas) with
 *
 *     node --import tsx scripts/gen-api-types.ts
 *
 * src/api/model/generated-fresh.test.ts fails when this file differs from the generator's output.
 *
 * Naming: each definition keeps its upstream short name (Pod, PodSpec, ObjectMeta). When two
 * share one, the core/v1 definition (else the apimachinery one) keeps it and the other is prefixed
 * with its group and version (events.k8s.io/v1 Event → EventsV1Event, discovery.k8s.io/v1
 * EndpointPort → DiscoveryV1EndpointPort); a name TypeScript already has is prefixed too
 * (apiextensions JSON → ApiextensionsV1JSON).
 *
 * Types: a property is optional unless upstream requires it; null is admitted only where
 * ObjectMeta receives it. int32/int64 → number: int64 values beyond 2^53 arrive as bigint
 * (docs/adr/0012-int64-numbers.md), and only ControllerRevision.revision, the one the code does
 * bigint arithmetic on, is typed number | bigint. Quantity, Time and MicroTime → string;
 * IntOrString → number | string; opaque JSON (RawExtension, FieldsV1) → { [key: string]: unknown }.
 * A kind's apiVersion and kind are its literals, so a KubeObject needs isKind/asKind
 * (src/api/model/index.ts) to become one.
 *
 * @module
 */

import type { ObjectMeta } from './meta.generated.js';

export type CelldFleet = {
  apiVersion?: 'celld.fleetyard.dev/v1alpha1';
  kind?: 'CelldFleet';
  metadata?: ObjectMeta;
  spec: CelldFleetSpec;
  status?: CelldFleetStatus;
};

export type CelldFleetSpec = {
  /** Durability profile. */
  profile: 'PersistentFleet' | 'Bucket';
  /** Bucket only; absent means Deployment. */
  bucketWorkload?: 'Deployment' | 'Ordered';
  /** @default 3 */
  replicas?: number;
  /** Digest-pinned. */
  runtimeImage: string;
  maintenance?: CelldMaintenanceSpec;
  serviceAccountName: string;
  storage: CelldStorageSpec;
  placement: CelldPlacementSpec;
  /** @default {} */
  execution?: CelldExecutionSpec;
  /** @default {"shutdownSeconds":20,"terminationGraceSeconds":30} */
  lifecycle?: CelldLifecycleSpec;
  env?: CelldEnvVar[];
};

export type CelldMaintenanceSpec = {
  /** Stops workload writes and self-healing. */
  paused?: boolean;
  /** A new value rolls every member. */
  restartToken?: string;
};

export type CelldStorageSpec = {
  /** S3 bucket; permanently reserved to this fleet. */
  bucket: string;
  region: string;
  /** S3-compatible store. */
  endpoint?: CelldStorageEndpoint;
  /** PersistentFleet only: class of the members’ retained claims. */
  storageClassName?: string;
  /**
   * PVC size (PersistentFleet) or emptyDir limit (Bucket).
   *
   * @default 10
   */
  sizeGiB?: number;
};

/** S3-compatible store. */
export type CelldStorageEndpoint = {
  url: string;
  /** Secret with keys accessKeyId and secretAccessKey. */
  credentialsSecretName: string;
};

export type CelldPlacementSpec = {
  zones: string[];
  /** @default "Strict" */
  mode?: 'Strict' | 'Relaxed';
};

export type CelldExecutionSpec = {
  /**
   * CPU request.
   *
   * @default "250m"
   */
  cpuRequest?: string;
  /** CPU limit; none by default. */
  cpuLimit?: string;
  /**
   * Memory request.
   *
   * @default "512Mi"
   */
  memoryRequest?: string;
  /**
   * Memory limit.
   *
   * @default "1Gi"
   */
  memoryLimit?: string;
  /** CELLD_MAX_RESIDENT_CELLS */
  maxResidentCells?: number;
  /** CELLD_IDLE_EVICT_S */
  idleEvictSeconds?: number;
};

export type CelldLifecycleSpec = {
  /** @default 20 */
  shutdownSeconds?: number;
  /** @default 30 */
  terminationGraceSeconds?: number;
};

export type CelldEnvVar = {
  name: string;
  value?: string;
  secretKeyRef?: CelldSecretKeySelector;
};

export type CelldSecretKeySelector = {
  name: string;
  key: string;
};

export type CelldFleetStatus = {
  replicas?: number;
  readyReplicas?: number;
  labelSelector?: string;
  observedGeneration?: number;
  /** One-word summary of the conditions. */
  state?: 'Ready' | 'Progressing' | 'Blocked' | 'Paused' | 'Deleting';
  reservation?: string;
  conditions?: CelldCondition[];
  blockedSince?: string;
  members?: CelldFleetMemberStatus[];
};

export type CelldCondition = {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
};

export type CelldFleetMemberStatus = {
  pod: string;
  ordinal?: number;
  ready: boolean;
  node?: string;
  zone?: string;
  claim?: string;
  claimPhase?: 'Pending' | 'Bound' | 'Lost';
  downSince?: string;
  replacementDue?: string;
  /** Why a down member is not (yet) replaced. */
  note?: string;
};

export type CelldStorageReservation = {
  apiVersion?: 'celld.fleetyard.dev/v1alpha1';
  kind?: 'CelldStorageReservation';
  metadata?: ObjectMeta;
  spec: CelldStorageReservationSpec;
};

export type CelldStorageReservationSpec = {
  bucket: string;
  fleetNamespace: string;
  fleetName: string;
  fleetUID: string;
  /** Fingerprint of the fleet’s immutable settings. */
  specHash: string;
  initialReplicas: number;
  /** Custom S3 endpoint URL, if any. */
  endpoint?: string;
};

/** Each kind's type, by type name: what `isKind` and `asKind` narrow to. */
export type CelldKinds = {
  CelldFleet: CelldFleet;
  CelldStorageReservation: CelldStorageReservation;
};

/** Each kind's `kind` and the `apiVersion`s it is served at, by type name. */
export const CELLD_KINDS = {
  CelldFleet: { kind: 'CelldFleet', apiVersions: ['celld.fleetyard.dev/v1alpha1'] },
  CelldStorageReservation: {
    kind: 'CelldStorageReservation',
    apiVersions: ['celld.fleetyard.dev/v1alpha1'],
  },
} as const;
