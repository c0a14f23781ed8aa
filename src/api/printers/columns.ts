/**
 * Column definitions of the built-in printers, as upstream `printers.go` `AddHandlers`
 * declares them (names, types, formats, priorities, descriptions).
 *
 * @module
 */
import { FIELD_DOCS, type FieldDocKey } from './descriptions.js';
import type { TableColumnDefinition } from './types.js';

interface ColumnOptions {
  readonly format?: string;
  readonly priority?: number;
}

/** A column whose description is a field's documentation (`FIELD_DOCS` key) or literal text. */
export function column(
  name: string,
  type: string,
  description: FieldDocKey | { readonly text: string },
  opts: ColumnOptions = {},
): TableColumnDefinition {
  return {
    name,
    type,
    format: opts.format ?? '',
    description: typeof description === 'string' ? FIELD_DOCS[description] : description.text,
    priority: opts.priority ?? 0,
  };
}

const text = (t: string) => ({ text: t });
const WIDE = { priority: 1 };

export const NAME = column('Name', 'string', 'ObjectMeta.name', { format: 'name' });
export const AGE = column('Age', 'string', 'ObjectMeta.creationTimestamp');
const CONTAINERS = column(
  'Containers',
  'string',
  text('Names of each container in the template.'),
  WIDE,
);
const IMAGES = column(
  'Images',
  'string',
  text('Images referenced by each container in the template.'),
  WIDE,
);

export const POD_COLUMNS = [
  NAME,
  column(
    'Ready',
    'string',
    text('The aggregate readiness state of this pod for accepting traffic.'),
  ),
  column('Status', 'string', text('The aggregate status of the containers in this pod.')),
  column(
    'Restarts',
    'string',
    text(
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
  ),
  AGE,
  column('IP', 'string', 'PodStatus.podIP', WIDE),
  column('Node', 'string', 'PodSpec.nodeName', WIDE),
  column('Nominated Node', 'string', 'PodStatus.nominatedNodeName', WIDE),
  column('Readiness Gates', 'string', 'PodSpec.readinessGates', WIDE),
];

export const DEPLOYMENT_COLUMNS = [
  NAME,
  column('Ready', 'string', text('Number of the pod with ready state')),
  column('Up-to-date', 'string', 'DeploymentStatus.updatedReplicas'),
  column('Available', 'string', 'DeploymentStatus.availableReplicas'),
  AGE,
  CONTAINERS,
  IMAGES,
  column('Selector', 'string', 'DeploymentSpec.selector', WIDE),
];

export const REPLICA_SET_COLUMNS = [
  NAME,
  column('Desired', 'integer', 'ReplicaSetSpec.replicas'),
  column('Current', 'integer', 'ReplicaSetStatus.replicas'),
  column('Ready', 'integer', 'ReplicaSetStatus.readyReplicas'),
  AGE,
  CONTAINERS,
  IMAGES,
  column('Selector', 'string', 'ReplicaSetSpec.selector', WIDE),
];

export const STATEFUL_SET_COLUMNS = [
  NAME,
  column('Ready', 'string', text('Number of the pod with ready state')),
  AGE,
  CONTAINERS,
  IMAGES,
];

export const CONTROLLER_REVISION_COLUMNS = [
  NAME,
  column('Controller', 'string', text('Controller of the object')),
  column('Revision', 'string', 'ControllerRevision.revision'),
  AGE,
];

export const SERVICE_COLUMNS = [
  NAME,
  column('Type', 'string', 'ServiceSpec.type'),
  column('Cluster-IP', 'string', 'ServiceSpec.clusterIP'),
  column('External-IP', 'string', 'ServiceSpec.externalIPs'),
  column('Port(s)', 'string', 'ServiceSpec.ports'),
  AGE,
  column('Selector', 'string', 'ServiceSpec.selector', WIDE),
];

export const ENDPOINTS_COLUMNS = [NAME, column('Endpoints', 'string', 'Endpoints.subsets'), AGE];

export const NODE_COLUMNS = [
  NAME,
  column('Status', 'string', text('The status of the node')),
  column('Roles', 'string', text('The roles of the node')),
  AGE,
  column('Version', 'string', 'NodeSystemInfo.kubeletVersion'),
  column('Internal-IP', 'string', 'NodeStatus.addresses', WIDE),
  column('External-IP', 'string', 'NodeStatus.addresses', WIDE),
  column('OS-Image', 'string', 'NodeSystemInfo.osImage', WIDE),
  column('Kernel-Version', 'string', 'NodeSystemInfo.kernelVersion', WIDE),
  column('Container-Runtime', 'string', 'NodeSystemInfo.containerRuntimeVersion', WIDE),
];

export const EVENT_COLUMNS = [
  column('Last Seen', 'string', 'Event.lastTimestamp'),
  column('Type', 'string', 'Event.type'),
  column('Reason', 'string', 'Event.reason'),
  column('Object', 'string', 'Event.involvedObject'),
  column('Subobject', 'string', 'ObjectReference.fieldPath', WIDE),
  column('Source', 'string', 'Event.source', WIDE),
  column('Message', 'string', 'Event.message'),
  column('First Seen', 'string', 'Event.firstTimestamp', WIDE),
  column('Count', 'string', 'Event.count', WIDE),
  column('Name', 'string', 'ObjectMeta.name', { format: 'name', priority: 1 }),
];

export const NAMESPACE_COLUMNS = [
  NAME,
  column('Status', 'string', text('The status of the namespace')),
  AGE,
];

export const SECRET_COLUMNS = [
  NAME,
  column('Type', 'string', 'Secret.type'),
  column('Data', 'string', 'Secret.data'),
  AGE,
];

export const SERVICE_ACCOUNT_COLUMNS = [
  NAME,
  column('Secrets', 'string', 'ServiceAccount.secrets'),
  AGE,
];

export const PERSISTENT_VOLUME_COLUMNS = [
  NAME,
  column('Capacity', 'string', 'PersistentVolumeSpec.capacity'),
  column('Access Modes', 'string', 'PersistentVolumeSpec.accessModes'),
  column('Reclaim Policy', 'string', 'PersistentVolumeSpec.persistentVolumeReclaimPolicy'),
  column('Status', 'string', 'PersistentVolumeStatus.phase'),
  column('Claim', 'string', 'PersistentVolumeSpec.claimRef'),
  column('StorageClass', 'string', text('StorageClass of the pv')),
  column('VolumeAttributesClass', 'string', text('VolumeAttributesClass of the pv')),
  column('Reason', 'string', 'PersistentVolumeStatus.reason'),
  AGE,
  column('VolumeMode', 'string', 'PersistentVolumeSpec.volumeMode', WIDE),
];

export const PERSISTENT_VOLUME_CLAIM_COLUMNS = [
  NAME,
  column('Status', 'string', 'PersistentVolumeClaimStatus.phase'),
  column('Volume', 'string', 'PersistentVolumeClaimSpec.volumeName'),
  column('Capacity', 'string', 'PersistentVolumeClaimStatus.capacity'),
  column('Access Modes', 'string', 'PersistentVolumeClaimStatus.accessModes'),
  column('StorageClass', 'string', text('StorageClass of the pvc')),
  column('VolumeAttributesClass', 'string', text('VolumeAttributesClass of the pvc')),
  AGE,
  column('VolumeMode', 'string', 'PersistentVolumeClaimSpec.volumeMode', WIDE),
];

export const CONFIG_MAP_COLUMNS = [NAME, column('Data', 'string', 'ConfigMap.data'), AGE];

export const NETWORK_POLICY_COLUMNS = [
  NAME,
  column('Pod-Selector', 'string', 'NetworkPolicySpec.podSelector'),
  AGE,
];

export const LEASE_COLUMNS = [NAME, column('Holder', 'string', 'LeaseSpec.holderIdentity'), AGE];

export const STORAGE_CLASS_COLUMNS = [
  NAME,
  column('Provisioner', 'string', 'StorageClass.provisioner'),
  column('ReclaimPolicy', 'string', 'StorageClass.reclaimPolicy'),
  column('VolumeBindingMode', 'string', 'StorageClass.volumeBindingMode'),
  column('AllowVolumeExpansion', 'string', 'StorageClass.allowVolumeExpansion'),
  AGE,
];

export const POD_DISRUPTION_BUDGET_COLUMNS = [
  NAME,
  column('Min Available', 'string', text('The minimum number of pods that must be available.')),
  column('Max Unavailable', 'string', text('The maximum number of pods that may be unavailable.')),
  column(
    'Allowed Disruptions',
    'integer',
    text('Calculated number of pods that may be disrupted at this time.'),
  ),
  AGE,
];

/** printScale: note its Name column has no `name` format upstream. */
export const SCALE_COLUMNS = [
  column('Name', 'string', 'ObjectMeta.name'),
  column('Desired', 'integer', 'ScaleSpec.replicas'),
  column('Available', 'integer', 'ScaleStatus.replicas'),
  AGE,
];

/** The default table (`rest.NewDefaultTableConvertor`): kinds without a printer. */
export const DEFAULT_COLUMNS = [NAME, column('Created At', 'date', 'ObjectMeta.creationTimestamp')];

/** Upstream `resourceQuotaColumnDefinitions`: used/hard per resource, limits.* apart. */
export const RESOURCE_QUOTA_COLUMNS = [
  NAME,
  AGE,
  column(
    'Request',
    'string',
    text('Request represents a minimum amount of cpu/memory that a container may consume.'),
  ),
  column(
    'Limit',
    'string',
    text(
      'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
    ),
  ),
];
