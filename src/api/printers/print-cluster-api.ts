/**
 * Table rows of the kinds issue 17 adds, as upstream `printers.go` prints them (and, for
 * APIService, kube-aggregator's table convertor): PodTemplate, ComponentStatus, Ingress,
 * IngressClass, ServiceCIDR, IPAddress, RuntimeClass, CSIDriver, CSINode, VolumeAttachment,
 * CSIStorageCapacity, CertificateSigningRequest, APIService, FlowSchema and
 * PriorityLevelConfiguration. Column descriptions are the API field docs upstream cites.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, arr, bool, int, nameOf, obj, objs, optObj, optStr, str } from './access.js';
import { AGE, column, NAME } from './columns.js';
import { humanDuration } from './duration.js';
import { containerCells, formatLabels, quantityString } from './format.js';
import { CLUSTER_API_DOCS as DOCS } from './print-cluster-api-docs.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

const text = (t: string) => ({ text: t });

const doc = (key: keyof typeof DOCS) => text(DOCS[key]);

export const POD_TEMPLATE_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Containers', 'string', text('Names of each container in the template.')),
  column('Images', 'string', text('Images referenced by each container in the template.')),
  column('Pod Labels', 'string', text('The labels for the pod template.')),
];

export function printPodTemplate(o: KubeObject): PrintedRow {
  const template = obj(o.template);
  const [names, images] = containerCells(template.spec);
  return { cells: [nameOf(o), names, images, formatLabels(obj(template.metadata).labels)] };
}

export const COMPONENT_STATUS_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Status', 'string', text('Status of the component conditions')),
  column('Message', 'string', text('Message of the component conditions')),
  column('Error', 'string', text('Error of the component conditions')),
];

/** Upstream `printComponentStatus`: the first `Healthy` condition decides. */
export function printComponentStatus(o: KubeObject): PrintedRow {
  const healthy = objs(o.conditions).find((c) => c.type === 'Healthy');
  if (healthy === undefined) return { cells: [nameOf(o), 'Unknown', '', ''] };
  const status = healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
  return { cells: [nameOf(o), status, str(healthy.message), str(healthy.error)] };
}

export const INGRESS_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column(
    'Class',
    'string',
    text('The name of the IngressClass resource that should be used for ingresses'),
  ),
  column(
    'Hosts',
    'string',
    text('Hosts that incoming requests are matched against before the ingress rule'),
  ),
  column(
    'Address',
    'string',
    text('Address is a list containing ingress points for the load-balancer'),
  ),
  column('Ports', 'string', text('Ports of TLS configurations that open')),
  AGE,
];

/** Upstream `formatHosts`: up to three hosts, `*` when no rule names one. */
function formatHosts(rules: Record<string, unknown>[]): string {
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    const host = str(rule.host);
    if (!more && host !== '') list.push(host);
  }
  if (list.length === 0) return '*';
  const joined = list.join(',');
  return more ? `${joined} + ${rules.length - max} more...` : joined;
}

/**
 * Upstream `ingressLoadBalancerStatusStringer`: sorted unique IPs or hostnames. Server-side
 * tables are generated wide, so the list is never cut at 16 characters.
 */
function loadBalancerAddresses(o: KubeObject): string {
  const seen = new Set<string>();
  for (const ing of objs(obj(obj(o.status).loadBalancer).ingress)) {
    const ip = str(ing.ip);
    const hostname = str(ing.hostname);
    if (ip !== '') seen.add(ip);
    else if (hostname !== '') seen.add(hostname);
  }
  return [...seen].sort().join(',');
}

export function printIngress(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  return {
    cells: [
      nameOf(o),
      optStr(spec.ingressClassName) ?? '<none>',
      formatHosts(objs(spec.rules)),
      loadBalancerAddresses(o),
      arr(spec.tls).length > 0 ? '80, 443' : '80',
      ageOf(o, now),
    ],
  };
}

export const INGRESS_CLASS_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Controller', 'string', text('Controller that is responsible for handling this class')),
  column('Parameters', 'string', text('A reference to a resource with additional parameters')),
  AGE,
];

export function printIngressClass(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const params = optObj(spec.parameters);
  let parameters = '<none>';
  if (params !== undefined) {
    const group = optStr(params.apiGroup);
    parameters = `${str(params.kind)}${group === undefined ? '' : `.${group}`}/${str(params.name)}`;
  }
  return { cells: [nameOf(o), str(spec.controller), parameters, ageOf(o, now)] };
}

export const SERVICE_CIDR_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('CIDRs', 'string', doc('ServiceCIDRSpec.cidrs')),
  AGE,
];

export function printServiceCIDR(o: KubeObject, now: Date): PrintedRow {
  const cidrs = arr(obj(o.spec).cidrs).map(str).join(',');
  return { cells: [nameOf(o), cidrs, ageOf(o, now)] };
}

export const IP_ADDRESS_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('ParentRef', 'string', doc('IPAddressSpec.parentRef')),
];

/** Upstream `printIPAddress`: `<resource>[.<group>]/[<namespace>/]<name>`, lower case. */
export function printIPAddress(o: KubeObject): PrintedRow {
  const ref = optObj(obj(o.spec).parentRef);
  if (ref === undefined) return { cells: [nameOf(o), '<none>'] };
  const group = str(ref.group);
  const resource = group === '' ? str(ref.resource) : `${str(ref.resource)}.${group}`;
  const namespace = str(ref.namespace);
  const shown = `${resource.toLowerCase()}${namespace === '' ? '' : `/${namespace}`}/${str(ref.name)}`;
  return { cells: [nameOf(o), shown] };
}

export const RUNTIME_CLASS_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Handler', 'string', doc('RuntimeClass.handler')),
  AGE,
];

export function printRuntimeClass(o: KubeObject, now: Date): PrintedRow {
  return { cells: [nameOf(o), str(o.handler), ageOf(o, now)] };
}

export const CSI_DRIVER_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('AttachRequired', 'boolean', doc('CSIDriverSpec.attachRequired')),
  column('PodInfoOnMount', 'boolean', doc('CSIDriverSpec.podInfoOnMount')),
  column('StorageCapacity', 'boolean', doc('CSIDriverSpec.storageCapacity')),
  column('TokenRequests', 'string', doc('CSIDriverSpec.tokenRequests')),
  column('RequiresRepublish', 'boolean', doc('CSIDriverSpec.requiresRepublish')),
  column('Modes', 'string', doc('CSIDriverSpec.volumeLifecycleModes')),
  AGE,
];

export function printCSIDriver(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const modes = arr(spec.volumeLifecycleModes).map(str).join(',');
  const audiences = objs(spec.tokenRequests).map((t) => str(t.audience));
  return {
    cells: [
      nameOf(o),
      spec.attachRequired === undefined ? true : bool(spec.attachRequired),
      bool(spec.podInfoOnMount),
      bool(spec.storageCapacity),
      audiences.length > 0 ? audiences.join(',') : '<unset>',
      bool(spec.requiresRepublish),
      modes === '' ? '<none>' : modes,
      ageOf(o, now),
    ],
  };
}

export const CSI_NODE_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column(
    'Drivers',
    'integer',
    text('Drivers indicates the number of CSI drivers registered on the node'),
  ),
  AGE,
];

export function printCSINode(o: KubeObject, now: Date): PrintedRow {
  return { cells: [nameOf(o), arr(obj(o.spec).drivers).length, ageOf(o, now)] };
}

export const VOLUME_ATTACHMENT_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Attacher', 'string', doc('VolumeAttachmentSpec.attacher')),
  column('PV', 'string', text('PV name')),
  column('Node', 'string', doc('VolumeAttachmentSpec.nodeName')),
  column('Attached', 'boolean', doc('VolumeAttachmentStatus.attached')),
  AGE,
];

export function printVolumeAttachment(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  return {
    cells: [
      nameOf(o),
      str(spec.attacher),
      str(obj(spec.source).persistentVolumeName),
      str(spec.nodeName),
      bool(obj(o.status).attached),
      ageOf(o, now),
    ],
  };
}

export const CSI_STORAGE_CAPACITY_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('StorageClassName', 'string', doc('CSIStorageCapacity.storageClassName')),
  column('Capacity', 'string', doc('CSIStorageCapacity.capacity')),
];

export function printCSIStorageCapacity(o: KubeObject): PrintedRow {
  const capacity =
    o.capacity === undefined || o.capacity === null ? '<unset>' : quantityString(o.capacity);
  return { cells: [nameOf(o), str(o.storageClassName), capacity] };
}

export const CSR_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  AGE,
  column('SignerName', 'string', doc('CertificateSigningRequestSpec.signerName')),
  column('Requestor', 'string', doc('CertificateSigningRequestSpec.request')),
  column('RequestedDuration', 'string', doc('CertificateSigningRequestSpec.expirationSeconds')),
  column('Condition', 'string', doc('CertificateSigningRequestStatus.conditions')),
];

/** Upstream `extractCSRStatus`: Denied over Approved over Pending, then Failed and Issued. */
function csrCondition(o: KubeObject): string {
  const types = new Set(objs(obj(o.status).conditions).map((c) => str(c.type)));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (str(obj(o.status).certificate) !== '') status += ',Issued';
  return status;
}

export function printCertificateSigningRequest(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const seconds = spec.expirationSeconds;
  return {
    cells: [
      nameOf(o),
      ageOf(o, now),
      optStr(spec.signerName) || '<none>',
      str(spec.username),
      typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>',
      csrCondition(o),
    ],
  };
}

export const API_SERVICE_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Service', 'string', text('The reference to the service that hosts this API endpoint.')),
  column('Available', 'string', text('Whether this service is available.')),
  AGE,
];

/** kube-aggregator's table: `Local` or `<ns>/<name>`; `True`, or `False (<reason>)`. */
export function printAPIService(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const service = optObj(spec.service);
  const shown = service === undefined ? 'Local' : `${str(service.namespace)}/${str(service.name)}`;
  const available = objs(obj(o.status).conditions).find((c) => c.type === 'Available');
  let status = 'Unknown';
  if (available !== undefined) {
    const s = str(available.status);
    const reason = str(available.reason);
    status = s === 'True' || reason === '' ? s : `${s} (${reason})`;
  }
  return { cells: [nameOf(o), shown, status, ageOf(o, now)] };
}

export const FLOW_SCHEMA_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('PriorityLevel', 'string', doc('FlowSchemaSpec.priorityLevelConfiguration')),
  column('MatchingPrecedence', 'string', doc('FlowSchemaSpec.matchingPrecedence')),
  column('DistinguisherMethod', 'string', doc('FlowSchemaSpec.distinguisherMethod')),
  AGE,
  column(
    'MissingPL',
    'string',
    text('references a broken or non-existent PriorityLevelConfiguration'),
  ),
];

/** Upstream `printFlowSchema`: MISSINGPL is the `Dangling` condition's status, `?` without one. */
export function printFlowSchema(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const method = optObj(spec.distinguisherMethod);
  const dangling = objs(obj(o.status).conditions).find((c) => c.type === 'Dangling');
  return {
    cells: [
      nameOf(o),
      str(obj(spec.priorityLevelConfiguration).name),
      int(spec.matchingPrecedence),
      method === undefined ? '<none>' : str(method.type),
      ageOf(o, now),
      dangling === undefined ? '?' : str(dangling.status),
    ],
  };
}

export const PRIORITY_LEVEL_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Type', 'string', doc('PriorityLevelConfigurationSpec.type')),
  column(
    'NominalConcurrencyShares',
    'string',
    doc('LimitedPriorityLevelConfiguration.nominalConcurrencyShares'),
  ),
  column('Queues', 'string', doc('QueuingConfiguration.queues')),
  column('HandSize', 'string', doc('QueuingConfiguration.handSize')),
  column('QueueLengthLimit', 'string', doc('QueuingConfiguration.queueLengthLimit')),
  AGE,
];

/** Upstream `printPriorityLevelConfiguration`: numbers from `limited`, `<none>` otherwise. */
export function printPriorityLevelConfiguration(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const limited = optObj(spec.limited);
  const cells: unknown[] = [nameOf(o), str(spec.type), '<none>', '<none>', '<none>', '<none>'];
  if (limited !== undefined) {
    cells[2] = int(limited.nominalConcurrencyShares);
    const queuing = optObj(obj(limited.limitResponse).queuing);
    if (queuing !== undefined) {
      cells[3] = int(queuing.queues);
      cells[4] = int(queuing.handSize);
      cells[5] = int(queuing.queueLengthLimit);
    }
  }
  cells.push(ageOf(o, now));
  return { cells };
}
