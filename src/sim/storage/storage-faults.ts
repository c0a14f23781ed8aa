/**
 * Storage faults and capacity of the simulated CSI provisioners, set through the API: one
 * ConfigMap `kube-system/fleetyard-storage` that the provisioners watch. Its keys are read on
 * every provisioning attempt, so editing them takes effect at the next attempt (claims waiting
 * on a failure are retried with backoff; a change of the ConfigMap retries them at once). An
 * absent ConfigMap or key means no fault and unlimited capacity; an unparsable quantity is
 * ignored, like an absent one.
 *
 * | Key             | Value                         | Driver                | Effect |
 * |-----------------|-------------------------------|-----------------------|--------|
 * | `failing-zones` | comma list of zones           | `ebs.csi.aws.com`     | Every CreateVolume in these zones fails: `ProvisioningFailed` (Warning); a WaitForFirstConsumer claim loses `volume.kubernetes.io/selected-node`, so the scheduler picks again. |
 * | `failing-nodes` | comma list of node names      | `hostpath.csi.k8s.io` | The same for volumes on these nodes. |
 * | `zone-capacity` | quantity (`50Gi`), per zone   | `ebs.csi.aws.com`     | A zone holds at most this much provisioned PV capacity; a request beyond it fails with `ResourceExhausted`. |
 * | `node-capacity` | quantity, per node            | `hostpath.csi.k8s.io` | The same per node. |
 *
 * Losing a volume needs no key: delete the PV, then strip its finalizers
 * (`fleetyard chaos`); the PV controller then marks the bound claim Lost (`ClaimLost`).
 *
 * @module
 */
import { asKind } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { parseQuantity } from '../../api/validation/quantity.js';

export const STORAGE_FAULTS_NAMESPACE = 'kube-system';
export const STORAGE_FAULTS_NAME = 'fleetyard-storage';
/** The ConfigMap's namespace and name, to spread into an object ref. */
export const STORAGE_FAULTS_CONFIGMAP = {
  namespace: STORAGE_FAULTS_NAMESPACE,
  name: STORAGE_FAULTS_NAME,
} as const;
export const FAILING_ZONES_KEY = 'failing-zones';
export const FAILING_NODES_KEY = 'failing-nodes';
export const ZONE_CAPACITY_KEY = 'zone-capacity';
export const NODE_CAPACITY_KEY = 'node-capacity';

/** The parsed ConfigMap. Capacities in bytes; undefined means unlimited. */
export interface StorageFaults {
  readonly failingZones: ReadonlySet<string>;
  readonly failingNodes: ReadonlySet<string>;
  readonly zoneCapacity?: bigint;
  readonly nodeCapacity?: bigint;
}

function list(value: string | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

function bytes(value: string | undefined): bigint | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const r = parseQuantity(value.trim());
  if (!r.ok || r.quantity.nanos < 0n) return undefined;
  // Whole bytes, rounded up (Quantity.Value()).
  return (r.quantity.nanos + 999_999_999n) / 1_000_000_000n;
}

/** The faults a ConfigMap (or its absence) describes. */
export function parseStorageFaults(configMap: KubeObject | undefined): StorageFaults {
  const data = configMap === undefined ? {} : (asKind(configMap, 'ConfigMap').data ?? {});
  const zoneCapacity = bytes(data[ZONE_CAPACITY_KEY]);
  const nodeCapacity = bytes(data[NODE_CAPACITY_KEY]);
  return {
    failingZones: list(data[FAILING_ZONES_KEY]),
    failingNodes: list(data[FAILING_NODES_KEY]),
    ...(zoneCapacity === undefined ? {} : { zoneCapacity }),
    ...(nodeCapacity === undefined ? {} : { nodeCapacity }),
  };
}
