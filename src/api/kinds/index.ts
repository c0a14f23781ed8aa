/**
 * The kinds this server serves from the start, as data for the API server's generic registry:
 * names for discovery and URLs, scope, name rules, generation tracking, subresources and each
 * kind's strategy (upstream defaults, creation resets, validation, field selectors).
 *
 * @module
 */

import { type Clock, realClock } from '../../util/clock.js';
import type { ResourceDefinition } from '../resource.js';
import { controllerRevisionResource } from './apps-controllerrevision.js';
import { deploymentResource } from './apps-deployment.js';
import { replicaSetResource } from './apps-replicaset.js';
import { statefulSetResource } from './apps-statefulset.js';
import { leaseResource, storageClassResource } from './cluster-kinds.js';
import { configMapResource, secretResource } from './core-config.js';
import { endpointsResource, serviceAccountResource } from './core-endpoints.js';
import { namespaceResource } from './core-namespace.js';
import { nodeResource } from './core-node.js';
import { podResource } from './core-pod.js';
import { createPersistentVolumeResource } from './core-pv.js';
import { persistentVolumeClaimResource } from './core-pvc.js';
import { limitRangeResource, resourceQuotaResource } from './core-quota.js';
import { serviceResource } from './core-service.js';
import { endpointSliceResource } from './discovery-endpointslice.js';
import { coreEventResource, eventsEventResource } from './events.js';
import { networkPolicyResource, podDisruptionBudgetResource } from './policy-networking.js';
import {
  clusterRoleBindingResource,
  clusterRoleResource,
  roleBindingResource,
  roleResource,
} from './rbac.js';

/** Options of {@link createBuiltinResources}. */
export interface BuiltinResourceOptions {
  /** The clock for timestamps strategies write (PersistentVolume phase transitions). */
  readonly clock?: Pick<Clock, 'now'>;
}

/** The built-in resources, with an injected clock (tests pass a FakeClock). */
export function createBuiltinResources(
  options: BuiltinResourceOptions = {},
): readonly ResourceDefinition[] {
  const clock = options.clock ?? realClock;
  return Object.freeze([
    namespaceResource,
    podResource,
    serviceResource,
    endpointsResource,
    endpointSliceResource,
    configMapResource,
    secretResource,
    serviceAccountResource,
    coreEventResource,
    nodeResource,
    persistentVolumeClaimResource,
    createPersistentVolumeResource(() => clock.now()),
    resourceQuotaResource,
    limitRangeResource,
    eventsEventResource,
    deploymentResource,
    replicaSetResource,
    statefulSetResource,
    controllerRevisionResource,
    storageClassResource,
    leaseResource,
    podDisruptionBudgetResource,
    networkPolicyResource,
    roleResource,
    clusterRoleResource,
    roleBindingResource,
    clusterRoleBindingResource,
  ]);
}

/** The built-in resources on the real clock. */
export const builtinResources: readonly ResourceDefinition[] = createBuiltinResources();
