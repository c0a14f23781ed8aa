/**
 * Which printer serves which built-in kind, keyed by API group and kind as upstream's
 * `AddHandlers` registers them; kinds without one get the default table.
 *
 * @module
 */

import type { KubeObject } from '../object.js';
import { meta, nameOf } from './access.js';
import {
  CONFIG_MAP_COLUMNS,
  CONTROLLER_REVISION_COLUMNS,
  DEFAULT_COLUMNS,
  DEPLOYMENT_COLUMNS,
  ENDPOINTS_COLUMNS,
  EVENT_COLUMNS,
  LEASE_COLUMNS,
  NAMESPACE_COLUMNS,
  NETWORK_POLICY_COLUMNS,
  NODE_COLUMNS,
  PERSISTENT_VOLUME_CLAIM_COLUMNS,
  PERSISTENT_VOLUME_COLUMNS,
  POD_COLUMNS,
  POD_DISRUPTION_BUDGET_COLUMNS,
  REPLICA_SET_COLUMNS,
  RESOURCE_QUOTA_COLUMNS,
  SCALE_COLUMNS,
  SECRET_COLUMNS,
  SERVICE_ACCOUNT_COLUMNS,
  SERVICE_COLUMNS,
  STATEFUL_SET_COLUMNS,
  STORAGE_CLASS_COLUMNS,
} from './columns.js';
import { GO_ZERO_TIME, parseRfc3339 } from './duration.js';
import {
  printValidatingAdmissionPolicy,
  printValidatingAdmissionPolicyBinding,
  VALIDATING_ADMISSION_POLICY_BINDING_COLUMNS,
  VALIDATING_ADMISSION_POLICY_COLUMNS,
} from './print-admission-policy.js';
import {
  printWebhookConfiguration,
  WEBHOOK_CONFIGURATION_COLUMNS,
} from './print-admissionregistration.js';
import { HPA_COLUMNS, printHorizontalPodAutoscaler } from './print-autoscaling.js';
import {
  API_SERVICE_COLUMNS,
  COMPONENT_STATUS_COLUMNS,
  CSI_DRIVER_COLUMNS,
  CSI_NODE_COLUMNS,
  CSI_STORAGE_CAPACITY_COLUMNS,
  CSR_COLUMNS,
  FLOW_SCHEMA_COLUMNS,
  INGRESS_CLASS_COLUMNS,
  INGRESS_COLUMNS,
  IP_ADDRESS_COLUMNS,
  POD_TEMPLATE_COLUMNS,
  PRIORITY_LEVEL_COLUMNS,
  printAPIService,
  printCertificateSigningRequest,
  printComponentStatus,
  printCSIDriver,
  printCSINode,
  printCSIStorageCapacity,
  printFlowSchema,
  printIngress,
  printIngressClass,
  printIPAddress,
  printPodTemplate,
  printPriorityLevelConfiguration,
  printRuntimeClass,
  printServiceCIDR,
  printVolumeAttachment,
  RUNTIME_CLASS_COLUMNS,
  SERVICE_CIDR_COLUMNS,
  VOLUME_ATTACHMENT_COLUMNS,
} from './print-cluster-api.js';
import {
  printConfigMap,
  printEndpoints,
  printNamespace,
  printNode,
  printSecret,
  printService,
  printServiceAccount,
} from './print-core.js';
import { CRON_JOB_COLUMNS, printCronJob } from './print-cronjob.js';
import { DAEMON_SET_COLUMNS, printDaemonSet } from './print-daemonset.js';
import { ENDPOINT_SLICE_COLUMNS, printEndpointSlice } from './print-discovery.js';
import { JOB_COLUMNS, printJob } from './print-job.js';
import {
  printCoreEvent,
  printEventsApiEvent,
  printLease,
  printNetworkPolicy,
  printPodDisruptionBudget,
  printResourceQuota,
  printScale,
} from './print-misc.js';
import { printPod } from './print-pod.js';
import {
  printReplicationController,
  REPLICATION_CONTROLLER_COLUMNS,
} from './print-replicationcontroller.js';
import { PRIORITY_CLASS_COLUMNS, printPriorityClass } from './print-scheduling.js';
import {
  printPersistentVolume,
  printPersistentVolumeClaim,
  printStorageClass,
} from './print-storage.js';
import {
  printControllerRevision,
  printDeployment,
  printReplicaSet,
  printStatefulSet,
} from './print-workloads.js';
import { CLUSTER_ROLE_BINDING_COLUMNS, printRoleBinding, ROLE_BINDING_COLUMNS } from './rbac.js';
import type { KindPrinter, PrintedRow, TableColumnDefinition } from './types.js';

function printer(
  columns: readonly TableColumnDefinition[],
  row: (o: KubeObject, now: Date) => PrintedRow,
): KindPrinter {
  return { columns, row };
}

const PRINTERS: ReadonlyMap<string, KindPrinter> = new Map([
  ['/Pod', printer(POD_COLUMNS, printPod)],
  ['apps/Deployment', printer(DEPLOYMENT_COLUMNS, printDeployment)],
  ['apps/ReplicaSet', printer(REPLICA_SET_COLUMNS, printReplicaSet)],
  ['apps/StatefulSet', printer(STATEFUL_SET_COLUMNS, printStatefulSet)],
  ['apps/DaemonSet', printer(DAEMON_SET_COLUMNS, printDaemonSet)],
  ['apps/ControllerRevision', printer(CONTROLLER_REVISION_COLUMNS, printControllerRevision)],
  ['/ReplicationController', printer(REPLICATION_CONTROLLER_COLUMNS, printReplicationController)],
  ['autoscaling/HorizontalPodAutoscaler', printer(HPA_COLUMNS, printHorizontalPodAutoscaler)],
  ['batch/Job', printer(JOB_COLUMNS, printJob)],
  ['batch/CronJob', printer(CRON_JOB_COLUMNS, printCronJob)],
  ['/PersistentVolumeClaim', printer(PERSISTENT_VOLUME_CLAIM_COLUMNS, printPersistentVolumeClaim)],
  ['/PersistentVolume', printer(PERSISTENT_VOLUME_COLUMNS, printPersistentVolume)],
  ['storage.k8s.io/StorageClass', printer(STORAGE_CLASS_COLUMNS, printStorageClass)],
  ['/Node', printer(NODE_COLUMNS, printNode)],
  ['/Namespace', printer(NAMESPACE_COLUMNS, printNamespace)],
  ['/Service', printer(SERVICE_COLUMNS, printService)],
  ['/Endpoints', printer(ENDPOINTS_COLUMNS, printEndpoints)],
  ['discovery.k8s.io/EndpointSlice', printer(ENDPOINT_SLICE_COLUMNS, printEndpointSlice)],
  ['/Event', printer(EVENT_COLUMNS, printCoreEvent)],
  ['events.k8s.io/Event', printer(EVENT_COLUMNS, printEventsApiEvent)],
  ['/ConfigMap', printer(CONFIG_MAP_COLUMNS, printConfigMap)],
  ['/Secret', printer(SECRET_COLUMNS, printSecret)],
  ['/ResourceQuota', printer(RESOURCE_QUOTA_COLUMNS, printResourceQuota)],
  ['/ServiceAccount', printer(SERVICE_ACCOUNT_COLUMNS, printServiceAccount)],
  ['coordination.k8s.io/Lease', printer(LEASE_COLUMNS, printLease)],
  ['policy/PodDisruptionBudget', printer(POD_DISRUPTION_BUDGET_COLUMNS, printPodDisruptionBudget)],
  ['networking.k8s.io/NetworkPolicy', printer(NETWORK_POLICY_COLUMNS, printNetworkPolicy)],
  ['scheduling.k8s.io/PriorityClass', printer(PRIORITY_CLASS_COLUMNS, printPriorityClass)],
  [
    'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
    printer(WEBHOOK_CONFIGURATION_COLUMNS, printWebhookConfiguration),
  ],
  [
    'admissionregistration.k8s.io/MutatingWebhookConfiguration',
    printer(WEBHOOK_CONFIGURATION_COLUMNS, printWebhookConfiguration),
  ],
  [
    'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
    printer(VALIDATING_ADMISSION_POLICY_COLUMNS, printValidatingAdmissionPolicy),
  ],
  [
    'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
    printer(VALIDATING_ADMISSION_POLICY_BINDING_COLUMNS, printValidatingAdmissionPolicyBinding),
  ],
  ['rbac.authorization.k8s.io/RoleBinding', printer(ROLE_BINDING_COLUMNS, printRoleBinding)],
  [
    'rbac.authorization.k8s.io/ClusterRoleBinding',
    printer(CLUSTER_ROLE_BINDING_COLUMNS, printRoleBinding),
  ],
  // Issue 17: the remaining kinds of a default v1.33 API server.
  ['/PodTemplate', printer(POD_TEMPLATE_COLUMNS, printPodTemplate)],
  ['/ComponentStatus', printer(COMPONENT_STATUS_COLUMNS, printComponentStatus)],
  ['networking.k8s.io/Ingress', printer(INGRESS_COLUMNS, printIngress)],
  ['networking.k8s.io/IngressClass', printer(INGRESS_CLASS_COLUMNS, printIngressClass)],
  ['networking.k8s.io/ServiceCIDR', printer(SERVICE_CIDR_COLUMNS, printServiceCIDR)],
  ['networking.k8s.io/IPAddress', printer(IP_ADDRESS_COLUMNS, printIPAddress)],
  ['node.k8s.io/RuntimeClass', printer(RUNTIME_CLASS_COLUMNS, printRuntimeClass)],
  ['storage.k8s.io/CSIDriver', printer(CSI_DRIVER_COLUMNS, printCSIDriver)],
  ['storage.k8s.io/CSINode', printer(CSI_NODE_COLUMNS, printCSINode)],
  ['storage.k8s.io/VolumeAttachment', printer(VOLUME_ATTACHMENT_COLUMNS, printVolumeAttachment)],
  [
    'storage.k8s.io/CSIStorageCapacity',
    printer(CSI_STORAGE_CAPACITY_COLUMNS, printCSIStorageCapacity),
  ],
  [
    'certificates.k8s.io/CertificateSigningRequest',
    printer(CSR_COLUMNS, printCertificateSigningRequest),
  ],
  ['apiregistration.k8s.io/APIService', printer(API_SERVICE_COLUMNS, printAPIService)],
  ['flowcontrol.apiserver.k8s.io/FlowSchema', printer(FLOW_SCHEMA_COLUMNS, printFlowSchema)],
  [
    'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
    printer(PRIORITY_LEVEL_COLUMNS, printPriorityLevelConfiguration),
  ],
]);

/** autoscaling/v1 Scale of a built-in kind (upstream `printScale`). */
export const SCALE_PRINTER = printer(SCALE_COLUMNS, printScale);

/** `Time.UTC().Format(time.RFC3339)`: whole seconds, `Z`; Go's zero time when unset. */
function createdAt(o: KubeObject): string {
  const v = meta(o).creationTimestamp;
  const t = (typeof v === 'string' ? parseRfc3339(v) : undefined) ?? GO_ZERO_TIME;
  if (t === GO_ZERO_TIME) return '0001-01-01T00:00:00Z';
  return `${new Date(Math.floor(t / 1000) * 1000).toISOString().slice(0, -5)}Z`;
}

/** Upstream `rest.NewDefaultTableConvertor`: Name and Created At (an RFC 3339 date, not an age). */
export const DEFAULT_PRINTER = printer(DEFAULT_COLUMNS, (o) => ({
  cells: [nameOf(o), createdAt(o)],
}));

/** The printer of a built-in kind, or the default table's. */
export function builtinPrinter(group: string, kind: string): KindPrinter {
  return PRINTERS.get(`${group}/${kind}`) ?? DEFAULT_PRINTER;
}

/** Whether a built-in kind has its own printer (not the default table). */
export function hasBuiltinPrinter(group: string, kind: string): boolean {
  return PRINTERS.has(`${group}/${kind}`);
}
