/**
 * The NodeRestriction admission plugin (upstream `plugin/pkg/admission/noderestriction`): a
 * kubelet, user `system:node:<name>` in group `system:nodes`, may write only what concerns its
 * own node. The Node authorizer lets it create, update and delete pods, nodes and leases in
 * general; this plugin, which sees the objects, narrows that to its own Node (without touching
 * its taints or the labels it may not set), mirror pods bound to it, status of and evictions
 * for pods bound to it, its own Lease in `kube-node-lease`, its own CSINode and ResourceSlices,
 * status of PVCs, and tokens bound to its pods. Messages are upstream's.
 *
 * Not here (later upstream): the 1.34 check of node CSRs' CN.
 *
 * @module
 */
import { forbidden, type GroupResource, notFound, type StatusError } from '../../api/errors.js';
import { asKind, type Node, type Pod } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { UserInfo } from '../authentication/user.js';
import { podConfigMapNames, podSecretNames } from './node-graph.js';
import { forbiddenLabels, jsonEqual, modifiedLabels, withoutFields } from './node-rules.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface NodeAdmissionAttributes {
  readonly user: UserInfo;
  readonly operation: AdmissionOperation;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  /** The request's name ('' on create: the object's is used). */
  readonly name: string;
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
}

/** Current objects the plugin reads (upstream's pod and node listers). */
export interface NodeRestrictionLookup {
  pod(namespace: string, name: string): Pod | undefined;
  node(name: string): Node | undefined;
}

const NODES_GROUP = 'system:nodes';
const NODE_USER_PREFIX = 'system:node:';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/**
 * Upstream's `NodeIdentity`: a user named `system:node:<name>` in `system:nodes` is node
 * `<name>` (possibly '', which is refused); anyone else is no node.
 */
export function nodeIdentity(user: UserInfo): { readonly node: string } | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(NODES_GROUP)) return undefined;
  return { node: user.username.slice(NODE_USER_PREFIX.length) };
}

/** Admits or refuses a node's write; undefined for anyone who is not a node. */
export function admitNodeRequest(
  a: NodeAdmissionAttributes,
  lookup: NodeRestrictionLookup,
): StatusError | undefined {
  // Upstream's handler admits CREATE, UPDATE and DELETE only.
  if (a.operation === 'CONNECT') return undefined;
  const identity = nodeIdentity(a.user);
  if (identity === undefined) return undefined;
  const node = identity.node;
  const deny = (why: string) => refuse(a, why);
  if (node === '') return deny(`could not determine node from user "${a.user.username}"`);
  switch (`${a.resource}.${a.group}`) {
    case 'pods.':
      if (a.subresource === '') return admitPod(a, node, lookup, deny);
      if (a.subresource === 'status') return admitPodStatus(a, node, deny);
      if (a.subresource === 'eviction') return admitEviction(a, node, lookup, deny);
      return deny(
        `unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`,
      );
    case 'nodes.':
      return admitNode(a, node, deny);
    case 'persistentvolumeclaims.':
      if (a.subresource !== 'status') return deny('may only update PVC status');
      return admitClaimStatus(a, node, deny);
    case 'serviceaccounts.':
      return admitTokenRequest(a, node, lookup, deny);
    case 'leases.coordination.k8s.io':
      if (a.namespace !== NODE_LEASE_NAMESPACE) {
        return deny(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
      }
      return targetName(a) === node
        ? undefined
        : deny('can only access node lease with the same name as the requesting node');
    case 'csinodes.storage.k8s.io':
      return targetName(a) === node
        ? undefined
        : deny('can only access CSINode with the same name as the requesting node');
    case 'resourceslices.resource.k8s.io':
      return admitResourceSlice(a, node, deny);
    default:
      return undefined;
  }
}

type Deny = (why: string) => StatusError;

function admitPod(
  a: NodeAdmissionAttributes,
  node: string,
  lookup: NodeRestrictionLookup,
  deny: Deny,
): StatusError | undefined {
  if (a.operation === 'DELETE') {
    const existing = lookup.pod(a.namespace, a.name);
    if (existing === undefined) return notFound(PODS, a.name);
    return existing.spec?.nodeName === node
      ? undefined
      : deny(`node "${node}" can only delete pods with spec.nodeName set to itself`);
  }
  if (a.operation !== 'CREATE') {
    return deny(
      `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`,
    );
  }
  return admitMirrorPod(a, node, lookup, deny);
}

function admitMirrorPod(
  a: NodeAdmissionAttributes,
  node: string,
  lookup: NodeRestrictionLookup,
  deny: Deny,
): StatusError | undefined {
  const pod = typed(a.object, 'Pod');
  if (pod === undefined) return deny('unexpected type');
  if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
    return deny(
      `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`,
    );
  }
  if (pod.spec?.nodeName !== node) {
    return deny(`node "${node}" can only create pods with spec.nodeName set to itself`);
  }
  const ownerProblem = mirrorPodOwnerProblem(pod, node, lookup, deny);
  if (ownerProblem !== undefined) return ownerProblem;
  return mirrorPodReferenceProblem(pod, node, deny);
}

/** A mirror pod must have exactly one owner: its node, as controller, by its current UID. */
function mirrorPodOwnerProblem(
  pod: Pod,
  node: string,
  lookup: NodeRestrictionLookup,
  deny: Deny,
): StatusError | undefined {
  const owners = pod.metadata?.ownerReferences ?? [];
  if (owners.length > 1) {
    return deny(`node "${node}" can only create pods with a single owner reference set to itself`);
  }
  const owner = owners[0];
  if (
    owner === undefined ||
    owner.apiVersion !== 'v1' ||
    owner.kind !== 'Node' ||
    owner.name !== node
  ) {
    return deny(`node "${node}" can only create pods with an owner reference set to itself`);
  }
  if (owner.controller !== true) {
    return deny(
      `node "${node}" can only create pods with a controller owner reference set to itself`,
    );
  }
  if (owner.blockOwnerDeletion === true) {
    return deny(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
  }
  const current = lookup.node(node);
  if (current === undefined) return notFound({ group: '', resource: 'nodes' }, node);
  const uid = current.metadata?.uid ?? '';
  if (owner.uid !== uid) {
    return deny(`node ${node} UID mismatch: expected ${owner.uid} got ${uid}`);
  }
  return undefined;
}

/** A mirror pod may refer to no other API object. */
function mirrorPodReferenceProblem(pod: Pod, node: string, deny: Deny): StatusError | undefined {
  if ((pod.spec?.serviceAccountName ?? '') !== '') {
    return deny(`node "${node}" can not create pods that reference a service account`);
  }
  if (podSecretNames(pod).length > 0) {
    return deny(`node "${node}" can not create pods that reference secrets`);
  }
  if (podConfigMapNames(pod).length > 0) {
    return deny(`node "${node}" can not create pods that reference configmaps`);
  }
  const volumes = pod.spec?.volumes ?? [];
  if (volumes.some((v) => v.projected?.sources?.some((s) => s.clusterTrustBundle))) {
    return deny(`node "${node}" can not create pods that reference clustertrustbundles`);
  }
  if (volumes.some((v) => v.persistentVolumeClaim)) {
    return deny(`node "${node}" can not create pods that reference persistentvolumeclaims`);
  }
  return undefined;
}

function admitPodStatus(
  a: NodeAdmissionAttributes,
  node: string,
  deny: Deny,
): StatusError | undefined {
  if (a.operation !== 'UPDATE') return deny(`unexpected operation "${a.operation}"`);
  const old = typed(a.oldObject, 'Pod');
  if (old === undefined) return deny('unexpected type');
  if (old.spec?.nodeName !== node) {
    return deny(
      `node "${node}" can only update pod status for pods with spec.nodeName set to itself`,
    );
  }
  const next = typed(a.object, 'Pod');
  if (next === undefined) return deny('unexpected type');
  if (!jsonEqual(old.metadata?.labels ?? {}, next.metadata?.labels ?? {})) {
    return deny(`node "${node}" cannot update labels through pod status`);
  }
  const claims = (p: Pod) =>
    (p.status?.resourceClaimStatuses ?? []).map((s) => [s.name, s.resourceClaimName ?? null]);
  if (!jsonEqual(claims(old), claims(next))) {
    // "statues": upstream's spelling.
    return deny(`node "${node}" cannot update resource claim statues`);
  }
  return undefined;
}

function admitEviction(
  a: NodeAdmissionAttributes,
  node: string,
  lookup: NodeRestrictionLookup,
  deny: Deny,
): StatusError | undefined {
  if (a.operation !== 'CREATE') return deny(`unexpected operation ${a.operation}`);
  const podName = a.name !== '' ? a.name : (a.object?.metadata?.name ?? '');
  if (podName === '') return deny('could not determine pod from request data');
  const pod = lookup.pod(a.namespace, podName);
  if (pod === undefined) return notFound(PODS, podName);
  return pod.spec?.nodeName === node
    ? undefined
    : deny(`node ${node} can only evict pods with spec.nodeName set to itself`);
}

function admitNode(a: NodeAdmissionAttributes, node: string, deny: Deny): StatusError | undefined {
  const requested = a.name !== '' ? a.name : (a.object?.metadata?.name ?? '');
  if (requested !== node)
    return deny(`node "${node}" is not allowed to modify node "${requested}"`);
  if (a.operation === 'CREATE') return admitNodeCreate(a, node, deny);
  if (a.operation === 'UPDATE') return admitNodeUpdate(a, node, deny);
  return undefined;
}

function admitNodeCreate(
  a: NodeAdmissionAttributes,
  node: string,
  deny: Deny,
): StatusError | undefined {
  const created = typed(a.object, 'Node');
  if (created === undefined) return deny('unexpected type');
  if (created.spec?.configSource !== undefined) {
    return deny(`node "${node}" is not allowed to create pods with a non-nil configSource`);
  }
  const bad = forbiddenLabels(modifiedLabels(created.metadata?.labels, undefined));
  if (bad.length > 0) {
    return deny(`node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  return undefined;
}

function admitNodeUpdate(
  a: NodeAdmissionAttributes,
  node: string,
  deny: Deny,
): StatusError | undefined {
  const next = typed(a.object, 'Node');
  const old = typed(a.oldObject, 'Node');
  if (next === undefined || old === undefined) return deny('unexpected type');
  const source = next.spec?.configSource;
  if (source !== undefined && !jsonEqual(source, old.spec?.configSource)) {
    return deny(
      `node "${node}" is not allowed to update configSource to a new non-nil configSource`,
    );
  }
  if (!jsonEqual(next.spec?.taints ?? [], old.spec?.taints ?? [])) {
    return deny(`node "${node}" is not allowed to modify taints`);
  }
  const bad = forbiddenLabels(modifiedLabels(next.metadata?.labels, old.metadata?.labels));
  // No node name in this one upstream.
  if (bad.length > 0) return deny(`is not allowed to modify labels: ${bad.join(', ')}`);
  return undefined;
}

/** Fields a kubelet may change in a PVC's status (RecoverVolumeExpansionFailure on, 1.33). */
const CLAIM_STATUS_FIELDS = [
  'metadata.resourceVersion',
  'metadata.managedFields',
  'status.capacity',
  'status.conditions',
  'status.allocatedResourceStatuses',
  'status.allocatedResources',
];

function admitClaimStatus(
  a: NodeAdmissionAttributes,
  node: string,
  deny: Deny,
): StatusError | undefined {
  if (a.operation !== 'UPDATE') return deny(`unexpected operation "${a.operation}"`);
  if (a.object === undefined || a.oldObject === undefined) return deny('unexpected type');
  const old = withoutFields(a.oldObject, CLAIM_STATUS_FIELDS);
  const next = withoutFields(a.object, CLAIM_STATUS_FIELDS);
  if (jsonEqual(old, next)) return undefined;
  // Upstream appends a go-cmp diff of the two claims, which is not reproduced here.
  return deny(
    `node "${node}" is not allowed to update fields other than status.quantity and status.conditions`,
  );
}

function admitTokenRequest(
  a: NodeAdmissionAttributes,
  node: string,
  lookup: NodeRestrictionLookup,
  deny: Deny,
): StatusError | undefined {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return undefined;
  const request = typed(a.object, 'AuthenticationV1TokenRequest');
  if (request === undefined) return deny('unexpected type');
  const ref = request.spec?.boundObjectRef;
  if (ref === undefined || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) {
    return deny('node requested token not bound to a pod');
  }
  if (!ref.uid) return deny('node requested token with a pod binding without a uid');
  const pod = lookup.pod(a.namespace, ref.name);
  if (pod === undefined) return notFound(PODS, ref.name);
  if (ref.uid !== pod.metadata?.uid) {
    return deny(
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  if (pod.spec?.nodeName !== node) {
    return deny('node requested token bound to a pod scheduled on a different node');
  }
  return undefined;
}

function admitResourceSlice(
  a: NodeAdmissionAttributes,
  node: string,
  deny: Deny,
): StatusError | undefined {
  const nodeNameOf = (o: KubeObject | undefined) => {
    const spec = o?.spec;
    return typeof spec === 'object' && spec !== null && 'nodeName' in spec
      ? spec.nodeName
      : undefined;
  };
  if (a.operation === 'CREATE' && nodeNameOf(a.object) !== node) {
    return deny('can only create ResourceSlice with the same NodeName as the requesting node');
  }
  if (a.operation === 'DELETE' && nodeNameOf(a.oldObject) !== node) {
    return deny('can only delete ResourceSlice with the same NodeName as the requesting node');
  }
  return undefined;
}

const PODS: GroupResource = { group: '', resource: 'pods' };

/** The name a request is about: the request's, or on create the object's (upstream's accessor). */
function targetName(a: NodeAdmissionAttributes): string {
  return a.operation === 'CREATE' ? (a.object?.metadata?.name ?? '') : a.name;
}

/**
 * Upstream `admission.NewForbidden`: the request's name, else the object's name or
 * generateName, else `Unknown`; the resource without its subresource.
 */
function refuse(a: NodeAdmissionAttributes, why: string): StatusError {
  const meta = a.object?.metadata;
  const name = a.name || meta?.name || meta?.generateName || 'Unknown';
  return forbidden({ group: a.group, resource: a.resource }, name, why);
}

function typed<N extends 'Pod' | 'Node' | 'AuthenticationV1TokenRequest'>(
  obj: KubeObject | undefined,
  kind: N,
) {
  if (obj === undefined) return undefined;
  try {
    return asKind(obj, kind);
  } catch {
    return undefined;
  }
}
