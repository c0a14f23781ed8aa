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
  CustomResourceDefinition,
  CustomResourceDefinitionList,
} from './apiextensions.generated.js';
import type {
  ControllerRevision,
  ControllerRevisionList,
  Deployment,
  DeploymentList,
  ReplicaSet,
  ReplicaSetList,
  StatefulSet,
  StatefulSetList,
} from './apps.generated.js';
import type { Scale } from './autoscaling.generated.js';
import type { Lease, LeaseList } from './coordination.generated.js';
import type {
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
import type { DeleteOptions, Status } from './meta.generated.js';
import type { NetworkPolicy, NetworkPolicyList } from './networking.generated.js';
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
import type { StorageClass, StorageClassList } from './storage.generated.js';

/** Each kind's type, by type name: what `isKind` and `asKind` narrow to. */
export type BuiltinKinds = {
  ClusterRole: ClusterRole;
  ClusterRoleBinding: ClusterRoleBinding;
  ClusterRoleBindingList: ClusterRoleBindingList;
  ClusterRoleList: ClusterRoleList;
  ConfigMap: ConfigMap;
  ConfigMapList: ConfigMapList;
  ControllerRevision: ControllerRevision;
  ControllerRevisionList: ControllerRevisionList;
  CustomResourceDefinition: CustomResourceDefinition;
  CustomResourceDefinitionList: CustomResourceDefinitionList;
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
  Lease: Lease;
  LeaseList: LeaseList;
  LimitRange: LimitRange;
  LimitRangeList: LimitRangeList;
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
  ReplicaSet: ReplicaSet;
  ReplicaSetList: ReplicaSetList;
  ResourceQuota: ResourceQuota;
  ResourceQuotaList: ResourceQuotaList;
  Role: Role;
  RoleBinding: RoleBinding;
  RoleBindingList: RoleBindingList;
  RoleList: RoleList;
  Scale: Scale;
  Secret: Secret;
  SecretList: SecretList;
  Service: Service;
  ServiceAccount: ServiceAccount;
  ServiceAccountList: ServiceAccountList;
  ServiceList: ServiceList;
  StatefulSet: StatefulSet;
  StatefulSetList: StatefulSetList;
  Status: Status;
  StorageClass: StorageClass;
  StorageClassList: StorageClassList;
};

/** Each kind's `kind` and the `apiVersion`s it is served at, by type name. */
export const BUILTIN_KINDS = {
  ClusterRole: { kind: 'ClusterRole', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  ClusterRoleBinding: { kind: 'ClusterRoleBinding', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  ClusterRoleBindingList: {
    kind: 'ClusterRoleBindingList',
    apiVersions: ['rbac.authorization.k8s.io/v1'],
  },
  ClusterRoleList: { kind: 'ClusterRoleList', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  ConfigMap: { kind: 'ConfigMap', apiVersions: ['v1'] },
  ConfigMapList: { kind: 'ConfigMapList', apiVersions: ['v1'] },
  ControllerRevision: { kind: 'ControllerRevision', apiVersions: ['apps/v1'] },
  ControllerRevisionList: { kind: 'ControllerRevisionList', apiVersions: ['apps/v1'] },
  CustomResourceDefinition: {
    kind: 'CustomResourceDefinition',
    apiVersions: ['apiextensions.k8s.io/v1'],
  },
  CustomResourceDefinitionList: {
    kind: 'CustomResourceDefinitionList',
    apiVersions: ['apiextensions.k8s.io/v1'],
  },
  DeleteOptions: {
    kind: 'DeleteOptions',
    apiVersions: [
      'v1',
      'apiextensions.k8s.io/v1',
      'apps/v1',
      'autoscaling/v1',
      'coordination.k8s.io/v1',
      'discovery.k8s.io/v1',
      'events.k8s.io/v1',
      'networking.k8s.io/v1',
      'policy/v1',
      'rbac.authorization.k8s.io/v1',
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
  Lease: { kind: 'Lease', apiVersions: ['coordination.k8s.io/v1'] },
  LeaseList: { kind: 'LeaseList', apiVersions: ['coordination.k8s.io/v1'] },
  LimitRange: { kind: 'LimitRange', apiVersions: ['v1'] },
  LimitRangeList: { kind: 'LimitRangeList', apiVersions: ['v1'] },
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
  ReplicaSet: { kind: 'ReplicaSet', apiVersions: ['apps/v1'] },
  ReplicaSetList: { kind: 'ReplicaSetList', apiVersions: ['apps/v1'] },
  ResourceQuota: { kind: 'ResourceQuota', apiVersions: ['v1'] },
  ResourceQuotaList: { kind: 'ResourceQuotaList', apiVersions: ['v1'] },
  Role: { kind: 'Role', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  RoleBinding: { kind: 'RoleBinding', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  RoleBindingList: { kind: 'RoleBindingList', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  RoleList: { kind: 'RoleList', apiVersions: ['rbac.authorization.k8s.io/v1'] },
  Scale: { kind: 'Scale', apiVersions: ['autoscaling/v1'] },
  Secret: { kind: 'Secret', apiVersions: ['v1'] },
  SecretList: { kind: 'SecretList', apiVersions: ['v1'] },
  Service: { kind: 'Service', apiVersions: ['v1'] },
  ServiceAccount: { kind: 'ServiceAccount', apiVersions: ['v1'] },
  ServiceAccountList: { kind: 'ServiceAccountList', apiVersions: ['v1'] },
  ServiceList: { kind: 'ServiceList', apiVersions: ['v1'] },
  StatefulSet: { kind: 'StatefulSet', apiVersions: ['apps/v1'] },
  StatefulSetList: { kind: 'StatefulSetList', apiVersions: ['apps/v1'] },
  Status: { kind: 'Status', apiVersions: ['v1'] },
  StorageClass: { kind: 'StorageClass', apiVersions: ['storage.k8s.io/v1'] },
  StorageClassList: { kind: 'StorageClassList', apiVersions: ['storage.k8s.io/v1'] },
} as const;
