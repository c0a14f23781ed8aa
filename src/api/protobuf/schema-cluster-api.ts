/**
 * Protobuf schema tables of the remaining kinds a v1.33 API server serves: core/v1
 * PodTemplate and ComponentStatus, node.k8s.io/v1 RuntimeClass, storage.k8s.io/v1 CSIDriver,
 * CSINode, VolumeAttachment and CSIStorageCapacity, apiregistration.k8s.io/v1 APIService and
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration. kubectl sends
 * none of them as protobuf today; typed clients (client-go controllers) may, and every served
 * kind decodes (`served-kinds.test.ts`).
 *
 * Numbers from k8s.io/api v0.33 `generated.proto` (kube-aggregator's for APIService), rows in
 * Go struct order. The node, apiregistration and flowcontrol messages are filed under the
 * `core` table group only because `TableGroup` in `schema.ts` has no such groups yet (the
 * names are internal, never on the wire).
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for the kinds above. */
export const clusterApiTables: MessageTables = {
  /** k8s.io.api.core.v1.PodTemplate */
  'core.PodTemplate': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'template', 'core.PodTemplateSpec', 'o'],
  ],
  /** k8s.io.api.core.v1.ComponentStatus */
  'core.ComponentStatus': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'conditions', 'core.ComponentCondition', 'or'],
  ],
  /** k8s.io.api.core.v1.ComponentCondition */
  'core.ComponentCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'message', 'string', 'o'],
    [4, 'error', 'string', 'o'],
  ],
  /** k8s.io.api.node.v1.RuntimeClass */
  'core.RuntimeClass': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'handler', 'string'],
    [3, 'overhead', 'core.RuntimeClassOverhead', 'op'],
    [4, 'scheduling', 'core.RuntimeClassScheduling', 'op'],
  ],
  /** k8s.io.api.node.v1.Overhead */
  'core.RuntimeClassOverhead': [[1, 'podFixed', 'Quantity', 'om']],
  /** k8s.io.api.node.v1.Scheduling */
  'core.RuntimeClassScheduling': [
    [1, 'nodeSelector', 'string', 'om'],
    [2, 'tolerations', 'core.Toleration', 'or'],
  ],
  /** k8s.io.api.storage.v1.CSIDriver */
  'storage.CSIDriver': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'storage.CSIDriverSpec'],
  ],
  /** k8s.io.api.storage.v1.CSIDriverSpec */
  'storage.CSIDriverSpec': [
    [1, 'attachRequired', 'bool', 'op'],
    [2, 'podInfoOnMount', 'bool', 'op'],
    [3, 'volumeLifecycleModes', 'string', 'or'],
    [4, 'storageCapacity', 'bool', 'op'],
    [5, 'fsGroupPolicy', 'string', 'op'],
    [6, 'tokenRequests', 'storage.TokenRequest', 'or'],
    [7, 'requiresRepublish', 'bool', 'op'],
    [8, 'seLinuxMount', 'bool', 'op'],
    [9, 'nodeAllocatableUpdatePeriodSeconds', 'int64', 'op'],
  ],
  /** k8s.io.api.storage.v1.TokenRequest */
  'storage.TokenRequest': [
    [1, 'audience', 'string'],
    [2, 'expirationSeconds', 'int64', 'op'],
  ],
  /** k8s.io.api.storage.v1.CSINode */
  'storage.CSINode': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'storage.CSINodeSpec'],
  ],
  /** k8s.io.api.storage.v1.CSINodeSpec */
  'storage.CSINodeSpec': [[1, 'drivers', 'storage.CSINodeDriver', 'r']],
  /** k8s.io.api.storage.v1.CSINodeDriver */
  'storage.CSINodeDriver': [
    [1, 'name', 'string'],
    [2, 'nodeID', 'string'],
    [3, 'topologyKeys', 'string', 'r'],
    [4, 'allocatable', 'storage.VolumeNodeResources', 'op'],
  ],
  /** k8s.io.api.storage.v1.VolumeNodeResources */
  'storage.VolumeNodeResources': [[1, 'count', 'int32', 'op']],
  /** k8s.io.api.storage.v1.VolumeAttachment */
  'storage.VolumeAttachment': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'storage.VolumeAttachmentSpec'],
    [3, 'status', 'storage.VolumeAttachmentStatus', 'o'],
  ],
  /** k8s.io.api.storage.v1.VolumeAttachmentSpec */
  'storage.VolumeAttachmentSpec': [
    [1, 'attacher', 'string'],
    [2, 'source', 'storage.VolumeAttachmentSource'],
    [3, 'nodeName', 'string'],
  ],
  /** k8s.io.api.storage.v1.VolumeAttachmentSource */
  'storage.VolumeAttachmentSource': [
    [1, 'persistentVolumeName', 'string', 'op'],
    [2, 'inlineVolumeSpec', 'core.PersistentVolumeSpec', 'op'],
  ],
  /** k8s.io.api.storage.v1.VolumeAttachmentStatus */
  'storage.VolumeAttachmentStatus': [
    [1, 'attached', 'bool'],
    [2, 'attachmentMetadata', 'string', 'om'],
    [3, 'attachError', 'storage.VolumeError', 'op'],
    [4, 'detachError', 'storage.VolumeError', 'op'],
  ],
  /** k8s.io.api.storage.v1.VolumeError */
  'storage.VolumeError': [
    [1, 'time', 'Time', 'o'],
    [2, 'message', 'string', 'o'],
    [3, 'errorCode', 'int32', 'op'],
  ],
  /** k8s.io.api.storage.v1.CSIStorageCapacity */
  'storage.CSIStorageCapacity': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'nodeTopology', 'meta.LabelSelector', 'op'],
    [3, 'storageClassName', 'string'],
    [4, 'capacity', 'Quantity', 'op'],
    [5, 'maximumVolumeSize', 'Quantity', 'op'],
  ],
  /** k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIService */
  'core.APIService': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.APIServiceSpec', 'o'],
    [3, 'status', 'core.APIServiceStatus', 'o'],
  ],
  /** …apiregistration.v1.APIServiceSpec */
  'core.APIServiceSpec': [
    [1, 'service', 'core.APIServiceReference', 'op'],
    [2, 'group', 'string', 'o'],
    [3, 'version', 'string', 'o'],
    [4, 'insecureSkipTLSVerify', 'bool', 'o'],
    [5, 'caBundle', 'bytes', 'o'],
    [7, 'groupPriorityMinimum', 'int32'],
    [8, 'versionPriority', 'int32'],
  ],
  /** …apiregistration.v1.ServiceReference */
  'core.APIServiceReference': [
    [1, 'namespace', 'string', 'o'],
    [2, 'name', 'string', 'o'],
    [3, 'port', 'int32', 'op'],
  ],
  /** …apiregistration.v1.APIServiceStatus */
  'core.APIServiceStatus': [[1, 'conditions', 'core.APIServiceCondition', 'or']],
  /** …apiregistration.v1.APIServiceCondition */
  'core.APIServiceCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.flowcontrol.v1.FlowSchema */
  'core.FlowSchema': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.FlowSchemaSpec', 'o'],
    [3, 'status', 'core.FlowSchemaStatus', 'o'],
  ],
  /** k8s.io.api.flowcontrol.v1.FlowSchemaSpec */
  'core.FlowSchemaSpec': [
    [1, 'priorityLevelConfiguration', 'core.FlowSchemaPriorityLevelReference'],
    [2, 'matchingPrecedence', 'int32'],
    [3, 'distinguisherMethod', 'core.FlowDistinguisherMethod', 'op'],
    [4, 'rules', 'core.FlowSchemaPolicyRulesWithSubjects', 'or'],
  ],
  /** k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationReference */
  'core.FlowSchemaPriorityLevelReference': [[1, 'name', 'string']],
  /** k8s.io.api.flowcontrol.v1.FlowDistinguisherMethod */
  'core.FlowDistinguisherMethod': [[1, 'type', 'string']],
  /** k8s.io.api.flowcontrol.v1.PolicyRulesWithSubjects */
  'core.FlowSchemaPolicyRulesWithSubjects': [
    [1, 'subjects', 'core.FlowSchemaSubject', 'r'],
    [2, 'resourceRules', 'core.FlowSchemaResourcePolicyRule', 'or'],
    [3, 'nonResourceRules', 'core.FlowSchemaNonResourcePolicyRule', 'or'],
  ],
  /** k8s.io.api.flowcontrol.v1.Subject */
  'core.FlowSchemaSubject': [
    [1, 'kind', 'string'],
    [2, 'user', 'core.FlowSchemaNamedSubject', 'op'],
    [3, 'group', 'core.FlowSchemaNamedSubject', 'op'],
    [4, 'serviceAccount', 'core.FlowSchemaServiceAccountSubject', 'op'],
  ],
  /** k8s.io.api.flowcontrol.v1.UserSubject and GroupSubject (the same one field) */
  'core.FlowSchemaNamedSubject': [[1, 'name', 'string']],
  /** k8s.io.api.flowcontrol.v1.ServiceAccountSubject */
  'core.FlowSchemaServiceAccountSubject': [
    [1, 'namespace', 'string'],
    [2, 'name', 'string'],
  ],
  /** k8s.io.api.flowcontrol.v1.ResourcePolicyRule */
  'core.FlowSchemaResourcePolicyRule': [
    [1, 'verbs', 'string', 'r'],
    [2, 'apiGroups', 'string', 'r'],
    [3, 'resources', 'string', 'r'],
    [4, 'clusterScope', 'bool', 'o'],
    [5, 'namespaces', 'string', 'r'],
  ],
  /** k8s.io.api.flowcontrol.v1.NonResourcePolicyRule */
  'core.FlowSchemaNonResourcePolicyRule': [
    [1, 'verbs', 'string', 'r'],
    [6, 'nonResourceURLs', 'string', 'r'],
  ],
  /** k8s.io.api.flowcontrol.v1.FlowSchemaStatus */
  'core.FlowSchemaStatus': [[1, 'conditions', 'core.FlowcontrolCondition', 'or']],
  /** k8s.io.api.flowcontrol.v1.FlowSchemaCondition and PriorityLevelConfigurationCondition */
  'core.FlowcontrolCondition': [
    [1, 'type', 'string', 'o'],
    [2, 'status', 'string', 'o'],
    [3, 'lastTransitionTime', 'Time', 'o'],
    [4, 'reason', 'string', 'o'],
    [5, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.flowcontrol.v1.PriorityLevelConfiguration */
  'core.PriorityLevelConfiguration': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.PriorityLevelConfigurationSpec', 'o'],
    [3, 'status', 'core.PriorityLevelConfigurationStatus', 'o'],
  ],
  /** k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationSpec */
  'core.PriorityLevelConfigurationSpec': [
    [1, 'type', 'string'],
    [2, 'limited', 'core.LimitedPriorityLevelConfiguration', 'op'],
    [3, 'exempt', 'core.ExemptPriorityLevelConfiguration', 'op'],
  ],
  /** k8s.io.api.flowcontrol.v1.LimitedPriorityLevelConfiguration */
  'core.LimitedPriorityLevelConfiguration': [
    [1, 'nominalConcurrencyShares', 'int32', 'p'],
    [2, 'limitResponse', 'core.FlowcontrolLimitResponse', 'o'],
    [3, 'lendablePercent', 'int32', 'op'],
    [4, 'borrowingLimitPercent', 'int32', 'op'],
  ],
  /** k8s.io.api.flowcontrol.v1.ExemptPriorityLevelConfiguration */
  'core.ExemptPriorityLevelConfiguration': [
    [1, 'nominalConcurrencyShares', 'int32', 'op'],
    [2, 'lendablePercent', 'int32', 'op'],
  ],
  /** k8s.io.api.flowcontrol.v1.LimitResponse */
  'core.FlowcontrolLimitResponse': [
    [1, 'type', 'string'],
    [2, 'queuing', 'core.FlowcontrolQueuingConfiguration', 'op'],
  ],
  /** k8s.io.api.flowcontrol.v1.QueuingConfiguration */
  'core.FlowcontrolQueuingConfiguration': [
    [1, 'queues', 'int32'],
    [2, 'handSize', 'int32'],
    [3, 'queueLengthLimit', 'int32'],
  ],
  /** k8s.io.api.flowcontrol.v1.PriorityLevelConfigurationStatus */
  'core.PriorityLevelConfigurationStatus': [[1, 'conditions', 'core.FlowcontrolCondition', 'or']],
};
