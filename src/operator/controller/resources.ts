/**
 * The REST types the operator reads and writes, the finalizer it holds on a fleet, and the
 * informer index that maps any child to its fleet key through the operator's labels, so a
 * change to a pod, claim or workload wakes exactly the fleet it belongs to (no polling).
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { CollectionRef, ResourceType } from '../../client/resource-path.js';
import { RESOURCES } from '../../controller/context.js';
import { CELLD_GROUP, CELLD_VERSION } from '../api/types.js';
import { LABEL_FLEET } from '../render/metadata.js';

export const FLEETS: ResourceType = {
  group: CELLD_GROUP,
  version: CELLD_VERSION,
  plural: 'celldfleets',
};
export const RESERVATIONS: ResourceType = {
  group: CELLD_GROUP,
  version: CELLD_VERSION,
  plural: 'celldstoragereservations',
};
export const STORAGE_CLASSES: ResourceType = {
  group: 'storage.k8s.io',
  version: 'v1',
  plural: 'storageclasses',
};
export const NETWORK_POLICIES: ResourceType = {
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'networkpolicies',
};
export const SERVICE_ACCOUNTS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
};

/** The namespaced kinds of a fleet's children, by `kind`, for writes. */
export const CHILD_TYPES: Readonly<Record<string, ResourceType>> = {
  ServiceAccount: SERVICE_ACCOUNTS,
  Service: RESOURCES.services,
  NetworkPolicy: NETWORK_POLICIES,
  PodDisruptionBudget: RESOURCES.poddisruptionbudgets,
  StatefulSet: RESOURCES.statefulsets,
  Deployment: RESOURCES.deployments,
  Pod: RESOURCES.pods,
  PersistentVolumeClaim: RESOURCES.persistentvolumeclaims,
};

/**
 * Held on every fleet until its members, disks and prerequisites are gone (docs/design/operator.md §8). The Go
 * operator's name, in this group.
 */
export const FLEET_FINALIZER = `${CELLD_GROUP}/lifecycle-protection`;

/** Index of children by `<namespace>/<fleet name>` from the operator's fleet label. */
export const BY_FLEET_INDEX = 'celld-fleet';

/** The fleet key a child's labels name, if any. */
export function fleetKeyOfChild(obj: KubeObject): string | undefined {
  const fleet = obj.metadata?.labels?.[LABEL_FLEET];
  const ns = obj.metadata?.namespace;
  return fleet && ns ? `${ns}/${fleet}` : undefined;
}

export const byFleetIndexers = {
  [BY_FLEET_INDEX]: (obj: KubeObject): string[] => {
    const key = fleetKeyOfChild(obj);
    return key === undefined ? [] : [key];
  },
};

/** The collection to watch: every namespace, or the operator's one (`--namespace`). */
export function scoped(type: ResourceType, namespace: string | undefined): CollectionRef {
  return namespace ? { ...type, namespace } : type;
}
