/**
 * All schema tables in one registry, and the top-level kinds they decode: every built-in kind
 * the API server serves (`src/api/kinds/index.ts`, plus apiextensions' CustomResourceDefinition),
 * and the bodies of subresources (Binding, Eviction, Scale) and deletes. `served-kinds.test.ts`
 * fails when a served kind has no entry here.
 *
 * @module
 */
import { ProtobufDecodeError } from './errors.js';
import type { MessageName, MessageSpec } from './schema.js';
import { compileTables } from './schema.js';
import { admissionPolicyTables } from './schema-admission-policy.js';
import { admissionRegistrationTables } from './schema-admissionregistration.js';
import { apiextensionsTables } from './schema-apiextensions.js';
import { appsTables } from './schema-apps.js';
import { appsDaemonSetTables } from './schema-apps-daemonset.js';
import { authenticationTables, authorizationTables } from './schema-auth.js';
import { autoscalingTables } from './schema-autoscaling.js';
import { batchTables } from './schema-batch.js';
import { certificatesTables } from './schema-certificates.js';
import { clusterApiTables } from './schema-cluster-api.js';
import { coreLegacyVolumeTables } from './schema-core-legacy.js';
import { coreObjectTables } from './schema-core-objects.js';
import { corePodTables } from './schema-core-pod.js';
import { coreQuotaTables } from './schema-core-quota.js';
import { coreReplicationControllerTables } from './schema-core-replicationcontroller.js';
import { coreRuntimeTables } from './schema-core-runtime.js';
import { coreStatusTables } from './schema-core-status.js';
import { coreVolumeTables } from './schema-core-volume.js';
import { discoveryTables } from './schema-discovery.js';
import { groupTables } from './schema-groups.js';
import { jsonSchemaTables } from './schema-jsonschema.js';
import { metaTables } from './schema-meta.js';
import { networkingIngressTables } from './schema-networking-ingress.js';
import { schedulingTables } from './schema-scheduling.js';

/** Every message table, compiled and cross-checked once at load. */
export const messageRegistry: ReadonlyMap<MessageName, MessageSpec> = compileTables(
  metaTables,
  corePodTables,
  coreRuntimeTables,
  coreVolumeTables,
  coreStatusTables,
  coreObjectTables,
  coreLegacyVolumeTables,
  coreQuotaTables,
  coreReplicationControllerTables,
  appsTables,
  autoscalingTables,
  appsDaemonSetTables,
  batchTables,
  groupTables,
  discoveryTables,
  apiextensionsTables,
  jsonSchemaTables,
  networkingIngressTables,
  certificatesTables,
  clusterApiTables,
  schedulingTables,
  admissionRegistrationTables,
  admissionPolicyTables,
  authenticationTables,
  authorizationTables,
);

/** The compiled table of a message; a missing one is a bug in the tables. */
export function messageSpec(name: MessageName): MessageSpec {
  const spec = messageRegistry.get(name);
  if (spec === undefined) throw new Error(`no protobuf table for ${name}`);
  return spec;
}

/** Top-level message of each `apiVersion` and `kind` a protobuf body may carry. */
export const ROOT_MESSAGES: Readonly<Record<string, Readonly<Record<string, MessageName>>>> = {
  v1: {
    Namespace: 'core.Namespace',
    Pod: 'core.Pod',
    Service: 'core.Service',
    Endpoints: 'core.Endpoints',
    ConfigMap: 'core.ConfigMap',
    Secret: 'core.Secret',
    ServiceAccount: 'core.ServiceAccount',
    Event: 'core.Event',
    Node: 'core.Node',
    PersistentVolumeClaim: 'core.PersistentVolumeClaim',
    PersistentVolume: 'core.PersistentVolume',
    ResourceQuota: 'core.ResourceQuota',
    LimitRange: 'core.LimitRange',
    Binding: 'core.Binding',
    ReplicationController: 'core.ReplicationController',
    PodTemplate: 'core.PodTemplate',
    ComponentStatus: 'core.ComponentStatus',
  },
  'discovery.k8s.io/v1': { EndpointSlice: 'discovery.EndpointSlice' },
  'events.k8s.io/v1': { Event: 'events.Event' },
  'apps/v1': {
    Deployment: 'apps.Deployment',
    ReplicaSet: 'apps.ReplicaSet',
    StatefulSet: 'apps.StatefulSet',
    DaemonSet: 'apps.DaemonSet',
    ControllerRevision: 'apps.ControllerRevision',
  },
  'storage.k8s.io/v1': {
    StorageClass: 'storage.StorageClass',
    CSIDriver: 'storage.CSIDriver',
    CSINode: 'storage.CSINode',
    VolumeAttachment: 'storage.VolumeAttachment',
    CSIStorageCapacity: 'storage.CSIStorageCapacity',
  },
  'coordination.k8s.io/v1': { Lease: 'coordination.Lease' },
  'policy/v1': { PodDisruptionBudget: 'policy.PodDisruptionBudget', Eviction: 'policy.Eviction' },
  'networking.k8s.io/v1': {
    NetworkPolicy: 'networking.NetworkPolicy',
    Ingress: 'networking.Ingress',
    IngressClass: 'networking.IngressClass',
    ServiceCIDR: 'networking.ServiceCIDR',
    IPAddress: 'networking.IPAddress',
  },
  'node.k8s.io/v1': { RuntimeClass: 'core.RuntimeClass' },
  'certificates.k8s.io/v1': { CertificateSigningRequest: 'core.CertificateSigningRequest' },
  'apiregistration.k8s.io/v1': { APIService: 'core.APIService' },
  'flowcontrol.apiserver.k8s.io/v1': {
    FlowSchema: 'core.FlowSchema',
    PriorityLevelConfiguration: 'core.PriorityLevelConfiguration',
  },
  'rbac.authorization.k8s.io/v1': {
    Role: 'rbac.Role',
    ClusterRole: 'rbac.ClusterRole',
    RoleBinding: 'rbac.RoleBinding',
    ClusterRoleBinding: 'rbac.ClusterRoleBinding',
  },
  'autoscaling/v1': {
    Scale: 'autoscaling.Scale',
    HorizontalPodAutoscaler: 'autoscaling.v1.HorizontalPodAutoscaler',
  },
  'autoscaling/v2': { HorizontalPodAutoscaler: 'autoscaling.v2.HorizontalPodAutoscaler' },
  'batch/v1': { Job: 'core.batch.Job', CronJob: 'core.batch.CronJob' },
  'scheduling.k8s.io/v1': { PriorityClass: 'core.PriorityClass' },
  'admissionregistration.k8s.io/v1': {
    ValidatingWebhookConfiguration: 'core.ValidatingWebhookConfiguration',
    MutatingWebhookConfiguration: 'core.MutatingWebhookConfiguration',
    ValidatingAdmissionPolicy: 'core.ValidatingAdmissionPolicy',
    ValidatingAdmissionPolicyBinding: 'core.ValidatingAdmissionPolicyBinding',
  },
  'apiextensions.k8s.io/v1': { CustomResourceDefinition: 'apiextensions.CustomResourceDefinition' },
  'authentication.k8s.io/v1': {
    TokenReview: 'core.authentication.TokenReview',
    SelfSubjectReview: 'core.authentication.SelfSubjectReview',
    // The body of `serviceaccounts/{name}/token` (kubectl create token).
    TokenRequest: 'core.authentication.TokenRequest',
  },
  'authorization.k8s.io/v1': {
    SubjectAccessReview: 'core.authorization.SubjectAccessReview',
    LocalSubjectAccessReview: 'core.authorization.LocalSubjectAccessReview',
    SelfSubjectAccessReview: 'core.authorization.SelfSubjectAccessReview',
    SelfSubjectRulesReview: 'core.authorization.SelfSubjectRulesReview',
  },
};

/**
 * The message of a top-level object. `DeleteOptions` is accepted under any group version:
 * a typed client stamps it with its own (kubectl 1.33 sends `v1` for pods).
 */
export function rootMessage(apiVersion: string, kind: string): MessageName {
  if (kind === 'DeleteOptions' && apiVersion !== '') return 'meta.DeleteOptions';
  // Own properties only: a body naming `constructor` must not reach Object.prototype.
  const kinds = Object.hasOwn(ROOT_MESSAGES, apiVersion) ? ROOT_MESSAGES[apiVersion] : undefined;
  const name = kinds !== undefined && Object.hasOwn(kinds, kind) ? kinds[kind] : undefined;
  if (name === undefined) {
    const what = kind === '' ? 'an object without a kind' : `${apiVersion}, Kind=${kind}`;
    throw new ProtobufDecodeError(`no protobuf decoding for ${what}`);
  }
  return name;
}
