/**
 * Every built-in kind the server serves (and its List kind): each one's type and identity.
 *
 * GENERATED from src/api/schema/builtin/components.generated.json by scripts/gen-api-types.ts: do
 * not edit. Regenerate the schemas and every src/api/model/*.generated.ts with
 *
 *     node --import tsx scripts/gen-builtin-schemas.ts
 *
 * or only the types (from the committed JSON and the celld schemas) with
 *
 *     node --import tsx scripts/gen-api-types.ts
 *
 * src/api/model/generated-fresh.test.ts fails when this file differs from the generator's output.
 *
 * Naming: each definition keeps its upstream short name (Pod, PodSpec, ObjectMeta). When two
 * share one, the core/v1 definition (else the apimachinery one) keeps it and the other is prefixed
 * with its group and version (events.k8s.io/v1 Event → EventsV1Event, discovery.k8s.io/v1
 * EndpointPort → DiscoveryV1EndpointPort); a name TypeScript already has is prefixed too
 * (apiextensions JSON → ApiextensionsV1JSON).
 *
 * Types: a property is optional unless upstream requires it; null is admitted only where
 * ObjectMeta receives it. int32/int64 → number: int64 values beyond 2^53 arrive as bigint
 * (docs/adr/0012-int64-numbers.md), and only ControllerRevision.revision, the one the code does
 * bigint arithmetic on, is typed number | bigint. Quantity, Time and MicroTime → string;
 * IntOrString → number | string; opaque JSON (RawExtension, FieldsV1) → { [key: string]: unknown }.
 * A kind's apiVersion and kind are its literals, so a KubeObject needs isKind/asKind
 * (src/api/model/index.ts) to become one.
 *
 * @module
 */

import type {
  MutatingWebhookConfiguration,
  MutatingWebhookConfigurationList,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingList,
  ValidatingAdmissionPolicyList,
  ValidatingWebhookConfiguration,
  ValidatingWebhookConfigurationList,
} from './admissionregistration.generated.js';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionList,
} from './apiextensions.generated.js';
import type { APIService, APIServiceList } from './apiregistration.generated.js';
import type {
  ControllerRevision,
  ControllerRevisionList,
  DaemonSet,
  DaemonSetList,
  Deployment,
  DeploymentList,
  ReplicaSet,
  ReplicaSetList,
  StatefulSet,
  StatefulSetList,
} from './apps.generated.js';
import type {
  AuthenticationV1TokenRequest,
  SelfSubjectReview,
  TokenReview,
} from './authentication.generated.js';
import type {
  LocalSubjectAccessReview,
  SelfSubjectAccessReview,
  SelfSubjectRulesReview,
  SubjectAccessReview,
} from './authorization.generated.js';
import type {
  AutoscalingV1HorizontalPodAutoscaler,
  AutoscalingV1HorizontalPodAutoscalerList,
  AutoscalingV2HorizontalPodAutoscaler,
  AutoscalingV2HorizontalPodAutoscalerList,
  Scale,
} from './autoscaling.generated.js';
import type { CronJob, CronJobList, Job, JobList } from './batch.generated.js';
import type {
  CertificateSigningRequest,
  CertificateSigningRequestList,
} from './certificates.generated.js';
import type { Lease, LeaseList } from './coordination.generated.js';
import type {
  Binding,
  ComponentStatus,
  ComponentStatusList,
  ConfigMap,
  ConfigMapList,
  Endpoints,
  EndpointsList,
  Event,
  EventList,
  LimitRange,
  LimitRangeList,
  Namespace,
  NamespaceList,
  Node,
  NodeList,
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimList,
  PersistentVolumeList,
  Pod,
  PodList,
  PodTemplate,
  PodTemplateList,
  ReplicationController,
  ReplicationControllerList,
  ResourceQuota,
  ResourceQuotaList,
  Secret,
  SecretList,
  Service,
  ServiceAccount,
  ServiceAccountList,
  ServiceList,
} from './core.generated.js';
import type { EndpointSlice, EndpointSliceList } from './discovery.generated.js';
import type { EventsV1Event, EventsV1EventList } from './events.generated.js';
import type {
  FlowSchema,
  FlowSchemaList,
  PriorityLevelConfiguration,
  PriorityLevelConfigurationList,
} from './flowcontrol.generated.js';
import type { DeleteOptions, Status } from './meta.generated.js';
import type {
  Ingress,
  IngressClass,
  IngressClassList,
  IngressList,
  IPAddress,
  IPAddressList,
  NetworkPolicy,
  NetworkPolicyList,
  ServiceCIDR,
  ServiceCIDRList,
} from './networking.generated.js';
import type { RuntimeClass, RuntimeClassList } from './node.generated.js';
import type { PodDisruptionBudget, PodDisruptionBudgetList } from './policy.generated.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  ClusterRoleBindingList,
  ClusterRoleList,
  Role,
  RoleBinding,
  RoleBindingList,
  RoleList,
} from './rbac.generated.js';
import type { PriorityClass, PriorityClassList } from './scheduling.generated.js';
import type {
  CSIDriver,
  CSIDriverList,
  CSINode,
  CSINodeList,
  CSIStorageCapacity,
  CSIStorageCapacityList,
  StorageClass,
  StorageClassList,
  VolumeAttachment,
  VolumeAttachmentList,
} from './storage.generated.js';

/** Each kind's type, by type name: what `isKind` and `asKind` narrow to. */
export type BuiltinKinds = {
  APIService: APIService;
  APIServiceList: APIServiceList;
  AuthenticationV1TokenRequest: AuthenticationV1TokenRequest;
  AutoscalingV1HorizontalPodAutoscaler: AutoscalingV1HorizontalPodAutoscaler;
  AutoscalingV1HorizontalPodAutoscalerList: AutoscalingV1HorizontalPodAutoscalerList;
  AutoscalingV2HorizontalPodAutoscaler: AutoscalingV2HorizontalPodAutoscaler;
  AutoscalingV2HorizontalPodAutoscalerList: AutoscalingV2HorizontalPodAutoscalerList;
  Binding: Binding;
  CSIDriver: CSIDriver;
  CSIDriverList: CSIDriverList;
  CSINode: CSINode;
  CSINodeList: CSINodeList;
  CSIStorageCapacity: CSIStorageCapacity;
  CSIStorageCapacityList: CSIStorageCapacityList;
  CertificateSigningRequest: CertificateSigningRequest;
  CertificateSigningRequestList: CertificateSigningRequestList;
  ClusterRole: ClusterRole;
  ClusterRoleBinding: ClusterRoleBinding;
  ClusterRoleBindingList: ClusterRoleBindingList;
  ClusterRoleList: ClusterRoleList;
  ComponentStatus: ComponentStatus;
  ComponentStatusList: ComponentStatusList;
  ConfigMap: ConfigMap;
  ConfigMapList: ConfigMapList;
  ControllerRevision: ControllerRevision;
  ControllerRevisionList: ControllerRevisionList;
  CronJob: CronJob;
  CronJobList: CronJobList;
  CustomResourceDefinition: CustomResourceDefinition;
  CustomResourceDefinitionList: CustomResourceDefinitionList;
  DaemonSet: DaemonSet;
  DaemonSetList: DaemonSetList;
  DeleteOptions: DeleteOptions;
  Deployment: Deployment;
  DeploymentList: DeploymentList;
  EndpointSlice: EndpointSlice;
  EndpointSliceList: EndpointSliceList;
  Endpoints: Endpoints;
  EndpointsList: EndpointsList;
  Event: Event;
  EventList: EventList;
  EventsV1Event: EventsV1Event;
  EventsV1EventList: EventsV1EventList;
  FlowSchema: FlowSchema;
  FlowSchemaList: FlowSchemaList;
  IPAddress: IPAddress;
  IPAddressList: IPAddressList;
  Ingress: Ingress;
  IngressClass: IngressClass;
  IngressClassList: IngressClassList;
  IngressList: IngressList;
  Job: Job;
  JobList: JobList;
  Lease: Lease;
  LeaseList: LeaseList;
  LimitRange: LimitRange;
  LimitRangeList: LimitRangeList;
  LocalSubjectAccessReview: LocalSubjectAccessReview;
  MutatingWebhookConfiguration: MutatingWebhookConfiguration;
  MutatingWebhookConfigurationList: MutatingWebhookConfigurationList;
  Namespace: Namespace;
  NamespaceList: NamespaceList;
  NetworkPolicy: NetworkPolicy;
  NetworkPolicyList: NetworkPolicyList;
  Node: Node;
  NodeList: NodeList;
  PersistentVolume: PersistentVolume;
  PersistentVolumeClaim: PersistentVolumeClaim;
  PersistentVolumeClaimList: PersistentVolumeClaimList;
  PersistentVolumeList: PersistentVolumeList;
  Pod: Pod;
  PodDisruptionBudget: PodDisruptionBudget;
  PodDisruptionBudgetList: PodDisruptionBudgetList;
  PodList: PodList;
  PodTemplate: PodTemplate;
  PodTemplateList: PodTemplateList;
  PriorityClass: PriorityClass;
  PriorityClassList: PriorityClassList;
  PriorityLevelConfiguration: PriorityLevelConfiguration;
  PriorityLevelConfigurationList: PriorityLevelConfigurationList;
  ReplicaSet: ReplicaSet;
  ReplicaSetList: ReplicaSetList;
  ReplicationController: ReplicationController;
  ReplicationControllerList: ReplicationControllerList;
  ResourceQuota: ResourceQuota;
  ResourceQuotaList: ResourceQuotaList;
  Role: Role;
  RoleBinding: RoleBinding;
  RoleBindingList: RoleBindingList;
  RoleList: RoleList;
  RuntimeClass: RuntimeClass;
  RuntimeClassList: RuntimeClassList;
  Scale: Scale;
  Secret: Secret;
  SecretList: SecretList;
  SelfSubjectAccessReview: SelfSubjectAccessReview;
  SelfSubjectReview: SelfSubjectReview;
  SelfSubjectRulesReview: SelfSubjectRulesReview;
  Service: Service;
  ServiceAccount: ServiceAccount;
  ServiceAccountList: ServiceAccountList;
  ServiceCIDR: ServiceCIDR;
  ServiceCIDRList: ServiceCIDRList;
  ServiceList: ServiceList;
  StatefulSet: StatefulSet;
  StatefulSetList: StatefulSetList;
  Status: Status;
  StorageClass: StorageClass;
  StorageClassList: StorageClassList;
  SubjectAccessReview: SubjectAccessReview;
  TokenReview: TokenReview;
  ValidatingAdmissionPolicy: ValidatingAdmissionPolicy;
  ValidatingAdmissionPolicyBinding: ValidatingAdmissionPolicyBinding;
  ValidatingAdmissionPolicyBindingList: ValidatingAdmissionPolicyBindingList;
  ValidatingAdmissionPolicyList: ValidatingAdmissionPolicyList;
  ValidatingWebhookConfiguration: ValidatingWebhookConfiguration;
  ValidatingWebhookConfigurationList: ValidatingWebhookConfigurationList;
  VolumeAttachment: VolumeAttachment;
  VolumeAttachmentList: VolumeAttachmentList;
};

/** Each kind's `kind` and the `apiVersion`s it is served at, by type name. */
export const BUILTIN_KINDS = {
  APIService: { kind: 'APIService', apiVersions: ['apiregistration.k8s.io/v1'] },
  APIServiceList: { kind: 'APIServiceList', apiVersions: ['apiregistration.k8s.io/v1'] },
  AuthenticationV1TokenRequest: { kind: 'TokenRequest', apiVersions: ['authentication.k8s.io/v1'] },
  AutoscalingV1HorizontalPodAutoscaler: {
    kind: 'HorizontalPodAutoscaler',
    apiVersions: ['autoscaling/v1'],
  },
  AutoscalingV1HorizontalPodAutoscalerList: {
    kind: 'HorizontalPodAutoscalerList',
    apiVersions: ['autoscaling/v1'],
  },
  AutoscalingV2HorizontalPodAutoscaler: {
    kind: 'HorizontalPodAutoscaler',
    apiVersions: ['autoscaling/v2'],
  },
  AutoscalingV2HorizontalPodAutoscalerList: {
    kind: 'HorizontalPodAutoscalerList',
    apiVersions: ['autoscaling/v2'],
  },
  Binding: { kind: 'Binding', apiVersions: ['v1'] },
  CSIDriver: { kind: 'CSIDriver', apiVersions: ['storage.k8s.io/v1'] },
  CSIDriverList: { kind: 'CSIDriverList', apiVersions: ['storage.k8s.io/v1'] },
  CSINode: { kind: 'CSINode', apiVersions: ['storage.k8s.io/v1'] },
  CSINodeList: { kind: 'CSINodeList', apiVersions: ['storage.k8s.io/v1'] },
  CSIStorageCapacity: { kind: 'CSIStorageCapacity', apiVersions: ['storage.k8s.io/v1'] },
  CSIStorageCapacityList: { kind: 'CSIStorageCapacityList', apiVersions: ['storage.k8s.io/v1'] },
  CertificateSigningRequest: {
    kind: 'CertificateSigningRequest',
    apiVersions: ['certificates.k8s.io/v1'],
  },
  CertificateSigningRequestList: {
    kind: 'CertificateSigningRequestList',
    apiVersions: ['certificates.k8s.io/v1'],
  },
  ClusterRole: { kind: 'ClusterRole', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  ClusterRoleBinding: { kind: 'ClusterRoleBinding', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  ClusterRoleBindingList: {
    kind: 'ClusterRoleBindingList',
    apiVersions: ['rbac.authorization.k8s.io/v1'],
  },
  ClusterRoleList: { kind: 'ClusterRoleList', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  ComponentStatus: { kind: 'ComponentStatus', apiVersions: ['v1'] },
  ComponentStatusList: { kind: 'ComponentStatusList', apiVersions: ['v1'] },
  ConfigMap: { kind: 'ConfigMap', apiVersions: ['v1'] },
  ConfigMapList: { kind: 'ConfigMapList', apiVersions: ['v1'] },
  ControllerRevision: { kind: 'ControllerRevision', apiVersions: ['apps/v1'] },
  ControllerRevisionList: { kind: 'ControllerRevisionList', apiVersions: ['apps/v1'] },
  CronJob: { kind: 'CronJob', apiVersions: ['batch/v1'] },
  CronJobList: { kind: 'CronJobList', apiVersions: ['batch/v1'] },
  CustomResourceDefinition: {
    kind: 'CustomResourceDefinition',
    apiVersions: ['apiextensions.k8s.io/v1'],
  },
  CustomResourceDefinitionList: {
    kind: 'CustomResourceDefinitionList',
    apiVersions: ['apiextensions.k8s.io/v1'],
  },
  DaemonSet: { kind: 'DaemonSet', apiVersions: ['apps/v1'] },
  DaemonSetList: { kind: 'DaemonSetList', apiVersions: ['apps/v1'] },
  DeleteOptions: {
    kind: 'DeleteOptions',
    apiVersions: [
      'v1',
      'admissionregistration.k8s.io/v1',
      'apiextensions.k8s.io/v1',
      'apiregistration.k8s.io/v1',
      'apps/v1',
      'authentication.k8s.io/v1',
      'authorization.k8s.io/v1',
      'autoscaling/v1',
      'autoscaling/v2',
      'batch/v1',
      'certificates.k8s.io/v1',
      'coordination.k8s.io/v1',
      'discovery.k8s.io/v1',
      'events.k8s.io/v1',
      'flowcontrol.apiserver.k8s.io/v1',
      'networking.k8s.io/v1',
      'node.k8s.io/v1',
      'policy/v1',
      'rbac.authorization.k8s.io/v1',
      'scheduling.k8s.io/v1',
      'storage.k8s.io/v1',
    ],
  },
  Deployment: { kind: 'Deployment', apiVersions: ['apps/v1'] },
  DeploymentList: { kind: 'DeploymentList', apiVersions: ['apps/v1'] },
  EndpointSlice: { kind: 'EndpointSlice', apiVersions: ['discovery.k8s.io/v1'] },
  EndpointSliceList: { kind: 'EndpointSliceList', apiVersions: ['discovery.k8s.io/v1'] },
  Endpoints: { kind: 'Endpoints', apiVersions: ['v1'] },
  EndpointsList: { kind: 'EndpointsList', apiVersions: ['v1'] },
  Event: { kind: 'Event', apiVersions: ['v1'] },
  EventList: { kind: 'EventList', apiVersions: ['v1'] },
  EventsV1Event: { kind: 'Event', apiVersions: ['events.k8s.io/v1'] },
  EventsV1EventList: { kind: 'EventList', apiVersions: ['events.k8s.io/v1'] },
  FlowSchema: { kind: 'FlowSchema', apiVersions: ['flowcontrol.apiserver.k8s.io/v1'] },
  FlowSchemaList: { kind: 'FlowSchemaList', apiVersions: ['flowcontrol.apiserver.k8s.io/v1'] },
  IPAddress: { kind: 'IPAddress', apiVersions: ['networking.k8s.io/v1'] },
  IPAddressList: { kind: 'IPAddressList', apiVersions: ['networking.k8s.io/v1'] },
  Ingress: { kind: 'Ingress', apiVersions: ['networking.k8s.io/v1'] },
  IngressClass: { kind: 'IngressClass', apiVersions: ['networking.k8s.io/v1'] },
  IngressClassList: { kind: 'IngressClassList', apiVersions: ['networking.k8s.io/v1'] },
  IngressList: { kind: 'IngressList', apiVersions: ['networking.k8s.io/v1'] },
  Job: { kind: 'Job', apiVersions: ['batch/v1'] },
  JobList: { kind: 'JobList', apiVersions: ['batch/v1'] },
  Lease: { kind: 'Lease', apiVersions: ['coordination.k8s.io/v1'] },
  LeaseList: { kind: 'LeaseList', apiVersions: ['coordination.k8s.io/v1'] },
  LimitRange: { kind: 'LimitRange', apiVersions: ['v1'] },
  LimitRangeList: { kind: 'LimitRangeList', apiVersions: ['v1'] },
  LocalSubjectAccessReview: {
    kind: 'LocalSubjectAccessReview',
    apiVersions: ['authorization.k8s.io/v1'],
  },
  MutatingWebhookConfiguration: {
    kind: 'MutatingWebhookConfiguration',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  MutatingWebhookConfigurationList: {
    kind: 'MutatingWebhookConfigurationList',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  Namespace: { kind: 'Namespace', apiVersions: ['v1'] },
  NamespaceList: { kind: 'NamespaceList', apiVersions: ['v1'] },
  NetworkPolicy: { kind: 'NetworkPolicy', apiVersions: ['networking.k8s.io/v1'] },
  NetworkPolicyList: { kind: 'NetworkPolicyList', apiVersions: ['networking.k8s.io/v1'] },
  Node: { kind: 'Node', apiVersions: ['v1'] },
  NodeList: { kind: 'NodeList', apiVersions: ['v1'] },
  PersistentVolume: { kind: 'PersistentVolume', apiVersions: ['v1'] },
  PersistentVolumeClaim: { kind: 'PersistentVolumeClaim', apiVersions: ['v1'] },
  PersistentVolumeClaimList: { kind: 'PersistentVolumeClaimList', apiVersions: ['v1'] },
  PersistentVolumeList: { kind: 'PersistentVolumeList', apiVersions: ['v1'] },
  Pod: { kind: 'Pod', apiVersions: ['v1'] },
  PodDisruptionBudget: { kind: 'PodDisruptionBudget', apiVersions: ['policy/v1'] },
  PodDisruptionBudgetList: { kind: 'PodDisruptionBudgetList', apiVersions: ['policy/v1'] },
  PodList: { kind: 'PodList', apiVersions: ['v1'] },
  PodTemplate: { kind: 'PodTemplate', apiVersions: ['v1'] },
  PodTemplateList: { kind: 'PodTemplateList', apiVersions: ['v1'] },
  PriorityClass: { kind: 'PriorityClass', apiVersions: ['scheduling.k8s.io/v1'] },
  PriorityClassList: { kind: 'PriorityClassList', apiVersions: ['scheduling.k8s.io/v1'] },
  PriorityLevelConfiguration: {
    kind: 'PriorityLevelConfiguration',
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1'],
  },
  PriorityLevelConfigurationList: {
    kind: 'PriorityLevelConfigurationList',
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1'],
  },
  ReplicaSet: { kind: 'ReplicaSet', apiVersions: ['apps/v1'] },
  ReplicaSetList: { kind: 'ReplicaSetList', apiVersions: ['apps/v1'] },
  ReplicationController: { kind: 'ReplicationController', apiVersions: ['v1'] },
  ReplicationControllerList: { kind: 'ReplicationControllerList', apiVersions: ['v1'] },
  ResourceQuota: { kind: 'ResourceQuota', apiVersions: ['v1'] },
  ResourceQuotaList: { kind: 'ResourceQuotaList', apiVersions: ['v1'] },
  Role: { kind: 'Role', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  RoleBinding: { kind: 'RoleBinding', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  RoleBindingList: { kind: 'RoleBindingList', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  RoleList: { kind: 'RoleList', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  RuntimeClass: { kind: 'RuntimeClass', apiVersions: ['node.k8s.io/v1'] },
  RuntimeClassList: { kind: 'RuntimeClassList', apiVersions: ['node.k8s.io/v1'] },
  Scale: { kind: 'Scale', apiVersions: ['autoscaling/v1'] },
  Secret: { kind: 'Secret', apiVersions: ['v1'] },
  SecretList: { kind: 'SecretList', apiVersions: ['v1'] },
  SelfSubjectAccessReview: {
    kind: 'SelfSubjectAccessReview',
    apiVersions: ['authorization.k8s.io/v1'],
  },
  SelfSubjectReview: { kind: 'SelfSubjectReview', apiVersions: ['authentication.k8s.io/v1'] },
  SelfSubjectRulesReview: {
    kind: 'SelfSubjectRulesReview',
    apiVersions: ['authorization.k8s.io/v1'],
  },
  Service: { kind: 'Service', apiVersions: ['v1'] },
  ServiceAccount: { kind: 'ServiceAccount', apiVersions: ['v1'] },
  ServiceAccountList: { kind: 'ServiceAccountList', apiVersions: ['v1'] },
  ServiceCIDR: { kind: 'ServiceCIDR', apiVersions: ['networking.k8s.io/v1'] },
  ServiceCIDRList: { kind: 'ServiceCIDRList', apiVersions: ['networking.k8s.io/v1'] },
  ServiceList: { kind: 'ServiceList', apiVersions: ['v1'] },
  StatefulSet: { kind: 'StatefulSet', apiVersions: ['apps/v1'] },
  StatefulSetList: { kind: 'StatefulSetList', apiVersions: ['apps/v1'] },
  Status: { kind: 'Status', apiVersions: ['v1'] },
  StorageClass: { kind: 'StorageClass', apiVersions: ['storage.k8s.io/v1'] },
  StorageClassList: { kind: 'StorageClassList', apiVersions: ['storage.k8s.io/v1'] },
  SubjectAccessReview: { kind: 'SubjectAccessReview', apiVersions: ['authorization.k8s.io/v1'] },
  TokenReview: { kind: 'TokenReview', apiVersions: ['authentication.k8s.io/v1'] },
  ValidatingAdmissionPolicy: {
    kind: 'ValidatingAdmissionPolicy',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  ValidatingAdmissionPolicyBinding: {
    kind: 'ValidatingAdmissionPolicyBinding',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  ValidatingAdmissionPolicyBindingList: {
    kind: 'ValidatingAdmissionPolicyBindingList',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  ValidatingAdmissionPolicyList: {
    kind: 'ValidatingAdmissionPolicyList',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  ValidatingWebhookConfiguration: {
    kind: 'ValidatingWebhookConfiguration',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  ValidatingWebhookConfigurationList: {
    kind: 'ValidatingWebhookConfigurationList',
    apiVersions: ['admissionregistration.k8s.io/v1'],
  },
  VolumeAttachment: { kind: 'VolumeAttachment', apiVersions: ['storage.k8s.io/v1'] },
  VolumeAttachmentList: { kind: 'VolumeAttachmentList', apiVersions: ['storage.k8s.io/v1'] },
} as const;
