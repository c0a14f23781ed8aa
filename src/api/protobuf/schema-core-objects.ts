/**
 * Protobuf schema tables: core/v1 Namespace, Service, Endpoints, ConfigMap, Secret, ServiceAccount, Event, PVC and PV messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 Namespace, Service, Endpoints, ConfigMap, Secret, ServiceAccount, Event, PVC and PV messages. */
export const coreObjectTables: MessageTables = {
  /** k8s.io.api.core.v1.Namespace */
  'core.Namespace': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.NamespaceSpec', 'o'],
    [3, 'status', 'core.NamespaceStatus', 'o'],
  ],
  /** k8s.io.api.core.v1.Service */
  'core.Service': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.ServiceSpec', 'o'],
    [3, 'status', 'core.ServiceStatus', 'o'],
  ],
  /** k8s.io.api.core.v1.Endpoints */
  'core.Endpoints': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'subsets', 'core.EndpointSubset', 'or'],
  ],
  /** k8s.io.api.core.v1.ConfigMap */
  'core.ConfigMap': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [4, 'immutable', 'bool', 'op'],
    [2, 'data', 'string', 'om'],
    [3, 'binaryData', 'bytes', 'om'],
  ],
  /** k8s.io.api.core.v1.Secret */
  'core.Secret': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [5, 'immutable', 'bool', 'op'],
    [2, 'data', 'bytes', 'om'],
    [4, 'stringData', 'string', 'om'],
    [3, 'type', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.ServiceAccount */
  'core.ServiceAccount': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'secrets', 'core.ObjectReference', 'or'],
    [3, 'imagePullSecrets', 'core.LocalObjectReference', 'or'],
    [4, 'automountServiceAccountToken', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.Event */
  'core.Event': [
    [1, 'metadata', 'meta.ObjectMeta'],
    [2, 'involvedObject', 'core.ObjectReference'],
    [3, 'reason', 'string', 'o'],
    [4, 'message', 'string', 'o'],
    [5, 'source', 'core.EventSource', 'o'],
    [6, 'firstTimestamp', 'Time', 'o'],
    [7, 'lastTimestamp', 'Time', 'o'],
    [8, 'count', 'int32', 'o'],
    [9, 'type', 'string', 'o'],
    [10, 'eventTime', 'MicroTime', 'o'],
    [11, 'series', 'core.EventSeries', 'op'],
    [12, 'action', 'string', 'o'],
    [13, 'related', 'core.ObjectReference', 'op'],
    [14, 'reportingComponent', 'string'],
    [15, 'reportingInstance', 'string'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeClaim */
  'core.PersistentVolumeClaim': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.PersistentVolumeClaimSpec', 'o'],
    [3, 'status', 'core.PersistentVolumeClaimStatus', 'o'],
  ],
  /** k8s.io.api.core.v1.PersistentVolume */
  'core.PersistentVolume': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.PersistentVolumeSpec', 'o'],
    [3, 'status', 'core.PersistentVolumeStatus', 'o'],
  ],
  /** k8s.io.api.core.v1.NamespaceSpec */
  'core.NamespaceSpec': [[1, 'finalizers', 'string', 'or']],
  /** k8s.io.api.core.v1.NamespaceStatus */
  'core.NamespaceStatus': [
    [1, 'phase', 'string', 'o'],
    [2, 'conditions', 'core.NamespaceCondition', 'or'],
  ],
  /** k8s.io.api.core.v1.ServiceSpec */
  'core.ServiceSpec': [
    [1, 'ports', 'core.ServicePort', 'or'],
    [2, 'selector', 'string', 'om'],
    [3, 'clusterIP', 'string', 'o'],
    [18, 'clusterIPs', 'string', 'or'],
    [4, 'type', 'string', 'o'],
    [5, 'externalIPs', 'string', 'or'],
    [7, 'sessionAffinity', 'string', 'o'],
    [8, 'loadBalancerIP', 'string', 'o'],
    [9, 'loadBalancerSourceRanges', 'string', 'or'],
    [10, 'externalName', 'string', 'o'],
    [11, 'externalTrafficPolicy', 'string', 'o'],
    [12, 'healthCheckNodePort', 'int32', 'o'],
    [13, 'publishNotReadyAddresses', 'bool', 'o'],
    [14, 'sessionAffinityConfig', 'core.SessionAffinityConfig', 'op'],
    [19, 'ipFamilies', 'string', 'or'],
    [17, 'ipFamilyPolicy', 'string', 'op'],
    [20, 'allocateLoadBalancerNodePorts', 'bool', 'op'],
    [21, 'loadBalancerClass', 'string', 'op'],
    [22, 'internalTrafficPolicy', 'string', 'op'],
    [23, 'trafficDistribution', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.ServiceStatus */
  'core.ServiceStatus': [
    [1, 'loadBalancer', 'core.LoadBalancerStatus', 'o'],
    [2, 'conditions', 'meta.Condition', 'or'],
  ],
  /** k8s.io.api.core.v1.EndpointSubset */
  'core.EndpointSubset': [
    [1, 'addresses', 'core.EndpointAddress', 'or'],
    [2, 'notReadyAddresses', 'core.EndpointAddress', 'or'],
    [3, 'ports', 'core.EndpointPort', 'or'],
  ],
  /** k8s.io.api.core.v1.ObjectReference */
  'core.ObjectReference': [
    [1, 'kind', 'string', 'o'],
    [2, 'namespace', 'string', 'o'],
    [3, 'name', 'string', 'o'],
    [4, 'uid', 'string', 'o'],
    [5, 'apiVersion', 'string', 'o'],
    [6, 'resourceVersion', 'string', 'o'],
    [7, 'fieldPath', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.EventSource */
  'core.EventSource': [
    [1, 'component', 'string', 'o'],
    [2, 'host', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.EventSeries */
  'core.EventSeries': [
    [1, 'count', 'int32', 'o'],
    [2, 'lastObservedTime', 'MicroTime', 'o'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeClaimSpec */
  'core.PersistentVolumeClaimSpec': [
    [1, 'accessModes', 'string', 'or'],
    [4, 'selector', 'meta.LabelSelector', 'op'],
    [2, 'resources', 'core.VolumeResourceRequirements', 'o'],
    [3, 'volumeName', 'string', 'o'],
    [5, 'storageClassName', 'string', 'op'],
    [6, 'volumeMode', 'string', 'op'],
    [7, 'dataSource', 'core.TypedLocalObjectReference', 'op'],
    [8, 'dataSourceRef', 'core.TypedObjectReference', 'op'],
    [9, 'volumeAttributesClassName', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeClaimStatus */
  'core.PersistentVolumeClaimStatus': [
    [1, 'phase', 'string', 'o'],
    [2, 'accessModes', 'string', 'or'],
    [3, 'capacity', 'Quantity', 'om'],
    [4, 'conditions', 'core.PersistentVolumeClaimCondition', 'or'],
    [5, 'allocatedResources', 'Quantity', 'om'],
    [7, 'allocatedResourceStatuses', 'string', 'om'],
    [8, 'currentVolumeAttributesClassName', 'string', 'op'],
    [9, 'modifyVolumeStatus', 'core.ModifyVolumeStatus', 'op'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeSpec */
  'core.PersistentVolumeSpec': [
    [1, 'capacity', 'Quantity', 'om'],
    [2, '', 'core.PersistentVolumeSource', 'i'],
    [3, 'accessModes', 'string', 'or'],
    [4, 'claimRef', 'core.ObjectReference', 'op'],
    [5, 'persistentVolumeReclaimPolicy', 'string', 'o'],
    [6, 'storageClassName', 'string', 'o'],
    [7, 'mountOptions', 'string', 'or'],
    [8, 'volumeMode', 'string', 'op'],
    [9, 'nodeAffinity', 'core.VolumeNodeAffinity', 'op'],
    [10, 'volumeAttributesClassName', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeStatus */
  'core.PersistentVolumeStatus': [
    [1, 'phase', 'string', 'o'],
    [2, 'message', 'string', 'o'],
    [3, 'reason', 'string', 'o'],
    [4, 'lastPhaseTransitionTime', 'Time', 'op'],
  ],
  /** k8s.io.api.core.v1.TopologySelectorTerm */
  'core.TopologySelectorTerm': [
    [1, 'matchLabelExpressions', 'core.TopologySelectorLabelRequirement', 'or'],
  ],
  /** k8s.io.api.core.v1.NamespaceCondition */
  'core.NamespaceCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [4, 'lastTransitionTime', 'Time', 'o'],
    [5, 'reason', 'string', 'o'],
    [6, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.ServicePort */
  'core.ServicePort': [
    [1, 'name', 'string', 'o'],
    [2, 'protocol', 'string', 'o'],
    [6, 'appProtocol', 'string', 'op'],
    [3, 'port', 'int32'],
    [4, 'targetPort', 'IntOrString', 'o'],
    [5, 'nodePort', 'int32', 'o'],
  ],
  /** k8s.io.api.core.v1.SessionAffinityConfig */
  'core.SessionAffinityConfig': [[1, 'clientIP', 'core.ClientIPConfig', 'op']],
  /** k8s.io.api.core.v1.LoadBalancerStatus */
  'core.LoadBalancerStatus': [[1, 'ingress', 'core.LoadBalancerIngress', 'or']],
  /** k8s.io.api.core.v1.EndpointAddress */
  'core.EndpointAddress': [
    [1, 'ip', 'string'],
    [3, 'hostname', 'string', 'o'],
    [4, 'nodeName', 'string', 'op'],
    [2, 'targetRef', 'core.ObjectReference', 'op'],
  ],
  /** k8s.io.api.core.v1.EndpointPort */
  'core.EndpointPort': [
    [1, 'name', 'string', 'o'],
    [2, 'port', 'int32'],
    [3, 'protocol', 'string', 'o'],
    [4, 'appProtocol', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.VolumeResourceRequirements */
  'core.VolumeResourceRequirements': [
    [1, 'limits', 'Quantity', 'om'],
    [2, 'requests', 'Quantity', 'om'],
  ],
  /** k8s.io.api.core.v1.TypedLocalObjectReference */
  'core.TypedLocalObjectReference': [
    [1, 'apiGroup', 'string', 'p'],
    [2, 'kind', 'string'],
    [3, 'name', 'string'],
  ],
  /** k8s.io.api.core.v1.TypedObjectReference */
  'core.TypedObjectReference': [
    [1, 'apiGroup', 'string', 'p'],
    [2, 'kind', 'string'],
    [3, 'name', 'string'],
    [4, 'namespace', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.PersistentVolumeClaimCondition */
  'core.PersistentVolumeClaimCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastProbeTime', 'Time', 'o'],
    [4, 'lastTransitionTime', 'Time', 'o'],
    [5, 'reason', 'string', 'o'],
    [6, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.ModifyVolumeStatus */
  'core.ModifyVolumeStatus': [
    [1, 'targetVolumeAttributesClassName', 'string', 'o'],
    [2, 'status', 'string'],
  ],
  /** k8s.io.api.core.v1.VolumeNodeAffinity */
  'core.VolumeNodeAffinity': [[1, 'required', 'core.NodeSelector', 'op']],
  /** k8s.io.api.core.v1.TopologySelectorLabelRequirement */
  'core.TopologySelectorLabelRequirement': [
    [1, 'key', 'string'],
    [2, 'values', 'string', 'r'],
  ],
  /** k8s.io.api.core.v1.ClientIPConfig */
  'core.ClientIPConfig': [[1, 'timeoutSeconds', 'int32', 'op']],
  /** k8s.io.api.core.v1.LoadBalancerIngress */
  'core.LoadBalancerIngress': [
    [1, 'ip', 'string', 'o'],
    [2, 'hostname', 'string', 'o'],
    [3, 'ipMode', 'string', 'op'],
    [4, 'ports', 'core.PortStatus', 'or'],
  ],
  /** k8s.io.api.core.v1.PortStatus */
  'core.PortStatus': [
    [1, 'port', 'int32'],
    [2, 'protocol', 'string'],
    [3, 'error', 'string', 'op'],
  ],
};
