/**
 * The kinds this server serves from the start, as data for the API server's generic registry:
 * names for discovery and URLs, scope, name rules, generation tracking, subresources and each
 * kind's strategy (upstream defaults, creation resets, validation, field selectors).
 *
 * @module
 */

import { type Clock, realClock } from '../../util/clock.js';
import type { ResourceDefinition } from '../resource.js';
import { ACCESS_REVIEW_RESOURCES } from './access-reviews.js';
import {
  validatingAdmissionPolicyBindingResource,
  validatingAdmissionPolicyResource,
} from './admissionregistration-policy.js';
import {
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './admissionregistration-webhooks.js';
import { apiServiceResource } from './apiregistration-apiservice.js';
import { controllerRevisionResource } from './apps-controllerrevision.js';
import { daemonSetResource } from './apps-daemonset.js';
import { deploymentResource } from './apps-deployment.js';
import { replicaSetResource } from './apps-replicaset.js';
import { statefulSetResource } from './apps-statefulset.js';
import { hpaV1Resource, hpaV2Resource } from './autoscaling-hpa.js';
import { cronJobResource } from './batch-cronjob.js';
import { jobResource } from './batch-job.js';
import { certificateSigningRequestResource } from './certificates-csr.js';
import { leaseResource, storageClassResource } from './cluster-kinds.js';
import { bindingResource } from './core-binding.js';
import { componentStatusResource } from './core-componentstatus.js';
import { configMapResource, secretResource } from './core-config.js';
import { endpointsResource, serviceAccountResource } from './core-endpoints.js';
import { namespaceResource } from './core-namespace.js';
import { nodeResource } from './core-node.js';
import { podResource } from './core-pod.js';
import { podTemplateResource } from './core-podtemplate.js';
import { createPersistentVolumeResource } from './core-pv.js';
import { persistentVolumeClaimResource } from './core-pvc.js';
import { limitRangeResource, resourceQuotaResource } from './core-quota.js';
import { replicationControllerResource } from './core-replicationcontroller.js';
import { serviceResource } from './core-service.js';
import { endpointSliceResource } from './discovery-endpointslice.js';
import { coreEventResource, eventsEventResource } from './events.js';
import { flowSchemaResource, priorityLevelConfigurationResource } from './flowcontrol.js';
import { ingressClassResource, ingressResource } from './networking-ingress.js';
import { ipAddressResource, serviceCIDRResource } from './networking-servicecidr.js';
import { runtimeClassResource } from './node-runtimeclass.js';
import { networkPolicyResource, podDisruptionBudgetResource } from './policy-networking.js';
import {
  clusterRoleBindingResource,
  clusterRoleResource,
  roleBindingResource,
  roleResource,
} from './rbac.js';
import { priorityClassResource } from './scheduling-priorityclass.js';
import {
  csiDriverResource,
  csiNodeResource,
  csiStorageCapacityResource,
  volumeAttachmentResource,
} from './storage-csi.js';

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
    jobResource,
    cronJobResource,
    daemonSetResource,
    controllerRevisionResource,
    replicationControllerResource,
    // v2 first: the preferred (and storage) version of autoscaling.
    hpaV2Resource,
    hpaV1Resource,
    storageClassResource,
    leaseResource,
    podDisruptionBudgetResource,
    networkPolicyResource,
    roleResource,
    clusterRoleResource,
    roleBindingResource,
    clusterRoleBindingResource,
    priorityClassResource,
    // Issue 17: the remaining resources of a default v1.33 API server.
    podTemplateResource,
    componentStatusResource,
    bindingResource,
    ingressResource,
    ingressClassResource,
    serviceCIDRResource,
    ipAddressResource,
    runtimeClassResource,
    csiDriverResource,
    csiNodeResource,
    volumeAttachmentResource,
    csiStorageCapacityResource,
    certificateSigningRequestResource,
    apiServiceResource,
    flowSchemaResource,
    priorityLevelConfigurationResource,
    // Stored and validated; calling the webhooks is admission's (issue 18).
    validatingWebhookConfigurationResource,
    mutatingWebhookConfigurationResource,
    // Issue 18: enforced by src/apiserver/admission/policy.
    validatingAdmissionPolicyResource,
    validatingAdmissionPolicyBindingResource,
    // Issue 18: answered on create, never stored.
    ...ACCESS_REVIEW_RESOURCES,
  ]);
}

/** The built-in resources on the real clock. */
export const builtinResources: readonly ResourceDefinition[] = createBuiltinResources();
