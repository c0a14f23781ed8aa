/**
 * The Node authorizer (upstream `plugin/pkg/auth/authorizer/node/node_authorizer.go`, 1.33 with
 * `AuthorizeNodeWithSelectors` on, its default): what a kubelet (`system:node:<name>` in
 * `system:nodes`) may do. Secrets, ConfigMaps, PVCs, PVs, ServiceAccount tokens and single pods
 * only when a pod bound to that node refers to them ({@link nodeReferences}); its own Node and
 * Lease; pods listed or watched with `fieldSelector=spec.nodeName=<name>`; the rest by the static
 * node rules of upstream's bootstrap policy (`NodeRules()`). Anything else: no opinion, with
 * upstream's reason, so another authorizer (RBAC) may still answer. Writes it allows broadly
 * (create a node, a mirror pod, status updates) are narrowed by NodeRestriction admission.
 *
 * Not here: DRA (ResourceClaims, ResourceSlices), which fleetyard does not serve.
 *
 * @module
 */
import type { PolicyRule } from '../../api/model/index.js';
import type { Attributes, AuthorizationResult, Authorizer } from '../authorization/types.js';
import { type NodeObjects, type NodeReferencedKind, nodeReferences } from './node-graph.js';
import { nodeIdentity } from './node-restriction.js';

/** Attributes with the request's field selector (upstream `GetFieldSelector`), raw query text. */
export interface NodeAuthorizerAttributes extends Attributes {
  readonly fieldSelector?: string;
}

export interface NodeAuthorizerObjects extends NodeObjects {
  /** `spec.nodeName` of a VolumeAttachment; leave out when the kind is not served. */
  volumeAttachmentNode?(name: string): string | undefined;
}

const READ = ['get', 'list', 'watch'];
const OWN_OBJECT_VERBS = ['get', 'create', 'update', 'patch', 'delete'];
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({
  verbs,
  apiGroups,
  resources,
});

/** Upstream `bootstrappolicy.NodeRules()` (1.33, ClusterTrustBundle and DRA gates off). */
export const NODE_RULES: readonly PolicyRule[] = [
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews', 'localsubjectaccessreviews']),
  rule(READ, [''], ['services']),
  rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
  rule(['update', 'patch'], [''], ['nodes/status']),
  rule(['update', 'patch'], [''], ['nodes']),
  rule(['create', 'update', 'patch'], [''], ['events']),
  rule(READ, [''], ['pods']),
  rule(['create', 'delete'], [''], ['pods']),
  rule(['update', 'patch'], [''], ['pods/status']),
  rule(['create'], [''], ['pods/eviction']),
  rule(READ, [''], ['secrets', 'configmaps']),
  rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['get'], [''], ['endpoints']),
  rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
  rule(['get', 'create', 'update', 'patch', 'delete'], ['coordination.k8s.io'], ['leases']),
  rule(['get'], ['storage.k8s.io'], ['volumeattachments']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(['get', 'update', 'patch'], [''], ['persistentvolumeclaims/status']),
  rule(READ, ['storage.k8s.io'], ['csidrivers']),
  rule(['get', 'create', 'update', 'patch', 'delete'], ['storage.k8s.io'], ['csinodes']),
  rule(READ, ['node.k8s.io'], ['runtimeclasses']),
];

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const noOpinion = (reason = ''): AuthorizationResult => ({ decision: 'NoOpinion', reason });

export class NodeAuthorizer implements Authorizer {
  readonly #objects: NodeAuthorizerObjects;

  constructor(objects: NodeAuthorizerObjects) {
    this.#objects = objects;
  }

  authorize(a: NodeAuthorizerAttributes): AuthorizationResult {
    const identity = nodeIdentity(a.user);
    if (identity === undefined) return noOpinion();
    const node = identity.node;
    if (node === '') return noOpinion(`unknown node for user "${a.user.username}"`);
    if (a.resourceRequest) {
      const decided = this.#subdivided(node, a);
      if (decided !== undefined) return decided;
    }
    return staticRulesAllow(a) ? ALLOW : noOpinion();
  }

  #subdivided(node: string, a: NodeAuthorizerAttributes): AuthorizationResult | undefined {
    const sub = a.subresource ?? '';
    switch (`${a.resource}.${a.apiGroup ?? ''}`) {
      case 'secrets.':
        return this.#readNamespaced(node, 'secrets', a);
      case 'configmaps.':
        return this.#readNamespaced(node, 'configmaps', a);
      case 'persistentvolumeclaims.':
        if (sub !== 'status') return this.#get(node, 'persistentvolumeclaims', a);
        if (a.verb !== 'update' && a.verb !== 'patch') {
          return noOpinion('can only get/update/patch this type');
        }
        return this.#related(node, 'persistentvolumeclaims', a);
      case 'persistentvolumes.':
        return this.#get(node, 'persistentvolumes', a);
      case 'volumeattachments.storage.k8s.io':
        return this.#volumeAttachment(node, a);
      case 'serviceaccounts.':
        if (a.verb !== 'create' || !a.name) {
          return noOpinion('can only create tokens for individual service accounts');
        }
        if (sub !== 'token')
          return noOpinion('can only create token subresource of serviceaccount');
        return this.#related(node, 'serviceaccounts', a);
      case 'leases.coordination.k8s.io':
        return leaseRequest(node, a);
      case 'csinodes.storage.k8s.io':
        return csiNodeRequest(node, a);
      case 'nodes.':
        return nodeRequest(node, a);
      case 'pods.':
        return this.#pod(node, a);
      default:
        return undefined;
    }
  }

  /** Upstream `authorizeReadNamespacedObject`. */
  #readNamespaced(node: string, kind: NodeReferencedKind, a: Attributes): AuthorizationResult {
    if (!READ.includes(a.verb)) return noOpinion('can only read resources of this type');
    if ((a.subresource ?? '') !== '') return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    return this.#related(node, kind, a);
  }

  #get(node: string, kind: NodeReferencedKind, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if ((a.subresource ?? '') !== '') return noOpinion('cannot get subresource');
    return this.#related(node, kind, a);
  }

  /** Upstream `authorize`: a path from the node to the named object in the graph. */
  #related(node: string, kind: NodeReferencedKind, a: Attributes): AuthorizationResult {
    if (!a.name) return noOpinion('No Object name found');
    return nodeReferences(this.#objects, node, kind, a.namespace ?? '', a.name)
      ? ALLOW
      : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  #volumeAttachment(node: string, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if ((a.subresource ?? '') !== '') return noOpinion('cannot get subresource');
    if (!a.name) return noOpinion('No Object name found');
    return this.#objects.volumeAttachmentNode?.(a.name) === node
      ? ALLOW
      : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  #pod(node: string, a: NodeAuthorizerAttributes): AuthorizationResult {
    const sub = a.subresource ?? '';
    if (sub === '') {
      if (a.verb === 'get') return this.#get(node, 'pods', a);
      if (a.verb === 'list' || a.verb === 'watch') {
        return selects(a.fieldSelector, 'spec.nodeName', node)
          ? ALLOW
          : noOpinion('can only list/watch pods with spec.nodeName field selector');
      }
      // Mirror pods; NodeRestriction narrows them to the node's own.
      if (a.verb === 'create' || a.verb === 'delete') return ALLOW;
    }
    if (sub === 'status' && (a.verb === 'update' || a.verb === 'patch')) return ALLOW;
    if (sub === 'eviction' && a.verb === 'create') return ALLOW;
    return noOpinion();
  }
}

/** Upstream `authorizeNode`: its own Node read by name; writes left to NodeRestriction. */
function nodeRequest(node: string, a: Attributes): AuthorizationResult {
  const sub = a.subresource ?? '';
  if (sub === '') {
    if (['create', 'update', 'patch'].includes(a.verb)) return ALLOW;
    if (READ.includes(a.verb)) {
      if (a.name === node) return ALLOW;
      if (!a.name)
        return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`);
      return noOpinion(`node '${node}' cannot read '${a.name}', only its own Node object`);
    }
  }
  if (sub === 'status' && (a.verb === 'update' || a.verb === 'patch')) return ALLOW;
  return noOpinion();
}

/** Upstream `authorizeLease` (the name on create is checked by admission). */
function leaseRequest(node: string, a: Attributes): AuthorizationResult {
  if (!OWN_OBJECT_VERBS.includes(a.verb)) {
    return noOpinion('can only get, create, update, patch, or delete a node lease');
  }
  if (a.namespace !== NODE_LEASE_NAMESPACE) {
    return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  }
  if (a.verb !== 'create' && a.name !== node) {
    return noOpinion('can only access node lease with the same name as the requesting node');
  }
  return ALLOW;
}

/** Upstream `authorizeCSINode`. */
function csiNodeRequest(node: string, a: Attributes): AuthorizationResult {
  if (!OWN_OBJECT_VERBS.includes(a.verb)) {
    return noOpinion('can only get, create, update, patch, or delete a CSINode');
  }
  if ((a.subresource ?? '') !== '') return noOpinion('cannot authorize CSINode subresources');
  if (a.verb !== 'create' && a.name !== node) {
    return noOpinion('can only access CSINode with the same name as the requesting node');
  }
  return ALLOW;
}

/** Whether a field selector requires `field` = `value` (`=` or `==`), as upstream checks. */
export function selects(selector: string | undefined, field: string, value: string): boolean {
  if (selector === undefined) return false;
  return selector.split(',').some((term) => {
    const m = /^\s*([^=!\s]+)\s*==?\s*(.*?)\s*$/.exec(term);
    return m !== null && m[1] === field && m[2] === value;
  });
}

function staticRulesAllow(a: Attributes): boolean {
  if (!a.resourceRequest) return false;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : (a.resource ?? '');
  return NODE_RULES.some(
    (r) =>
      r.verbs.includes(a.verb) &&
      (r.apiGroups ?? []).includes(a.apiGroup ?? '') &&
      (r.resources ?? []).includes(resource),
  );
}
