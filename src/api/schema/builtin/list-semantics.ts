/**
 * Hand-maintained overlay of upstream's list and map semantics for the built-in kinds' schema
 * closure. @kubernetes/client-node's generated models carry no `x-kubernetes-*` extensions, yet
 * strategic merge patch and server-side apply read nothing else, so the generator
 * (`scripts/gen-builtin-schemas.ts`) merges this table into the component schemas.
 *
 * Source: the `patchStrategy`/`patchMergeKey` struct tags and the `+listType`, `+listMapKey`,
 * `+mapType`, `+structType` markers in upstream `k8s.io/api` (`core/v1`, `apps/v1`, `policy/v1`,
 * `networking/v1`, `storage/v1`), `k8s.io/apimachinery` `meta/v1` and apiextensions-apiserver
 * `apiextensions/v1` types, as published in `api/openapi-spec/v3` (Kubernetes 1.34, the version
 * client-node 1.4's models were generated from).
 *
 * Completeness is enforced by the generator: every array property in the closure must appear
 * here (`NONE` records "upstream has no marker", which means atomic for server-side apply and
 * replace for strategic merge patch), and every entry must name a real property.
 *
 * @module
 */

export interface ListExtensions {
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-patch-strategy'?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
}

export interface DefinitionSemantics {
  /** Extensions on the definition itself (`+structType=atomic` → `x-kubernetes-map-type: atomic`). */
  readonly self?: ListExtensions;
  /** Extensions on properties, by JSON field name. */
  readonly properties?: Readonly<Record<string, ListExtensions>>;
}

/** No upstream marker: atomic for apply, replaced by strategic merge patch. */
export const NONE: ListExtensions = {};
const ATOMIC: ListExtensions = { 'x-kubernetes-list-type': 'atomic' };
const SET: ListExtensions = { 'x-kubernetes-list-type': 'set' };
const ATOMIC_STRUCT: DefinitionSemantics = { self: { 'x-kubernetes-map-type': 'atomic' } };
const GRANULAR: ListExtensions = { 'x-kubernetes-map-type': 'granular' };
const ATOMIC_MAP: ListExtensions = { 'x-kubernetes-map-type': 'atomic' };
/** `patchStrategy:"merge"` on a list of scalars with `+listType=set` (finalizers, podCIDRs). */
const MERGE_SET: ListExtensions = {
  'x-kubernetes-list-type': 'set',
  'x-kubernetes-patch-strategy': 'merge',
};

/** `+listType=map` keyed by `keys`, without a strategic-merge-patch strategy. */
function mapList(...keys: string[]): ListExtensions {
  return { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys };
}

/** `+listType=map` plus `patchStrategy:"merge" patchMergeKey:"<mergeKey>"`. */
function mergeMap(mergeKey: string, keys: readonly string[] = [mergeKey], strategy = 'merge') {
  return {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': keys,
    'x-kubernetes-patch-merge-key': mergeKey,
    'x-kubernetes-patch-strategy': strategy,
  } satisfies ListExtensions;
}

const CONDITIONS = mergeMap('type');

const CORE = 'io.k8s.api.core.v1.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const APPS = 'io.k8s.api.apps.v1.';
const NET = 'io.k8s.api.networking.v1.';
const EXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

/** Container and EphemeralContainer share upstream's `ContainerCommon` fields. */
const CONTAINER_LISTS: Readonly<Record<string, ListExtensions>> = {
  args: ATOMIC,
  command: ATOMIC,
  env: mergeMap('name'),
  envFrom: ATOMIC,
  ports: mergeMap('containerPort', ['containerPort', 'protocol']),
  resizePolicy: ATOMIC,
  restartPolicyRules: ATOMIC,
  volumeDevices: mergeMap('devicePath'),
  volumeMounts: mergeMap('mountPath'),
};

const AFFINITY_TERMS: DefinitionSemantics = {
  properties: {
    preferredDuringSchedulingIgnoredDuringExecution: ATOMIC,
    requiredDuringSchedulingIgnoredDuringExecution: ATOMIC,
  },
};

const CORE_SEMANTICS: Record<string, DefinitionSemantics> = {
  Capabilities: { properties: { add: ATOMIC, drop: ATOMIC } },
  CephFSPersistentVolumeSource: { properties: { monitors: ATOMIC } },
  CephFSVolumeSource: { properties: { monitors: ATOMIC } },
  ConfigMapKeySelector: ATOMIC_STRUCT,
  ConfigMapProjection: { properties: { items: ATOMIC } },
  ConfigMapVolumeSource: { properties: { items: ATOMIC } },
  Container: { properties: CONTAINER_LISTS },
  ContainerImage: { properties: { names: ATOMIC } },
  ContainerRestartRuleOnExitCodes: { properties: { values: { 'x-kubernetes-list-type': 'set' } } },
  ContainerStatus: {
    properties: {
      allocatedResourcesStatus: mergeMap('name'),
      volumeMounts: mergeMap('mountPath'),
    },
  },
  DownwardAPIProjection: { properties: { items: ATOMIC } },
  DownwardAPIVolumeSource: { properties: { items: ATOMIC } },
  EndpointAddress: ATOMIC_STRUCT,
  EndpointPort: ATOMIC_STRUCT,
  EndpointSubset: {
    properties: { addresses: ATOMIC, notReadyAddresses: ATOMIC, ports: ATOMIC },
  },
  Endpoints: { properties: { subsets: ATOMIC } },
  EphemeralContainer: { properties: CONTAINER_LISTS },
  ExecAction: { properties: { command: ATOMIC } },
  FCVolumeSource: { properties: { targetWWNs: ATOMIC, wwids: ATOMIC } },
  FileKeySelector: ATOMIC_STRUCT,
  HTTPGetAction: { properties: { httpHeaders: ATOMIC } },
  HostAlias: { properties: { hostnames: ATOMIC } },
  ISCSIPersistentVolumeSource: { properties: { portals: ATOMIC } },
  ISCSIVolumeSource: { properties: { portals: ATOMIC } },
  LinuxContainerUser: { properties: { supplementalGroups: ATOMIC } },
  LoadBalancerIngress: { properties: { ports: ATOMIC } },
  LoadBalancerStatus: { properties: { ingress: ATOMIC } },
  LocalObjectReference: ATOMIC_STRUCT,
  NamespaceSpec: { properties: { finalizers: ATOMIC } },
  NamespaceStatus: { properties: { conditions: CONDITIONS } },
  NodeAffinity: { properties: { preferredDuringSchedulingIgnoredDuringExecution: ATOMIC } },
  NodeSelector: { ...ATOMIC_STRUCT, properties: { nodeSelectorTerms: ATOMIC } },
  NodeSelectorRequirement: { properties: { values: ATOMIC } },
  NodeSelectorTerm: {
    ...ATOMIC_STRUCT,
    properties: { matchExpressions: ATOMIC, matchFields: ATOMIC },
  },
  NodeSpec: { properties: { podCIDRs: MERGE_SET, taints: ATOMIC } },
  NodeStatus: {
    properties: {
      addresses: mergeMap('type'),
      conditions: CONDITIONS,
      images: ATOMIC,
      runtimeHandlers: ATOMIC,
      volumesAttached: ATOMIC,
      volumesInUse: ATOMIC,
    },
  },
  ObjectFieldSelector: ATOMIC_STRUCT,
  ObjectReference: ATOMIC_STRUCT,
  PersistentVolumeClaimSpec: { properties: { accessModes: ATOMIC } },
  PersistentVolumeClaimStatus: {
    properties: {
      accessModes: ATOMIC,
      allocatedResourceStatuses: GRANULAR,
      conditions: CONDITIONS,
    },
  },
  // `claimRef` is an ObjectReference (atomic struct) that PersistentVolumeSpec marks granular.
  PersistentVolumeSpec: {
    properties: { accessModes: ATOMIC, claimRef: GRANULAR, mountOptions: ATOMIC },
  },
  PodAffinity: AFFINITY_TERMS,
  PodAffinityTerm: {
    properties: { matchLabelKeys: ATOMIC, mismatchLabelKeys: ATOMIC, namespaces: ATOMIC },
  },
  PodAntiAffinity: AFFINITY_TERMS,
  PodDNSConfig: { properties: { nameservers: ATOMIC, options: ATOMIC, searches: ATOMIC } },
  PodExtendedResourceClaimStatus: { properties: { requestMappings: ATOMIC } },
  PodSecurityContext: { properties: { supplementalGroups: ATOMIC, sysctls: ATOMIC } },
  PodSpec: {
    properties: {
      containers: mergeMap('name'),
      ephemeralContainers: mergeMap('name'),
      hostAliases: mergeMap('ip'),
      imagePullSecrets: mergeMap('name'),
      initContainers: mergeMap('name'),
      nodeSelector: ATOMIC_MAP,
      readinessGates: ATOMIC,
      resourceClaims: mergeMap('name', ['name'], 'merge,retainKeys'),
      schedulingGates: mergeMap('name'),
      tolerations: ATOMIC,
      topologySpreadConstraints: mergeMap('topologyKey', ['topologyKey', 'whenUnsatisfiable']),
      volumes: mergeMap('name', ['name'], 'merge,retainKeys'),
    },
  },
  PodStatus: {
    properties: {
      conditions: CONDITIONS,
      containerStatuses: ATOMIC,
      ephemeralContainerStatuses: ATOMIC,
      // Upstream pairs a merge key with `+listType=atomic` here (unlike podIPs, a map on `ip`).
      hostIPs: {
        ...ATOMIC,
        'x-kubernetes-patch-merge-key': 'ip',
        'x-kubernetes-patch-strategy': 'merge',
      },
      initContainerStatuses: ATOMIC,
      podIPs: mergeMap('ip'),
      resourceClaimStatuses: mergeMap('name', ['name'], 'merge,retainKeys'),
    },
  },
  ProjectedVolumeSource: { properties: { sources: ATOMIC } },
  RBDPersistentVolumeSource: { properties: { monitors: ATOMIC } },
  RBDVolumeSource: { properties: { monitors: ATOMIC } },
  ResourceFieldSelector: ATOMIC_STRUCT,
  ResourceRequirements: { properties: { claims: mapList('name') } },
  ResourceStatus: { properties: { resources: mapList('resourceID') } },
  SecretKeySelector: ATOMIC_STRUCT,
  SecretProjection: { properties: { items: ATOMIC } },
  SecretReference: ATOMIC_STRUCT,
  SecretVolumeSource: { properties: { items: ATOMIC } },
  ServiceAccount: { properties: { imagePullSecrets: ATOMIC, secrets: mergeMap('name') } },
  // ResourceQuota and LimitRange: every list is `+listType=atomic` upstream.
  LimitRangeSpec: { properties: { limits: ATOMIC } },
  ResourceQuotaSpec: { properties: { scopes: ATOMIC } },
  ScopeSelector: { properties: { matchExpressions: ATOMIC } },
  ScopedResourceSelectorRequirement: { properties: { values: ATOMIC } },
  ServiceSpec: {
    properties: {
      clusterIPs: ATOMIC,
      externalIPs: ATOMIC,
      ipFamilies: ATOMIC,
      loadBalancerSourceRanges: ATOMIC,
      ports: mergeMap('port', ['port', 'protocol']),
      selector: ATOMIC_MAP,
    },
  },
  ServiceStatus: { properties: { conditions: CONDITIONS } },
  TopologySelectorLabelRequirement: { properties: { values: ATOMIC } },
  TopologySelectorTerm: { ...ATOMIC_STRUCT, properties: { matchLabelExpressions: ATOMIC } },
  TopologySpreadConstraint: { properties: { matchLabelKeys: ATOMIC } },
  TypedLocalObjectReference: ATOMIC_STRUCT,
};

const META_SEMANTICS: Record<string, DefinitionSemantics> = {
  DeleteOptions: { properties: { dryRun: ATOMIC } },
  FieldSelectorRequirement: { properties: { values: ATOMIC } },
  LabelSelector: { ...ATOMIC_STRUCT, properties: { matchExpressions: ATOMIC } },
  LabelSelectorRequirement: { properties: { values: ATOMIC } },
  ObjectMeta: {
    properties: { finalizers: MERGE_SET, managedFields: ATOMIC, ownerReferences: mergeMap('uid') },
  },
  OwnerReference: ATOMIC_STRUCT,
  StatusDetails: { properties: { causes: ATOMIC } },
};

const APPS_SEMANTICS: Record<string, DefinitionSemantics> = {
  DeploymentSpec: { properties: { strategy: { 'x-kubernetes-patch-strategy': 'retainKeys' } } },
  DeploymentStatus: { properties: { conditions: CONDITIONS } },
  ReplicaSetStatus: { properties: { conditions: CONDITIONS } },
  StatefulSetSpec: { properties: { volumeClaimTemplates: ATOMIC } },
  StatefulSetStatus: { properties: { conditions: CONDITIONS } },
};

const NETWORKING_SEMANTICS: Record<string, DefinitionSemantics> = {
  IPBlock: { properties: { except: ATOMIC } },
  NetworkPolicyEgressRule: { properties: { ports: ATOMIC, to: ATOMIC } },
  NetworkPolicyIngressRule: { properties: { from: ATOMIC, ports: ATOMIC } },
  NetworkPolicySpec: { properties: { egress: ATOMIC, ingress: ATOMIC, policyTypes: ATOMIC } },
};

const APIEXTENSIONS_SEMANTICS: Record<string, DefinitionSemantics> = {
  CustomResourceDefinitionNames: { properties: { categories: ATOMIC, shortNames: ATOMIC } },
  CustomResourceDefinitionSpec: { properties: { versions: ATOMIC } },
  CustomResourceDefinitionStatus: {
    properties: { conditions: mapList('type'), storedVersions: ATOMIC },
  },
  CustomResourceDefinitionVersion: {
    properties: { additionalPrinterColumns: ATOMIC, selectableFields: ATOMIC },
  },
  JSONSchemaProps: {
    properties: {
      allOf: ATOMIC,
      anyOf: ATOMIC,
      enum: ATOMIC,
      oneOf: ATOMIC,
      required: ATOMIC,
      'x-kubernetes-list-map-keys': ATOMIC,
      'x-kubernetes-validations': mergeMap('rule'),
    },
  },
  WebhookConversion: { properties: { conversionReviewVersions: ATOMIC } },
};

/** The kinds issue 17 added, read from upstream's published OpenAPI (Kubernetes 1.34) markers. */
const MORE_KINDS: Record<string, DefinitionSemantics> = {
  'io.k8s.api.admissionregistration.v1.MatchResources': {
    ...ATOMIC_STRUCT,
    properties: { excludeResourceRules: ATOMIC, resourceRules: ATOMIC },
  },
  'io.k8s.api.admissionregistration.v1.NamedRuleWithOperations': {
    ...ATOMIC_STRUCT,
    properties: {
      apiGroups: ATOMIC,
      apiVersions: ATOMIC,
      operations: ATOMIC,
      resourceNames: ATOMIC,
      resources: ATOMIC,
    },
  },
  'io.k8s.api.admissionregistration.v1.ParamKind': { ...ATOMIC_STRUCT },
  'io.k8s.api.admissionregistration.v1.ParamRef': { ...ATOMIC_STRUCT },
  'io.k8s.api.admissionregistration.v1.TypeChecking': {
    properties: { expressionWarnings: ATOMIC },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec': {
    properties: { validationActions: SET },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec': {
    properties: {
      auditAnnotations: ATOMIC,
      matchConditions: mergeMap('name'),
      validations: ATOMIC,
      variables: mergeMap('name'),
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus': {
    properties: { conditions: CONDITIONS },
  },
  'io.k8s.api.admissionregistration.v1.Variable': { ...ATOMIC_STRUCT },
  'io.k8s.api.admissionregistration.v1.MutatingWebhook': {
    properties: {
      admissionReviewVersions: ATOMIC,
      matchConditions: mergeMap('name'),
      rules: ATOMIC,
    },
  },
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration': {
    properties: { webhooks: mergeMap('name') },
  },
  'io.k8s.api.admissionregistration.v1.RuleWithOperations': {
    properties: { apiGroups: ATOMIC, apiVersions: ATOMIC, operations: ATOMIC, resources: ATOMIC },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhook': {
    properties: {
      admissionReviewVersions: ATOMIC,
      matchConditions: mergeMap('name'),
      rules: ATOMIC,
    },
  },
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration': {
    properties: { webhooks: mergeMap('name') },
  },
  'io.k8s.api.apps.v1.DaemonSetStatus': {
    properties: {
      conditions: CONDITIONS,
    },
  },
  'io.k8s.api.authentication.v1.TokenRequestSpec': { properties: { audiences: ATOMIC } },
  'io.k8s.api.authentication.v1.TokenReviewSpec': { properties: { audiences: ATOMIC } },
  'io.k8s.api.authentication.v1.TokenReviewStatus': { properties: { audiences: ATOMIC } },
  'io.k8s.api.authentication.v1.UserInfo': { properties: { groups: ATOMIC } },
  'io.k8s.api.authorization.v1.FieldSelectorAttributes': { properties: { requirements: ATOMIC } },
  'io.k8s.api.authorization.v1.LabelSelectorAttributes': { properties: { requirements: ATOMIC } },
  'io.k8s.api.authorization.v1.NonResourceRule': {
    properties: { nonResourceURLs: ATOMIC, verbs: ATOMIC },
  },
  'io.k8s.api.authorization.v1.ResourceRule': {
    properties: { apiGroups: ATOMIC, resourceNames: ATOMIC, resources: ATOMIC, verbs: ATOMIC },
  },
  'io.k8s.api.authorization.v1.SubjectAccessReviewSpec': { properties: { groups: ATOMIC } },
  'io.k8s.api.authorization.v1.SubjectRulesReviewStatus': {
    properties: { nonResourceRules: ATOMIC, resourceRules: ATOMIC },
  },
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference': {
    ...ATOMIC_STRUCT,
  },
  'io.k8s.api.autoscaling.v2.HPAScalingRules': {
    properties: { policies: ATOMIC },
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec': {
    properties: { metrics: ATOMIC },
  },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': {
    properties: {
      conditions: CONDITIONS,
      currentMetrics: ATOMIC,
    },
  },
  'io.k8s.api.batch.v1.CronJobStatus': {
    properties: { active: ATOMIC },
  },
  'io.k8s.api.batch.v1.JobStatus': {
    properties: {
      conditions: {
        ...ATOMIC,
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
  'io.k8s.api.batch.v1.PodFailurePolicy': {
    properties: { rules: ATOMIC },
  },
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement': {
    properties: { values: SET },
  },
  'io.k8s.api.batch.v1.PodFailurePolicyRule': {
    properties: { onPodConditions: ATOMIC },
  },
  'io.k8s.api.batch.v1.SuccessPolicy': {
    properties: { rules: ATOMIC },
  },
  'io.k8s.api.batch.v1.UncountedTerminatedPods': {
    properties: {
      failed: SET,
      succeeded: SET,
    },
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequestSpec': {
    properties: {
      groups: ATOMIC,
      usages: ATOMIC,
    },
  },
  'io.k8s.api.certificates.v1.CertificateSigningRequestStatus': {
    properties: {
      conditions: mapList('type'),
    },
  },
  'io.k8s.api.core.v1.ComponentStatus': {
    properties: {
      conditions: CONDITIONS,
    },
  },
  'io.k8s.api.core.v1.ReplicationControllerSpec': {
    properties: { selector: ATOMIC_MAP },
  },
  'io.k8s.api.core.v1.ReplicationControllerStatus': {
    properties: {
      conditions: CONDITIONS,
    },
  },
  'io.k8s.api.flowcontrol.v1.FlowSchemaSpec': {
    properties: { rules: ATOMIC },
  },
  'io.k8s.api.flowcontrol.v1.FlowSchemaStatus': {
    properties: {
      conditions: CONDITIONS,
    },
  },
  'io.k8s.api.flowcontrol.v1.NonResourcePolicyRule': {
    properties: {
      nonResourceURLs: SET,
      verbs: SET,
    },
  },
  'io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects': {
    properties: {
      nonResourceRules: ATOMIC,
      resourceRules: ATOMIC,
      subjects: ATOMIC,
    },
  },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus': {
    properties: {
      conditions: CONDITIONS,
    },
  },
  'io.k8s.api.flowcontrol.v1.ResourcePolicyRule': {
    properties: {
      apiGroups: SET,
      namespaces: SET,
      resources: SET,
      verbs: SET,
    },
  },
  'io.k8s.api.networking.v1.HTTPIngressRuleValue': {
    properties: { paths: ATOMIC },
  },
  'io.k8s.api.networking.v1.IngressLoadBalancerIngress': {
    properties: { ports: ATOMIC },
  },
  'io.k8s.api.networking.v1.IngressLoadBalancerStatus': {
    properties: { ingress: ATOMIC },
  },
  'io.k8s.api.networking.v1.IngressSpec': {
    properties: {
      rules: ATOMIC,
      tls: ATOMIC,
    },
  },
  'io.k8s.api.networking.v1.IngressTLS': {
    properties: { hosts: ATOMIC },
  },
  'io.k8s.api.networking.v1.ServiceBackendPort': { ...ATOMIC_STRUCT },
  'io.k8s.api.networking.v1.ServiceCIDRSpec': {
    properties: { cidrs: ATOMIC },
  },
  'io.k8s.api.networking.v1.ServiceCIDRStatus': {
    properties: {
      conditions: CONDITIONS,
    },
  },
  'io.k8s.api.node.v1.Scheduling': {
    properties: {
      nodeSelector: ATOMIC_MAP,
      tolerations: ATOMIC,
    },
  },
  'io.k8s.api.storage.v1.CSIDriverSpec': {
    properties: {
      tokenRequests: ATOMIC,
      volumeLifecycleModes: SET,
    },
  },
  'io.k8s.api.storage.v1.CSINodeDriver': {
    properties: { topologyKeys: ATOMIC },
  },
  'io.k8s.api.storage.v1.CSINodeSpec': {
    properties: {
      drivers: mergeMap('name'),
    },
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec': {
    properties: { caBundle: ATOMIC },
  },
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus': {
    properties: {
      conditions: CONDITIONS,
    },
  },
};

function prefixed(
  prefix: string,
  table: Record<string, DefinitionSemantics>,
): [string, DefinitionSemantics][] {
  return Object.entries(table).map(([name, s]) => [prefix + name, s]);
}

/** Upstream list/map semantics by definition name (`io.k8s.api.core.v1.PodSpec`). */
export const LIST_SEMANTICS: Readonly<Record<string, DefinitionSemantics>> = Object.fromEntries([
  ...prefixed(CORE, CORE_SEMANTICS),
  ...prefixed(META, META_SEMANTICS),
  ...prefixed(APPS, APPS_SEMANTICS),
  ['io.k8s.api.policy.v1.PodDisruptionBudgetStatus', { properties: { conditions: CONDITIONS } }],
  ...prefixed(NET, NETWORKING_SEMANTICS),
  [
    'io.k8s.api.storage.v1.StorageClass',
    { properties: { allowedTopologies: ATOMIC, mountOptions: ATOMIC } },
  ],
  // discovery.k8s.io/v1: EndpointPort is `+structType=atomic`, addresses a `+listType=set`.
  ...prefixed('io.k8s.api.discovery.v1.', {
    Endpoint: { properties: { addresses: { 'x-kubernetes-list-type': 'set' } } },
    EndpointHints: { properties: { forNodes: ATOMIC, forZones: ATOMIC } },
    EndpointPort: ATOMIC_STRUCT,
    EndpointSlice: { properties: { endpoints: ATOMIC, ports: ATOMIC } },
  }),
  // rbac.authorization.k8s.io/v1: every list `+listType=atomic`, RoleRef and Subject atomic structs.
  ...prefixed('io.k8s.api.rbac.v1.', {
    AggregationRule: { properties: { clusterRoleSelectors: ATOMIC } },
    ClusterRole: { properties: { rules: ATOMIC } },
    ClusterRoleBinding: { properties: { subjects: ATOMIC } },
    PolicyRule: {
      properties: {
        apiGroups: ATOMIC,
        nonResourceURLs: ATOMIC,
        resourceNames: ATOMIC,
        resources: ATOMIC,
        verbs: ATOMIC,
      },
    },
    Role: { properties: { rules: ATOMIC } },
    RoleBinding: { properties: { subjects: ATOMIC } },
    RoleRef: ATOMIC_STRUCT,
    Subject: ATOMIC_STRUCT,
  }),
  ...prefixed(EXT, APIEXTENSIONS_SEMANTICS),
  ...Object.entries(MORE_KINDS),
]);
