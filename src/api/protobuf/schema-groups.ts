/**
 * Protobuf schema tables: events.k8s.io/v1, storage.k8s.io/v1, coordination.k8s.io/v1, policy/v1, networking.k8s.io/v1 and rbac.authorization.k8s.io/v1 messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for events.k8s.io/v1, storage.k8s.io/v1, coordination.k8s.io/v1, policy/v1, networking.k8s.io/v1 and rbac.authorization.k8s.io/v1 messages. */
export const groupTables: MessageTables = {
  /** k8s.io.api.events.v1.Event */
  'events.Event': [
    [1, 'metadata', 'meta.ObjectMeta'],
    [2, 'eventTime', 'MicroTime'],
    [3, 'series', 'events.EventSeries', 'op'],
    [4, 'reportingController', 'string', 'o'],
    [5, 'reportingInstance', 'string', 'o'],
    [6, 'action', 'string', 'o'],
    [7, 'reason', 'string', 'o'],
    [8, 'regarding', 'core.ObjectReference', 'o'],
    [9, 'related', 'core.ObjectReference', 'op'],
    [10, 'note', 'string', 'o'],
    [11, 'type', 'string', 'o'],
    [12, 'deprecatedSource', 'core.EventSource', 'o'],
    [13, 'deprecatedFirstTimestamp', 'Time', 'o'],
    [14, 'deprecatedLastTimestamp', 'Time', 'o'],
    [15, 'deprecatedCount', 'int32', 'o'],
  ],
  /** k8s.io.api.storage.v1.StorageClass */
  'storage.StorageClass': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'provisioner', 'string'],
    [3, 'parameters', 'string', 'om'],
    [4, 'reclaimPolicy', 'string', 'op'],
    [5, 'mountOptions', 'string', 'or'],
    [6, 'allowVolumeExpansion', 'bool', 'op'],
    [7, 'volumeBindingMode', 'string', 'op'],
    [8, 'allowedTopologies', 'core.TopologySelectorTerm', 'or'],
  ],
  /** k8s.io.api.coordination.v1.Lease */
  'coordination.Lease': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'coordination.LeaseSpec', 'o'],
  ],
  /** k8s.io.api.policy.v1.PodDisruptionBudget */
  'policy.PodDisruptionBudget': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'policy.PodDisruptionBudgetSpec', 'o'],
    [3, 'status', 'policy.PodDisruptionBudgetStatus', 'o'],
  ],
  /** k8s.io.api.policy.v1.Eviction */
  'policy.Eviction': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'deleteOptions', 'meta.DeleteOptions', 'op'],
  ],
  /** k8s.io.api.networking.v1.NetworkPolicy */
  'networking.NetworkPolicy': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'networking.NetworkPolicySpec', 'o'],
  ],
  /** k8s.io.api.events.v1.EventSeries */
  'events.EventSeries': [
    [1, 'count', 'int32'],
    [2, 'lastObservedTime', 'MicroTime'],
  ],
  /** k8s.io.api.coordination.v1.LeaseSpec */
  'coordination.LeaseSpec': [
    [1, 'holderIdentity', 'string', 'op'],
    [2, 'leaseDurationSeconds', 'int32', 'op'],
    [3, 'acquireTime', 'MicroTime', 'op'],
    [4, 'renewTime', 'MicroTime', 'op'],
    [5, 'leaseTransitions', 'int32', 'op'],
    [6, 'strategy', 'string', 'op'],
    [7, 'preferredHolder', 'string', 'op'],
  ],
  /** k8s.io.api.policy.v1.PodDisruptionBudgetSpec */
  'policy.PodDisruptionBudgetSpec': [
    [1, 'minAvailable', 'IntOrString', 'op'],
    [2, 'selector', 'meta.LabelSelector', 'op'],
    [3, 'maxUnavailable', 'IntOrString', 'op'],
    [4, 'unhealthyPodEvictionPolicy', 'string', 'op'],
  ],
  /** k8s.io.api.policy.v1.PodDisruptionBudgetStatus */
  'policy.PodDisruptionBudgetStatus': [
    [1, 'observedGeneration', 'int64', 'o'],
    [2, 'disruptedPods', 'Time', 'om'],
    [3, 'disruptionsAllowed', 'int32'],
    [4, 'currentHealthy', 'int32'],
    [5, 'desiredHealthy', 'int32'],
    [6, 'expectedPods', 'int32'],
    [7, 'conditions', 'meta.Condition', 'or'],
  ],
  /** k8s.io.api.networking.v1.NetworkPolicySpec */
  'networking.NetworkPolicySpec': [
    [1, 'podSelector', 'meta.LabelSelector'],
    [2, 'ingress', 'networking.NetworkPolicyIngressRule', 'or'],
    [3, 'egress', 'networking.NetworkPolicyEgressRule', 'or'],
    [4, 'policyTypes', 'string', 'or'],
  ],
  /** k8s.io.api.networking.v1.NetworkPolicyIngressRule */
  'networking.NetworkPolicyIngressRule': [
    [1, 'ports', 'networking.NetworkPolicyPort', 'or'],
    [2, 'from', 'networking.NetworkPolicyPeer', 'or'],
  ],
  /** k8s.io.api.networking.v1.NetworkPolicyEgressRule */
  'networking.NetworkPolicyEgressRule': [
    [1, 'ports', 'networking.NetworkPolicyPort', 'or'],
    [2, 'to', 'networking.NetworkPolicyPeer', 'or'],
  ],
  /** k8s.io.api.networking.v1.NetworkPolicyPort */
  'networking.NetworkPolicyPort': [
    [1, 'protocol', 'string', 'op'],
    [2, 'port', 'IntOrString', 'op'],
    [3, 'endPort', 'int32', 'op'],
  ],
  /** k8s.io.api.networking.v1.NetworkPolicyPeer */
  'networking.NetworkPolicyPeer': [
    [1, 'podSelector', 'meta.LabelSelector', 'op'],
    [2, 'namespaceSelector', 'meta.LabelSelector', 'op'],
    [3, 'ipBlock', 'networking.IPBlock', 'op'],
  ],
  /** k8s.io.api.networking.v1.IPBlock */
  'networking.IPBlock': [
    [1, 'cidr', 'string'],
    [2, 'except', 'string', 'or'],
  ],
  /** k8s.io.api.rbac.v1.Role */
  'rbac.Role': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'rules', 'rbac.PolicyRule', 'r'],
  ],
  /** k8s.io.api.rbac.v1.ClusterRole */
  'rbac.ClusterRole': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'rules', 'rbac.PolicyRule', 'r'],
    [3, 'aggregationRule', 'rbac.AggregationRule', 'op'],
  ],
  /** k8s.io.api.rbac.v1.RoleBinding */
  'rbac.RoleBinding': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'subjects', 'rbac.Subject', 'or'],
    [3, 'roleRef', 'rbac.RoleRef'],
  ],
  /** k8s.io.api.rbac.v1.ClusterRoleBinding */
  'rbac.ClusterRoleBinding': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'subjects', 'rbac.Subject', 'or'],
    [3, 'roleRef', 'rbac.RoleRef'],
  ],
  /** k8s.io.api.rbac.v1.PolicyRule */
  'rbac.PolicyRule': [
    [1, 'verbs', 'string', 'r'],
    [2, 'apiGroups', 'string', 'or'],
    [3, 'resources', 'string', 'or'],
    [4, 'resourceNames', 'string', 'or'],
    [5, 'nonResourceURLs', 'string', 'or'],
  ],
  /** k8s.io.api.rbac.v1.AggregationRule */
  'rbac.AggregationRule': [[1, 'clusterRoleSelectors', 'meta.LabelSelector', 'or']],
  /** k8s.io.api.rbac.v1.Subject */
  'rbac.Subject': [
    [1, 'kind', 'string'],
    [2, 'apiGroup', 'string', 'o'],
    [3, 'name', 'string'],
    [4, 'namespace', 'string', 'o'],
  ],
  /** k8s.io.api.rbac.v1.RoleRef */
  'rbac.RoleRef': [
    [1, 'apiGroup', 'string'],
    [2, 'kind', 'string'],
    [3, 'name', 'string'],
  ],
};
