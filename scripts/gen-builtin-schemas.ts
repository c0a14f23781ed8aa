/**
 * Generates `src/api/schema/builtin/components.generated.json`: OpenAPI v3 component schemas
 * (upstream definition names, upstream shape) for every kind fleetyard serves, their List kinds
 * and everything they reference; then, from that JSON, the TypeScript types under
 * `src/api/model/` (`scripts/gen-api-types.ts`, which also emits the celld API's types).
 *
 * Regenerate (after upgrading the pinned `@kubernetes/client-node` dev dependency, or after
 * editing `src/api/schema/builtin/list-semantics.ts`):
 *
 *     node --import tsx scripts/gen-builtin-schemas.ts
 *
 * Inputs: client-node's generated models (`dist/gen/models/*.js` for each property's JSON name,
 * type and format; the matching `*.d.ts` for descriptions and required-ness), plus three small
 * tables here that the models cannot provide: model name → upstream package, which `any`
 * properties are which opaque upstream type, and which string properties are Quantities.
 * The `x-kubernetes-*` list/map semantics come from the list-semantics overlay.
 *
 * The script fails loudly when the models change shape: an unknown `any` property, an array
 * without an overlay entry, or an overlay entry naming a missing property all stop it, so a
 * client-node upgrade cannot silently drop a merge key.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KEY_DEFAULTS } from '../src/api/schema/builtin/key-defaults.js';
import { LIST_SEMANTICS, type ListExtensions } from '../src/api/schema/builtin/list-semantics.js';
import type { GroupVersionKind, Schema } from '../src/api/schema/types.js';
import { readComponents, writeModelFiles } from './gen-api-types.js';

const MODELS = new URL('../node_modules/@kubernetes/client-node/dist/gen/models/', import.meta.url);
const OUTPUT = new URL('../src/api/schema/builtin/components.generated.json', import.meta.url);

/** The kinds the server serves, by client-node model, with their List kinds unless noted. */
const SERVED: readonly (readonly [model: string, group: string, version: string, list: boolean])[] =
  [
    ['V1Namespace', '', 'v1', true],
    ['V1Pod', '', 'v1', true],
    ['V1Service', '', 'v1', true],
    ['V1Endpoints', '', 'v1', true],
    ['V1ConfigMap', '', 'v1', true],
    ['V1Secret', '', 'v1', true],
    ['V1ServiceAccount', '', 'v1', true],
    ['CoreV1Event', '', 'v1', true],
    ['V1Node', '', 'v1', true],
    ['V1PersistentVolumeClaim', '', 'v1', true],
    ['V1PersistentVolume', '', 'v1', true],
    ['EventsV1Event', 'events.k8s.io', 'v1', true],
    ['V1Deployment', 'apps', 'v1', true],
    ['V1ReplicaSet', 'apps', 'v1', true],
    ['V1StatefulSet', 'apps', 'v1', true],
    ['V1ControllerRevision', 'apps', 'v1', true],
    ['V1StorageClass', 'storage.k8s.io', 'v1', true],
    ['V1Lease', 'coordination.k8s.io', 'v1', true],
    ['V1PodDisruptionBudget', 'policy', 'v1', true],
    ['V1EndpointSlice', 'discovery.k8s.io', 'v1', true],
    ['V1NetworkPolicy', 'networking.k8s.io', 'v1', true],
    ['V1Role', 'rbac.authorization.k8s.io', 'v1', true],
    ['V1ClusterRole', 'rbac.authorization.k8s.io', 'v1', true],
    ['V1RoleBinding', 'rbac.authorization.k8s.io', 'v1', true],
    ['V1ClusterRoleBinding', 'rbac.authorization.k8s.io', 'v1', true],
    ['V1ResourceQuota', '', 'v1', true],
    ['V1LimitRange', '', 'v1', true],
    ['V1CustomResourceDefinition', 'apiextensions.k8s.io', 'v1', true],
    ['V1Job', 'batch', 'v1', true],
    ['V1CronJob', 'batch', 'v1', true],
    ['V1DaemonSet', 'apps', 'v1', true],
    ['V1ReplicationController', '', 'v1', true],
    ['V1PodTemplate', '', 'v1', true],
    ['V1ComponentStatus', '', 'v1', true],
    ['V1Binding', '', 'v1', false],
    ['V1HorizontalPodAutoscaler', 'autoscaling', 'v1', true],
    ['V2HorizontalPodAutoscaler', 'autoscaling', 'v2', true],
    ['V1Ingress', 'networking.k8s.io', 'v1', true],
    ['V1IngressClass', 'networking.k8s.io', 'v1', true],
    ['V1ServiceCIDR', 'networking.k8s.io', 'v1', true],
    ['V1IPAddress', 'networking.k8s.io', 'v1', true],
    ['V1PriorityClass', 'scheduling.k8s.io', 'v1', true],
    ['V1RuntimeClass', 'node.k8s.io', 'v1', true],
    ['V1CSIDriver', 'storage.k8s.io', 'v1', true],
    ['V1CSINode', 'storage.k8s.io', 'v1', true],
    ['V1VolumeAttachment', 'storage.k8s.io', 'v1', true],
    ['V1CSIStorageCapacity', 'storage.k8s.io', 'v1', true],
    ['V1CertificateSigningRequest', 'certificates.k8s.io', 'v1', true],
    ['V1APIService', 'apiregistration.k8s.io', 'v1', true],
    ['V1FlowSchema', 'flowcontrol.apiserver.k8s.io', 'v1', true],
    ['V1PriorityLevelConfiguration', 'flowcontrol.apiserver.k8s.io', 'v1', true],
    ['V1ValidatingWebhookConfiguration', 'admissionregistration.k8s.io', 'v1', true],
    ['V1MutatingWebhookConfiguration', 'admissionregistration.k8s.io', 'v1', true],
    ['V1ValidatingAdmissionPolicy', 'admissionregistration.k8s.io', 'v1', true],
    ['V1ValidatingAdmissionPolicyBinding', 'admissionregistration.k8s.io', 'v1', true],
    ['V1TokenReview', 'authentication.k8s.io', 'v1', false],
    ['V1SelfSubjectReview', 'authentication.k8s.io', 'v1', false],
    ['AuthenticationV1TokenRequest', 'authentication.k8s.io', 'v1', false],
    ['V1SubjectAccessReview', 'authorization.k8s.io', 'v1', false],
    ['V1LocalSubjectAccessReview', 'authorization.k8s.io', 'v1', false],
    ['V1SelfSubjectAccessReview', 'authorization.k8s.io', 'v1', false],
    ['V1SelfSubjectRulesReview', 'authorization.k8s.io', 'v1', false],
    ['V1Scale', 'autoscaling', 'v1', false],
    ['V1Status', '', 'v1', false],
    ['V1DeleteOptions', '', 'v1', false],
  ];

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const EXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/** Upstream packages of the non-core models (client-node names drop the package). */
const PACKAGES: Readonly<Record<string, readonly string[]>> = {
  [META]: [
    'Condition',
    'DeleteOptions',
    'FieldSelectorRequirement',
    'LabelSelector',
    'LabelSelectorRequirement',
    'ListMeta',
    'ManagedFieldsEntry',
    'ObjectMeta',
    'OwnerReference',
    'Preconditions',
    'Status',
    'StatusCause',
    'StatusDetails',
  ],
  'io.k8s.api.apps.v1': [
    'ControllerRevision',
    'ControllerRevisionList',
    'DaemonSet',
    'DaemonSetCondition',
    'DaemonSetList',
    'DaemonSetSpec',
    'DaemonSetStatus',
    'DaemonSetUpdateStrategy',
    'Deployment',
    'DeploymentCondition',
    'DeploymentList',
    'DeploymentSpec',
    'DeploymentStatus',
    'DeploymentStrategy',
    'ReplicaSet',
    'ReplicaSetCondition',
    'ReplicaSetList',
    'ReplicaSetSpec',
    'ReplicaSetStatus',
    'RollingUpdateDaemonSet',
    'RollingUpdateDeployment',
    'RollingUpdateStatefulSetStrategy',
    'StatefulSet',
    'StatefulSetCondition',
    'StatefulSetList',
    'StatefulSetOrdinals',
    'StatefulSetPersistentVolumeClaimRetentionPolicy',
    'StatefulSetSpec',
    'StatefulSetStatus',
    'StatefulSetUpdateStrategy',
  ],
  'io.k8s.api.storage.v1': [
    'CSIDriver',
    'CSIDriverList',
    'CSIDriverSpec',
    'CSINode',
    'CSINodeDriver',
    'CSINodeList',
    'CSINodeSpec',
    'CSIStorageCapacity',
    'CSIStorageCapacityList',
    'StorageClass',
    'StorageClassList',
    'VolumeAttachment',
    'VolumeAttachmentList',
    'VolumeAttachmentSource',
    'VolumeAttachmentSpec',
    'VolumeAttachmentStatus',
    'VolumeError',
    'VolumeNodeResources',
  ],
  'io.k8s.api.coordination.v1': ['Lease', 'LeaseList', 'LeaseSpec'],
  'io.k8s.api.discovery.v1': [
    'Endpoint',
    'EndpointConditions',
    'EndpointHints',
    'EndpointSlice',
    'EndpointSliceList',
    'ForNode',
    'ForZone',
  ],
  'io.k8s.api.policy.v1': [
    'Eviction',
    'PodDisruptionBudget',
    'PodDisruptionBudgetList',
    'PodDisruptionBudgetSpec',
    'PodDisruptionBudgetStatus',
  ],
  'io.k8s.api.networking.v1': [
    'HTTPIngressPath',
    'HTTPIngressRuleValue',
    'IPAddress',
    'IPAddressList',
    'IPAddressSpec',
    'IPBlock',
    'Ingress',
    'IngressBackend',
    'IngressClass',
    'IngressClassList',
    'IngressClassParametersReference',
    'IngressClassSpec',
    'IngressList',
    'IngressLoadBalancerIngress',
    'IngressLoadBalancerStatus',
    'IngressPortStatus',
    'IngressRule',
    'IngressServiceBackend',
    'IngressSpec',
    'IngressStatus',
    'IngressTLS',
    'NetworkPolicy',
    'NetworkPolicyEgressRule',
    'NetworkPolicyIngressRule',
    'NetworkPolicyList',
    'NetworkPolicyPeer',
    'NetworkPolicyPort',
    'NetworkPolicySpec',
    'ParentReference',
    'ServiceBackendPort',
    'ServiceCIDR',
    'ServiceCIDRList',
    'ServiceCIDRSpec',
    'ServiceCIDRStatus',
  ],
  'io.k8s.api.rbac.v1': [
    'AggregationRule',
    'ClusterRole',
    'ClusterRoleBinding',
    'ClusterRoleBindingList',
    'ClusterRoleList',
    'PolicyRule',
    'Role',
    'RoleBinding',
    'RoleBindingList',
    'RoleList',
    'RoleRef',
  ],
  'io.k8s.api.autoscaling.v1': [
    'CrossVersionObjectReference',
    'HorizontalPodAutoscaler',
    'HorizontalPodAutoscalerList',
    'HorizontalPodAutoscalerSpec',
    'HorizontalPodAutoscalerStatus',
    'Scale',
    'ScaleSpec',
    'ScaleStatus',
  ],
  'io.k8s.api.batch.v1': [
    'CronJob',
    'CronJobList',
    'CronJobSpec',
    'CronJobStatus',
    'Job',
    'JobCondition',
    'JobList',
    'JobSpec',
    'JobStatus',
    'JobTemplateSpec',
    'PodFailurePolicy',
    'PodFailurePolicyOnExitCodesRequirement',
    'PodFailurePolicyOnPodConditionsPattern',
    'PodFailurePolicyRule',
    'SuccessPolicy',
    'SuccessPolicyRule',
    'UncountedTerminatedPods',
  ],
  'io.k8s.api.certificates.v1': [
    'CertificateSigningRequest',
    'CertificateSigningRequestCondition',
    'CertificateSigningRequestList',
    'CertificateSigningRequestSpec',
    'CertificateSigningRequestStatus',
  ],
  'io.k8s.api.flowcontrol.v1': [
    'ExemptPriorityLevelConfiguration',
    'FlowDistinguisherMethod',
    'FlowSchema',
    'FlowSchemaCondition',
    'FlowSchemaList',
    'FlowSchemaSpec',
    'FlowSchemaStatus',
    'GroupSubject',
    'LimitResponse',
    'LimitedPriorityLevelConfiguration',
    'NonResourcePolicyRule',
    'PolicyRulesWithSubjects',
    'PriorityLevelConfiguration',
    'PriorityLevelConfigurationCondition',
    'PriorityLevelConfigurationList',
    'PriorityLevelConfigurationReference',
    'PriorityLevelConfigurationSpec',
    'PriorityLevelConfigurationStatus',
    'QueuingConfiguration',
    'ResourcePolicyRule',
    'ServiceAccountSubject',
    'UserSubject',
  ],
  'io.k8s.api.node.v1': ['Overhead', 'RuntimeClass', 'RuntimeClassList', 'Scheduling'],
  'io.k8s.api.scheduling.v1': ['PriorityClass', 'PriorityClassList'],
  'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1': [
    'APIService',
    'APIServiceCondition',
    'APIServiceList',
    'APIServiceSpec',
    'APIServiceStatus',
  ],
  'io.k8s.api.admissionregistration.v1': [
    'AuditAnnotation',
    'ExpressionWarning',
    'MatchCondition',
    'MatchResources',
    'MutatingWebhook',
    'MutatingWebhookConfiguration',
    'MutatingWebhookConfigurationList',
    'NamedRuleWithOperations',
    'ParamKind',
    'ParamRef',
    'RuleWithOperations',
    'TypeChecking',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
    'ValidatingAdmissionPolicyBindingList',
    'ValidatingAdmissionPolicyBindingSpec',
    'ValidatingAdmissionPolicyList',
    'ValidatingAdmissionPolicySpec',
    'ValidatingAdmissionPolicyStatus',
    'ValidatingWebhook',
    'ValidatingWebhookConfiguration',
    'ValidatingWebhookConfigurationList',
    'Validation',
    'Variable',
  ],
  'io.k8s.api.authentication.v1': [
    'BoundObjectReference',
    'SelfSubjectReview',
    'SelfSubjectReviewStatus',
    'TokenRequestSpec',
    'TokenRequestStatus',
    'TokenReview',
    'TokenReviewSpec',
    'TokenReviewStatus',
    'UserInfo',
  ],
  'io.k8s.api.authorization.v1': [
    'FieldSelectorAttributes',
    'LabelSelectorAttributes',
    'LocalSubjectAccessReview',
    'NonResourceAttributes',
    'NonResourceRule',
    'ResourceAttributes',
    'ResourceRule',
    'SelfSubjectAccessReview',
    'SelfSubjectAccessReviewSpec',
    'SelfSubjectRulesReview',
    'SelfSubjectRulesReviewSpec',
    'SubjectAccessReview',
    'SubjectAccessReviewSpec',
    'SubjectAccessReviewStatus',
    'SubjectRulesReviewStatus',
  ],
  [EXT]: [
    'CustomResourceColumnDefinition',
    'CustomResourceConversion',
    'CustomResourceDefinition',
    'CustomResourceDefinitionCondition',
    'CustomResourceDefinitionList',
    'CustomResourceDefinitionNames',
    'CustomResourceDefinitionSpec',
    'CustomResourceDefinitionStatus',
    'CustomResourceDefinitionVersion',
    'CustomResourceSubresourceScale',
    'CustomResourceSubresources',
    'CustomResourceValidation',
    'ExternalDocumentation',
    'JSONSchemaProps',
    'SelectableField',
    'ServiceReference',
    'ValidationRule',
    'WebhookClientConfig',
    'WebhookConversion',
  ],
};

/** Models whose name prefix carries the group (`EventsV1Event`), mapped to upstream names. */
const PREFIXED: Readonly<Record<string, string>> = {
  CoreV1: 'io.k8s.api.core.v1',
  EventsV1: 'io.k8s.api.events.v1',
  DiscoveryV1: 'io.k8s.api.discovery.v1',
  RbacV1: 'io.k8s.api.rbac.v1',
  ApiextensionsV1: EXT,
  StorageV1: 'io.k8s.api.storage.v1',
  ApiregistrationV1: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1',
  FlowcontrolV1: 'io.k8s.api.flowcontrol.v1',
  AdmissionregistrationV1: 'io.k8s.api.admissionregistration.v1',
  AuthenticationV1: 'io.k8s.api.authentication.v1',
  V2: 'io.k8s.api.autoscaling.v2',
};

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const TIME = `${META}.Time`;
const MICRO_TIME = `${META}.MicroTime`;

/** `any`-typed properties (client-node erases these opaque types) → upstream definition. */
const OPAQUE: Readonly<Record<string, string>> = {
  'V1ControllerRevision.data': 'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'V1ManagedFieldsEntry.fieldsV1': `${META}.FieldsV1`,
  'V1CustomResourceSubresources.status': `${EXT}.CustomResourceSubresourceStatus`,
  'V1JSONSchemaProps.additionalItems': `${EXT}.JSONSchemaPropsOrBool`,
  'V1JSONSchemaProps.additionalProperties': `${EXT}.JSONSchemaPropsOrBool`,
  'V1JSONSchemaProps.default': `${EXT}.JSON`,
  'V1JSONSchemaProps.dependencies': `${EXT}.JSONSchemaPropsOrStringArray`,
  'V1JSONSchemaProps.enum': `${EXT}.JSON`,
  'V1JSONSchemaProps.example': `${EXT}.JSON`,
  'V1JSONSchemaProps.items': `${EXT}.JSONSchemaPropsOrArray`,
};

/** String (or map-of-string) properties that are `resource.Quantity` upstream. */
const QUANTITIES = new Set([
  'V1CSIStorageCapacity.capacity',
  'V1CSIStorageCapacity.maximumVolumeSize',
  'V1Overhead.podFixed',
  'V2MetricValueStatus.averageValue',
  'V2MetricValueStatus.value',
  'V2MetricTarget.averageValue',
  'V2MetricTarget.value',
  'V2HPAScalingRules.tolerance',
  'V1ContainerStatus.allocatedResources',
  'V1EmptyDirVolumeSource.sizeLimit',
  'V1NodeStatus.allocatable',
  'V1NodeStatus.capacity',
  'V1PersistentVolumeClaimStatus.allocatedResources',
  'V1PersistentVolumeClaimStatus.capacity',
  'V1PersistentVolumeSpec.capacity',
  'V1PodSpec.overhead',
  'V1ResourceFieldSelector.divisor',
  'V1ResourceRequirements.limits',
  'V1ResourceRequirements.requests',
  'V1VolumeResourceRequirements.limits',
  'V1VolumeResourceRequirements.requests',
]);

/** Upstream's scalar and opaque definitions, which client-node has no model for. */
const SPECIAL: Readonly<Record<string, Schema>> = {
  [QUANTITY]: {
    description:
      'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.\n\nThe serialization format is:\n\n``` <quantity>        ::= <signedNumber><suffix>\n\n\t(Note that <suffix> may be empty, from the "" case in <decimalSI>.)\n\n<digit>           ::= 0 | 1 | ... | 9 <digits>          ::= <digit> | <digit><digits> <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits> <sign>            ::= "+" | "-" <signedNumber>    ::= <number> | <sign><number> <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI> <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei\n\n\t(International System of units; See: http://physics.nist.gov/cuu/Units/binary.html)\n\n<decimalSI>       ::= m | "" | k | M | G | T | P | E\n\n\t(Note that 1024 = 1Ki but 1000 = 1k; I didn\'t choose the capitalization.)\n\n<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber> ```',
    oneOf: [{ type: 'string' }, { type: 'number' }],
  },
  [INT_OR_STRING]: {
    description:
      'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
  },
  [TIME]: {
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
    format: 'date-time',
    type: 'string',
  },
  [MICRO_TIME]: {
    description: 'MicroTime is version of Time with microsecond level precision.',
    format: 'date-time',
    type: 'string',
  },
  // Opaque values decode into raw bytes or interface{} upstream: strict decoding never reports
  // unknown fields inside them, which `x-kubernetes-preserve-unknown-fields` says here.
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    description:
      'RawExtension is used to hold extensions in external versions.\n\nTo use this, make a field which has RawExtension as its type in your external, versioned struct, and Object in your internal struct. You also need to register your various plugin types.',
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [`${META}.FieldsV1`]: {
    description:
      "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position of a item in a list 'k:<keys>', where <keys> is a map of  a list item's key fields to their unique values If a key maps to an empty Fields value, the field that key represents is part of the set.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff",
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [`${EXT}.JSON`]: {
    description:
      'JSON represents any valid JSON value. These types are supported: bool, int64, float64, string, []interface{}, map[string]interface{} and nil.',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [`${EXT}.JSONSchemaPropsOrArray`]: {
    description:
      'JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [`${EXT}.JSONSchemaPropsOrBool`]: {
    description:
      'JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [`${EXT}.JSONSchemaPropsOrStringArray`]: {
    description: 'JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [`${EXT}.CustomResourceSubresourceStatus`]: {
    description:
      'CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources. Status is represented by the `.status` JSON path inside of a CustomResource. When set, * exposes a /status subresource for the custom resource * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza * PATCH requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza',
    type: 'object',
  },
};

/** Property descriptions client-node copies from the referenced type, not the field: drop them. */
const TYPE_DESCRIPTIONS = new Set(
  [INT_OR_STRING, MICRO_TIME].map((n) => SPECIAL[n]?.description ?? ''),
);

interface Attribute {
  readonly name: string;
  readonly baseName: string;
  readonly type: string;
  readonly format: string;
}

interface ModelDocs {
  readonly description: string | undefined;
  readonly properties: Map<string, { description: string | undefined; required: boolean }>;
}

function upstreamName(model: string): string {
  for (const [prefix, pkg] of Object.entries(PREFIXED)) {
    if (model.startsWith(prefix)) return `${pkg}.${model.slice(prefix.length)}`;
  }
  const short = model.replace(/^V1/, '');
  for (const [pkg, names] of Object.entries(PACKAGES)) {
    if (names.includes(short)) return `${pkg}.${short}`;
  }
  return `io.k8s.api.core.v1.${short}`;
}

async function loadAttributes(model: string): Promise<readonly Attribute[]> {
  const mod = (await import(new URL(`${model}.js`, MODELS).href)) as Record<string, unknown>;
  const cls = mod[model] as { attributeTypeMap?: readonly Attribute[] } | undefined;
  if (!cls?.attributeTypeMap) throw new Error(`model ${model} has no attributeTypeMap`);
  return cls.attributeTypeMap;
}

/** JSDoc text as the generator escaped it (`\"`, `\'`) back to plain text. */
function docText(raw: string): string {
  return raw
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim()
    .replace(/\\(["'\\])/g, '$1');
}

function loadDocs(model: string): ModelDocs {
  const text = readFileSync(new URL(`${model}.d.ts`, MODELS), 'utf8');
  const classDoc = /\/\*\*\n((?:(?!\*\/)[\s\S])*)\*\/\nexport declare class /.exec(text);
  const properties = new Map<string, { description: string | undefined; required: boolean }>();
  const prop = /(?:\/\*\*\n((?:(?!\*\/)[\s\S])*)\*\/\n)?\s{4}'([^']+)'(\??):/g;
  for (const m of text.matchAll(prop)) {
    const description = m[1] === undefined ? undefined : docText(m[1]);
    properties.set(m[2] ?? '', { description, required: m[3] !== '?' });
  }
  return { description: classDoc?.[1] ? docText(classDoc[1]) : undefined, properties };
}

const REF = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const PRIMITIVE_MODELS = new Set([
  'string',
  'number',
  'boolean',
  'Date',
  'any',
  'IntOrString',
  'V1MicroTime',
]);

/** The schema of one client-node type expression; `pending` collects referenced models. */
function typeSchema(type: string, format: string, key: string, pending: string[]): Schema {
  const array = /^Array<(.+)>$/.exec(type);
  if (array?.[1]) return { type: 'array', items: typeSchema(array[1], format, key, pending) };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map?.[1]) {
    return { type: 'object', additionalProperties: typeSchema(map[1], format, key, pending) };
  }
  switch (type) {
    case 'string':
      if (QUANTITIES.has(key)) return REF(QUANTITY);
      return format === '' ? { type: 'string' } : { type: 'string', format };
    case 'number':
      if (format === 'int32' || format === 'int64') return { type: 'integer', format };
      return format === '' ? { type: 'number' } : { type: 'number', format };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
      return REF(format === 'date-time-micro' ? MICRO_TIME : TIME);
    case 'V1MicroTime':
      return REF(MICRO_TIME);
    case 'IntOrString':
      return REF(INT_OR_STRING);
    case 'any': {
      const opaque = OPAQUE[key];
      if (!opaque) throw new Error(`untyped property ${key}: add it to OPAQUE`);
      return REF(opaque);
    }
    default:
      pending.push(type);
      return REF(upstreamName(type));
  }
}

/** Upstream wraps a described (or extended) `$ref` property as `allOf: [{$ref}]`. */
function withExtras(base: Schema, extras: Schema): Schema {
  if (Object.keys(extras).length === 0) return base;
  if (base.$ref !== undefined) return { allOf: [base], ...extras };
  return { ...base, ...extras };
}

function checkArraysCovered(def: string, model: string, properties: Record<string, Schema>) {
  const overlay = LIST_SEMANTICS[def]?.properties ?? {};
  for (const [name, schema] of Object.entries(properties)) {
    const isList = schema.type === 'array';
    const isListKindItems = name === 'items' && model.endsWith('List');
    if (isList && !isListKindItems && !(name in overlay) && !OPAQUE[`${model}.${name}`]) {
      throw new Error(`${def}.${name} is a list without an entry in list-semantics.ts`);
    }
  }
  for (const name of Object.keys(overlay)) {
    if (!(name in properties)) throw new Error(`list-semantics.ts names missing ${def}.${name}`);
  }
}

async function modelSchema(model: string, pending: string[]): Promise<Schema> {
  const def = upstreamName(model);
  const docs = loadDocs(model);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const overlay = LIST_SEMANTICS[def]?.properties ?? {};
  const attributes = [...(await loadAttributes(model))].sort((a, b) =>
    a.baseName < b.baseName ? -1 : 1,
  );
  for (const attr of attributes) {
    const key = `${model}.${attr.baseName}`;
    const doc = docs.properties.get(attr.name);
    if (doc?.required) required.push(attr.baseName);
    const extras: Record<string, unknown> = {};
    const description = doc?.description;
    if (description && !TYPE_DESCRIPTIONS.has(description)) extras.description = description;
    Object.assign(extras, overlay[attr.baseName] satisfies ListExtensions | undefined);
    const keyDefault = KEY_DEFAULTS[def]?.[attr.baseName];
    if (keyDefault !== undefined) extras.default = keyDefault;
    properties[attr.baseName] = withExtras(
      typeSchema(attr.type, attr.format, key, pending),
      extras,
    );
  }
  checkArraysCovered(def, model, properties);
  const schema: Record<string, unknown> = { description: docs.description, properties };
  if (required.length > 0) schema.required = required;
  schema.type = 'object';
  Object.assign(schema, LIST_SEMANTICS[def]?.self);
  return schema as Schema;
}

function gvkTable(): Map<string, GroupVersionKind[]> {
  const table = new Map<string, GroupVersionKind[]>();
  const kindOf = (model: string) => upstreamName(model).split('.').pop() ?? model;
  for (const [model, group, version, list] of SERVED) {
    if (model === 'V1DeleteOptions') continue;
    table.set(upstreamName(model), [{ group, kind: kindOf(model), version }]);
    if (list) {
      table.set(upstreamName(`${model}List`), [{ group, kind: `${kindOf(model)}List`, version }]);
    }
  }
  // Upstream registers DeleteOptions in every group version; list the ones served here.
  const groups = [...new Set(SERVED.map(([, g, v]) => `${g}/${v}`))].sort();
  table.set(
    upstreamName('V1DeleteOptions'),
    groups.map((gv) => {
      const [group = '', version = ''] = gv.split('/');
      return { group, kind: 'DeleteOptions', version };
    }),
  );
  return table;
}

/** Keys sorted at every level, as upstream's Go-marshalled documents are. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

async function main(): Promise<void> {
  const pending = SERVED.flatMap(([model, , , list]) => (list ? [model, `${model}List`] : [model]));
  const components: Record<string, Schema> = { ...SPECIAL };
  const gvks = gvkTable();
  const seen = new Set<string>();
  for (let model = pending.pop(); model !== undefined; model = pending.pop()) {
    if (seen.has(model) || PRIMITIVE_MODELS.has(model)) continue;
    seen.add(model);
    const def = upstreamName(model);
    const schema = await modelSchema(model, pending);
    const gvk = gvks.get(def);
    components[def] = gvk ? { ...schema, 'x-kubernetes-group-version-kind': gvk } : schema;
  }
  for (const def of Object.keys(LIST_SEMANTICS)) {
    if (!components[def]) throw new Error(`list-semantics.ts names ${def}, not in the closure`);
  }
  writeFileSync(OUTPUT, `${JSON.stringify(sortKeys(components))}\n`);
  // The repository's formatter owns the layout, so `biome check .` stays clean.
  const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));
  execFileSync(biome, ['format', '--write', fileURLToPath(OUTPUT)], { stdio: 'ignore' });
  const bytes = readFileSync(OUTPUT).byteLength;
  console.log(`wrote ${Object.keys(components).length} definitions, ${bytes} bytes`);
  // The typed model (src/api/model/) is generated from the JSON as written, so both always agree.
  writeModelFiles(readComponents());
}

await main();
