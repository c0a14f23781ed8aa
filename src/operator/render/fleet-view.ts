/**
 * The fleet as the renderers see it: a narrow, read-only view of a `CelldFleet`, plus the
 * defaults of §1.1 resolved in one place so every renderer agrees on them.
 *
 * The view is declared here rather than imported from `src/operator/api/` so that rendering
 * stays a leaf module with no dependency on the CRD's generated types; a `CelldFleet`
 * object is structurally assignable to it (`metadata.{name,namespace,uid,generation}` and
 * the `spec` fields below, same names and shapes).
 *
 * @module
 */

/** Where a NetworkPolicy egress rule may go: a CIDR, or Pods by label (optionally in another namespace). */
export interface EgressTargetView {
  readonly cidr?: string;
  readonly podLabels?: Readonly<Record<string, string>>;
  readonly namespace?: string;
}

/** One user `env[]` entry: exactly one of `value` or `secretKeyRef` (the CRD enforces it). */
export interface FleetEnvVarView {
  readonly name: string;
  readonly value?: string;
  readonly secretKeyRef?: {
    readonly name: string;
    readonly key: string;
    readonly optional?: boolean;
  };
}

/** `spec` of a CelldFleet, only the fields rendering reads. */
export interface FleetSpecFields {
  readonly profile: 'PersistentFleet' | 'Bucket';
  readonly bucketWorkload?: 'Deployment' | 'Ordered';
  readonly replicas?: number;
  /** Required to render: the reconciler reports a missing image before it renders. */
  readonly runtimeImage: string;
  readonly maintenance?: { readonly paused?: boolean; readonly restartToken?: string };
  readonly serviceAccountName?: string;
  readonly storage: {
    readonly bucket: string;
    readonly region: string;
    readonly endpoint?: {
      readonly url: string;
      readonly credentialsSecretName: string;
      readonly egress?: EgressTargetView;
    };
    readonly storageClassName?: string;
    readonly sizeGiB?: number;
  };
  readonly placement: { readonly zones: readonly string[]; readonly mode?: 'Strict' | 'Relaxed' };
  readonly execution?: {
    readonly cpuRequest?: string;
    readonly cpuLimit?: string;
    readonly memoryRequest?: string;
    readonly memoryLimit?: string;
    readonly maxResidentCells?: number;
    readonly idleEvictSeconds?: number;
  };
  readonly lifecycle?: {
    readonly shutdownSeconds?: number;
    readonly terminationGraceSeconds?: number;
  };
  readonly env?: readonly FleetEnvVarView[];
}

/** The fleet object as rendering needs it. */
export interface FleetSpecView {
  readonly metadata: {
    readonly name: string;
    readonly namespace: string;
    readonly uid: string;
    readonly generation?: number;
  };
  readonly spec: FleetSpecFields;
}

/** Settings of the operator process (not of a fleet) that change what is rendered. */
export interface RenderOptions {
  /** Namespace of the operator's Pods, allowed to reach the peer port (status, shutdown). */
  readonly operatorNamespace: string;
}

export const DEFAULT_RENDER_OPTIONS: RenderOptions = { operatorNamespace: 'celld-system' };

/** The §1.1 defaults, resolved. */
export interface ResolvedFleet {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly spec: FleetSpecFields;
  readonly workload: 'PersistentFleet' | 'Deployment' | 'Ordered';
  readonly replicas: number;
  readonly mode: 'Strict' | 'Relaxed';
  readonly sizeGiB: number;
  readonly shutdownSeconds: number;
  readonly terminationGraceSeconds: number;
  readonly serviceAccountName: string;
}

export const DEFAULT_REPLICAS = 3;
export const DEFAULT_SIZE_GIB = 10;
export const DEFAULT_SHUTDOWN_SECONDS = 20;
export const DEFAULT_TERMINATION_GRACE_SECONDS = 30;

/** Applies the §1.1 defaults; the API server applies the same ones, this only guards views built by hand. */
export function resolveFleet(fleet: FleetSpecView): ResolvedFleet {
  const { spec, metadata } = fleet;
  const workload =
    spec.profile === 'PersistentFleet' ? 'PersistentFleet' : (spec.bucketWorkload ?? 'Deployment');
  return {
    name: metadata.name,
    namespace: metadata.namespace,
    uid: metadata.uid,
    spec,
    workload,
    replicas: spec.replicas ?? DEFAULT_REPLICAS,
    mode: spec.placement.mode ?? 'Strict',
    sizeGiB: spec.storage.sizeGiB ?? DEFAULT_SIZE_GIB,
    shutdownSeconds: spec.lifecycle?.shutdownSeconds ?? DEFAULT_SHUTDOWN_SECONDS,
    terminationGraceSeconds:
      spec.lifecycle?.terminationGraceSeconds ?? DEFAULT_TERMINATION_GRACE_SECONDS,
    // A fleet that names no account runs under one the operator creates with the fleet's name.
    serviceAccountName: spec.serviceAccountName ?? metadata.name,
  };
}
