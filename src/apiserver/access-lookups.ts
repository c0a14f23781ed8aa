/**
 * Synchronous reads of current objects for access control: the ServiceAccounts (and the pods,
 * Secrets and Nodes) tokens are bound to, the pods on a node and their claims' volumes for the
 * node authorizer, and a pod or node for NodeRestriction. They read the store's backend
 * directly, decoding only what they return: these run inside a request's authentication or
 * authorization, not as handlers.
 *
 * @module
 */
import { asKind, type Pod } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import type { Backend } from '../storage/backend.js';
import type { NodeAuthorizerObjects } from './admission/node-authorizer.js';
import type { NodeRestrictionLookup } from './admission/node-restriction.js';
import type { ObjectLookup } from './authentication/serviceaccount/index.js';
import type { ResourceRegistry } from './registry.js';
import { listPrefix, objectKey } from './store/keys.js';
import { decodeObjectJson } from './store/object-json.js';

export interface AccessLookups {
  readonly objects: ObjectLookup;
  readonly node: NodeAuthorizerObjects;
  readonly restriction: NodeRestrictionLookup;
}

export function accessLookups(registry: ResourceRegistry, backend: Backend): AccessLookups {
  const get = (group: string, resource: string, namespace: string, name: string) => {
    const def = registry.get(group, 'v1', resource);
    if (def === undefined) return undefined;
    const kv = backend.get(objectKey(def, def.namespaced ? namespace : '', name));
    return kv === undefined ? undefined : decodeObjectJson(def, kv.value);
  };
  const core = (resource: string, namespace: string, name: string): KubeObject | undefined =>
    get('', resource, namespace, name);
  return {
    objects: { get: core },
    node: {
      podsOnNode(node) {
        const def = registry.get('', 'v1', 'pods');
        if (def === undefined) return [];
        // Every pod is read: these lookups answer a kubelet's reads of the Secrets, ConfigMaps
        // and claims its pods use, which the embedded kubelets make through shared caches.
        const pods: Pod[] = [];
        for (const kv of backend.list(listPrefix(def, '')).items) {
          const pod = asKind(decodeObjectJson(def, kv.value), 'Pod');
          if (pod.spec?.nodeName === node) pods.push(pod);
        }
        return pods;
      },
      volumeOfClaim(namespace, name) {
        const claim = core('persistentvolumeclaims', namespace, name);
        return claim === undefined
          ? undefined
          : asKind(claim, 'PersistentVolumeClaim').spec?.volumeName || undefined;
      },
      volumeAttachmentNode(name) {
        const va = get('storage.k8s.io', 'volumeattachments', '', name);
        return va === undefined ? undefined : asKind(va, 'VolumeAttachment').spec?.nodeName;
      },
    },
    restriction: {
      pod: (namespace, name) => {
        const p = core('pods', namespace, name);
        return p === undefined ? undefined : asKind(p, 'Pod');
      },
      node: (name) => {
        const n = core('nodes', '', name);
        return n === undefined ? undefined : asKind(n, 'Node');
      },
    },
  };
}
