/**
 * A simulated CSI provisioner (external-provisioner in front of a driver): the PV it creates
 * for a claim, or the failure it reports.
 *
 * Two drivers are modelled:
 * - `hostpath.csi.k8s.io`, node-local: the volume lives on the selected node; capacity is the
 *   request as is; node affinity `kubernetes.io/hostname In [<node>]` (the real driver uses
 *   its own key `topology.hostpath.csi/node`, which simulated nodes do not carry);
 * - `ebs.csi.aws.com`, zonal: capacity rounded up to whole GiB (minimum 1Gi); node affinity
 *   `topology.kubernetes.io/zone In [<zone>]`, the key current driver versions return in
 *   CreateVolume's accessible topology (older ones used `topology.ebs.csi.aws.com/zone`).
 *
 * The PV is named `pvc-<claim uid>`, pre-bound to the claim (claimRef with uid, so the PV
 * controller binds it even under WaitForFirstConsumer), annotated
 * `pv.kubernetes.io/provisioned-by`, and carries
 * `external-provisioner.volume.kubernetes.io/finalizer` when its reclaim policy is Delete.
 * Failures use external-provisioner's texts: `failed to provision volume with StorageClass
 * "<class>": <error>`; a node outside `allowedTopologies` is its `selected node '"<node>"'
 * topology '[{<key> <value>}]' is not in allowed topologies: [...]`.
 *
 * @module
 */
import type {
  CSIPersistentVolumeSource,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeSpec,
  StorageClass,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { formatQuantity } from '../../api/validation/quantity.js';
import { nodeLabels } from '../../controllers/persistentvolume/node-affinity.js';
import {
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  annotation,
  claimClassName,
  claimKey,
  EVENT_REASONS,
  FINALIZER_EXTERNAL_PROVISIONER,
  isWaitForFirstConsumer,
  nameOf,
  type PlannedEvent,
  referenceTo,
  requestedBytes,
} from '../../controllers/persistentvolume/volume-util.js';

/** A driver's topology and sizing. */
export interface DriverModel {
  readonly name: string;
  readonly scope: 'node' | 'zone';
  /** The node label the PV's affinity names. */
  readonly topologyKey: string;
  /** Capacity granularity in bytes (1 keeps the request). */
  readonly granularityBytes: bigint;
  readonly minBytes: bigint;
}

const GI = 1024n ** 3n;

export const HOSTPATH_DRIVER: DriverModel = {
  name: 'hostpath.csi.k8s.io',
  scope: 'node',
  topologyKey: 'kubernetes.io/hostname',
  granularityBytes: 1n,
  minBytes: 1n,
};

export const EBS_DRIVER: DriverModel = {
  name: 'ebs.csi.aws.com',
  scope: 'zone',
  topologyKey: 'topology.kubernetes.io/zone',
  granularityBytes: GI,
  minBytes: GI,
};

export interface ProvisionOptions {
  /** Zones whose provisioner fails every request (fault injection). */
  readonly failingZones?: ReadonlySet<string>;
  /** Candidate zones/nodes for Immediate binding (no selected node), e.g. the nodes' values. */
  readonly candidates?: readonly string[];
}

export type ProvisionResult =
  | {
      readonly ok: true;
      readonly volume: PersistentVolume;
      readonly bytes: bigint;
      readonly domain: string;
      readonly events: readonly PlannedEvent[];
    }
  | {
      readonly ok: false;
      readonly message: string;
      /** WaitForFirstConsumer: drop the selected-node annotation so the pod is rescheduled. */
      readonly reschedule: boolean;
      readonly events: readonly PlannedEvent[];
    };

/** Upstream `shouldProvision`: the claim waits for this driver and (WFFC) has a node. */
export function shouldProvision(
  claim: PersistentVolumeClaim,
  sc: StorageClass,
  driver: string,
): boolean {
  if ((claim.spec?.volumeName ?? '') !== '') return false;
  if (annotation(claim, ANN_STORAGE_PROVISIONER) !== driver) return false;
  return !isWaitForFirstConsumer(sc) || annotation(claim, ANN_SELECTED_NODE) !== undefined;
}

/** The capacity the driver creates for a request. */
export function roundedCapacity(driver: DriverModel, requested: bigint): bigint {
  const g = driver.granularityBytes;
  const rounded = ((requested + g - 1n) / g) * g;
  return rounded < driver.minBytes ? driver.minBytes : rounded;
}

interface TopologyTerm {
  key: string;
  values: string[];
}

function allowedTerms(sc: StorageClass): TopologyTerm[][] {
  return (sc.allowedTopologies ?? []).map((t) =>
    (t.matchLabelExpressions ?? []).map((e) => ({ key: e.key ?? '', values: e.values ?? [] })),
  );
}

/** external-provisioner's `flatten`: every combination of one value per expression. */
function flatten(terms: TopologyTerm[][]): { key: string; value: string }[][] {
  const out: { key: string; value: string }[][] = [];
  for (const term of terms) {
    let combos: { key: string; value: string }[][] = [[]];
    for (const e of term) {
      combos = combos.flatMap((c) => e.values.map((value) => [...c, { key: e.key, value }]));
    }
    out.push(...combos);
  }
  return out;
}

const fmtTerm = (t: { key: string; value: string }[]) =>
  `[${t.map((s) => `{${s.key} ${s.value}}`).join(' ')}]`;

function chooseDomain(
  claim: PersistentVolumeClaim,
  sc: StorageClass,
  driver: DriverModel,
  node: Node | undefined,
  options: ProvisionOptions,
): { domain: string } | { error: string } {
  const allowed = flatten(allowedTerms(sc));
  if (node !== undefined) {
    const value = nodeLabels(node)[driver.topologyKey];
    if (value === undefined)
      return { error: `node is missing topology keys [${driver.topologyKey}]` };
    const mine = [{ key: driver.topologyKey, value }];
    const fits = allowed.some((t) =>
      t.every((s) => s.key === driver.topologyKey && s.value === value),
    );
    if (allowed.length > 0 && !fits) {
      return {
        error: `selected node '"${nameOf(node)}"' topology '${fmtTerm(mine)}' is not in allowed topologies: [${allowed.map(fmtTerm).join(' ')}]`,
      };
    }
    return { domain: value };
  }
  const fromClass = allowed.flatMap((t) =>
    t.filter((s) => s.key === driver.topologyKey).map((s) => s.value),
  );
  const pool = [...new Set(fromClass.length > 0 ? fromClass : (options.candidates ?? []))].sort();
  if (pool.length === 0) return { error: 'no available topology found' };
  // external-provisioner spreads claims by a hash of their name; a stable one here.
  let h = 0;
  for (const ch of nameOf(claim)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return { domain: pool[h % pool.length] ?? '' };
}

function failure(
  claim: PersistentVolumeClaim,
  sc: StorageClass,
  err: string,
  wffc: boolean,
): ProvisionResult {
  const message = `failed to provision volume with StorageClass "${nameOf(sc)}": ${err}`;
  return {
    ok: false,
    message,
    reschedule: wffc,
    events: [
      provisioningEvent(claim),
      { on: 'claim', type: 'Warning', reason: EVENT_REASONS.provisioningFailed, message },
    ],
  };
}

function provisioningEvent(claim: KubeObject): PlannedEvent {
  return {
    on: 'claim',
    type: 'Normal',
    reason: EVENT_REASONS.provisioning,
    message: `External provisioner is provisioning volume for claim "${claimKey(claim)}"`,
  };
}

/**
 * Provisions a volume for `claim` in `selectedNode`'s domain (or, for Immediate binding, one
 * chosen from the class's allowed topologies or `options.candidates`). `capacityByZone` holds
 * the remaining bytes per zone (or node, for node-local drivers); a domain absent from it is
 * unlimited.
 */
export function provision(
  claim: PersistentVolumeClaim,
  sc: StorageClass,
  selectedNode: Node | undefined,
  driver: DriverModel,
  capacityByZone: ReadonlyMap<string, bigint>,
  options: ProvisionOptions = {},
): ProvisionResult {
  const wffc = isWaitForFirstConsumer(sc);
  const chosen = chooseDomain(claim, sc, driver, selectedNode, options);
  if ('error' in chosen) return failure(claim, sc, chosen.error, wffc);
  const { domain } = chosen;
  const bytes = roundedCapacity(driver, requestedBytes(claim));
  if (options.failingZones?.has(domain) === true) {
    return failure(
      claim,
      sc,
      `rpc error: code = Internal desc = provisioner in ${domain} is unavailable`,
      wffc,
    );
  }
  const left = capacityByZone.get(domain);
  if (left !== undefined && left < bytes) {
    const err = `rpc error: code = ResourceExhausted desc = insufficient capacity in ${domain}: requested ${bytes} bytes, ${left} available`;
    return failure(claim, sc, err, wffc);
  }
  const volume = volumeFor(claim, sc, driver, domain, bytes);
  const succeeded: PlannedEvent = {
    on: 'claim',
    type: 'Normal',
    reason: EVENT_REASONS.provisioningSucceeded,
    message: `Successfully provisioned volume ${nameOf(volume)}`,
  };
  return { ok: true, volume, bytes, domain, events: [provisioningEvent(claim), succeeded] };
}

function volumeHandle(driver: DriverModel, uid: string): string {
  const hex = uid.replace(/[^0-9a-f]/g, '').padEnd(17, '0');
  return driver.scope === 'zone' ? `vol-${hex.slice(0, 17)}` : uid;
}

function volumeFor(
  claim: PersistentVolumeClaim,
  sc: StorageClass,
  driver: DriverModel,
  domain: string,
  bytes: bigint,
): PersistentVolume {
  const uid = claim.metadata?.uid ?? '';
  const policy = typeof sc.reclaimPolicy === 'string' ? sc.reclaimPolicy : 'Delete';
  const params = sc.parameters ?? {};
  const fsType = params['csi.storage.k8s.io/fstype'];
  const csi: CSIPersistentVolumeSource = {
    driver: driver.name,
    volumeHandle: volumeHandle(driver, uid),
  };
  if (fsType !== undefined) csi.fsType = fsType;
  const spec: PersistentVolumeSpec = {
    accessModes: claim.spec?.accessModes,
    capacity: { storage: formatQuantity({ nanos: bytes * 1_000_000_000n, format: 'BinarySI' }) },
    claimRef: referenceTo(claim),
    csi,
    persistentVolumeReclaimPolicy: policy,
    storageClassName: claimClassName(claim),
    volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
    nodeAffinity: {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: driver.topologyKey, operator: 'In', values: [domain] }] },
        ],
      },
    },
  };
  if (Array.isArray(sc.mountOptions)) spec.mountOptions = sc.mountOptions;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: `pvc-${uid}`,
      annotations: { [ANN_DYNAMICALLY_PROVISIONED]: driver.name },
      finalizers: policy === 'Delete' ? [FINALIZER_EXTERNAL_PROVISIONER] : [],
    },
    spec,
  };
}
