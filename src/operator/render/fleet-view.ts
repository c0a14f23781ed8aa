/**
 * The fleet as the renderers see it: a narrow, read-only view of a `CelldFleet`, plus the
 * defaults of docs/design/operator-api.md §1.2 resolved in one place so every renderer agrees on
 * them.
 *
 * The view's spec is the generated `CelldFleetSpec` (`src/api/model/`), so a stored fleet's spec
 * is one as it is; it widens two things for views built by hand (tests, goldens): a fleet may
 * name no ServiceAccount (the operator then renders one with the fleet's name), and a custom
 * endpoint may say where its traffic goes (`egress`), which the CRD does not carry. The
 * defaults come from the CRD schema (`FLEET_DEFAULTS`), where they are written.
 *
 * @module
 */
import type {
  CelldEnvVar,
  CelldFleetSpec,
  CelldStorageEndpoint,
  CelldStorageSpec,
} from '../../api/model/index.js';
import { FLEET_DEFAULTS } from '../api/fleet-defaults.js';

/** Where a NetworkPolicy egress rule may go: a CIDR, or Pods by label (optionally in another namespace). */
export interface EgressTargetView {
  readonly cidr?: string;
  readonly podLabels?: Readonly<Record<string, string>>;
  readonly namespace?: string;
}

/**
 * One user `env[]` entry: exactly one of `value` or `secretKeyRef` (the CRD enforces it); a view
 * may mark its Secret key optional.
 */
export type FleetEnvVarView = Omit<CelldEnvVar, 'secretKeyRef'> & {
  readonly secretKeyRef?: NonNullable<CelldEnvVar['secretKeyRef']> & {
    readonly optional?: boolean;
  };
};

/** `spec` of a CelldFleet as rendering reads it (see the module note for what it widens). */
export type FleetSpecFields = Omit<CelldFleetSpec, 'serviceAccountName' | 'storage' | 'env'> & {
  readonly serviceAccountName?: string;
  readonly storage: Omit<CelldStorageSpec, 'endpoint'> & {
    readonly endpoint?: CelldStorageEndpoint & { readonly egress?: EgressTargetView };
  };
  readonly env?: readonly FleetEnvVarView[];
};

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

/** The defaults of docs/design/operator-api.md §1.2, resolved. */
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

/**
 * Applies the defaults of docs/design/operator-api.md §1.2; the API server applies the same
 * ones, this only guards views built by hand.
 */
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
    replicas: spec.replicas ?? FLEET_DEFAULTS.replicas,
    mode: spec.placement.mode ?? FLEET_DEFAULTS.placementMode,
    sizeGiB: spec.storage.sizeGiB ?? FLEET_DEFAULTS.sizeGiB,
    shutdownSeconds: spec.lifecycle?.shutdownSeconds ?? FLEET_DEFAULTS.shutdownSeconds,
    terminationGraceSeconds:
      spec.lifecycle?.terminationGraceSeconds ?? FLEET_DEFAULTS.terminationGraceSeconds,
    // A fleet that names no account runs under one the operator creates with the fleet's name.
    serviceAccountName: spec.serviceAccountName ?? metadata.name,
  };
}
