/**
 * Protobuf schema tables: core/v1 probe, lifecycle, security context and scheduling messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 probe, lifecycle, security context and scheduling messages. */
export const coreRuntimeTables: MessageTables = {
  /** k8s.io.api.core.v1.PodSecurityContext */
  'core.PodSecurityContext': [
    [1, 'seLinuxOptions', 'core.SELinuxOptions', 'op'],
    [8, 'windowsOptions', 'core.WindowsSecurityContextOptions', 'op'],
    [2, 'runAsUser', 'int64', 'op'],
    [6, 'runAsGroup', 'int64', 'op'],
    [3, 'runAsNonRoot', 'bool', 'op'],
    [4, 'supplementalGroups', 'int64', 'or'],
    [12, 'supplementalGroupsPolicy', 'string', 'op'],
    [5, 'fsGroup', 'int64', 'op'],
    [7, 'sysctls', 'core.Sysctl', 'or'],
    [9, 'fsGroupChangePolicy', 'string', 'op'],
    [10, 'seccompProfile', 'core.SeccompProfile', 'op'],
    [11, 'appArmorProfile', 'core.AppArmorProfile', 'op'],
    [13, 'seLinuxChangePolicy', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.Affinity */
  'core.Affinity': [
    [1, 'nodeAffinity', 'core.NodeAffinity', 'op'],
    [2, 'podAffinity', 'core.PodAffinity', 'op'],
    [3, 'podAntiAffinity', 'core.PodAntiAffinity', 'op'],
  ],
  /** k8s.io.api.core.v1.Toleration */
  'core.Toleration': [
    [1, 'key', 'string', 'o'],
    [2, 'operator', 'string', 'o'],
    [3, 'value', 'string', 'o'],
    [4, 'effect', 'string', 'o'],
    [5, 'tolerationSeconds', 'int64', 'op'],
  ],
  /** k8s.io.api.core.v1.TopologySpreadConstraint */
  'core.TopologySpreadConstraint': [
    [1, 'maxSkew', 'int32'],
    [2, 'topologyKey', 'string'],
    [3, 'whenUnsatisfiable', 'string'],
    [4, 'labelSelector', 'meta.LabelSelector', 'op'],
    [5, 'minDomains', 'int32', 'op'],
    [6, 'nodeAffinityPolicy', 'string', 'op'],
    [7, 'nodeTaintsPolicy', 'string', 'op'],
    [8, 'matchLabelKeys', 'string', 'or'],
  ],
  /** k8s.io.api.core.v1.Probe */
  'core.Probe': [
    [1, '', 'core.ProbeHandler', 'i'],
    [2, 'initialDelaySeconds', 'int32', 'o'],
    [3, 'timeoutSeconds', 'int32', 'o'],
    [4, 'periodSeconds', 'int32', 'o'],
    [5, 'successThreshold', 'int32', 'o'],
    [6, 'failureThreshold', 'int32', 'o'],
    [7, 'terminationGracePeriodSeconds', 'int64', 'op'],
  ],
  /** k8s.io.api.core.v1.Lifecycle */
  'core.Lifecycle': [
    [1, 'postStart', 'core.LifecycleHandler', 'op'],
    [2, 'preStop', 'core.LifecycleHandler', 'op'],
    [3, 'stopSignal', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.SecurityContext */
  'core.SecurityContext': [
    [1, 'capabilities', 'core.Capabilities', 'op'],
    [2, 'privileged', 'bool', 'op'],
    [3, 'seLinuxOptions', 'core.SELinuxOptions', 'op'],
    [10, 'windowsOptions', 'core.WindowsSecurityContextOptions', 'op'],
    [4, 'runAsUser', 'int64', 'op'],
    [8, 'runAsGroup', 'int64', 'op'],
    [5, 'runAsNonRoot', 'bool', 'op'],
    [6, 'readOnlyRootFilesystem', 'bool', 'op'],
    [7, 'allowPrivilegeEscalation', 'bool', 'op'],
    [9, 'procMount', 'string', 'op'],
    [11, 'seccompProfile', 'core.SeccompProfile', 'op'],
    [12, 'appArmorProfile', 'core.AppArmorProfile', 'op'],
  ],
  /** k8s.io.api.core.v1.SELinuxOptions */
  'core.SELinuxOptions': [
    [1, 'user', 'string', 'o'],
    [2, 'role', 'string', 'o'],
    [3, 'type', 'string', 'o'],
    [4, 'level', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.WindowsSecurityContextOptions */
  'core.WindowsSecurityContextOptions': [
    [1, 'gmsaCredentialSpecName', 'string', 'op'],
    [2, 'gmsaCredentialSpec', 'string', 'op'],
    [3, 'runAsUserName', 'string', 'op'],
    [4, 'hostProcess', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.Sysctl */
  'core.Sysctl': [
    [1, 'name', 'string'],
    [2, 'value', 'string'],
  ],
  /** k8s.io.api.core.v1.SeccompProfile */
  'core.SeccompProfile': [
    [1, 'type', 'string'],
    [2, 'localhostProfile', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.AppArmorProfile */
  'core.AppArmorProfile': [
    [1, 'type', 'string'],
    [2, 'localhostProfile', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.NodeAffinity */
  'core.NodeAffinity': [
    [1, 'requiredDuringSchedulingIgnoredDuringExecution', 'core.NodeSelector', 'op'],
    [2, 'preferredDuringSchedulingIgnoredDuringExecution', 'core.PreferredSchedulingTerm', 'or'],
  ],
  /** k8s.io.api.core.v1.PodAffinity */
  'core.PodAffinity': [
    [1, 'requiredDuringSchedulingIgnoredDuringExecution', 'core.PodAffinityTerm', 'or'],
    [2, 'preferredDuringSchedulingIgnoredDuringExecution', 'core.WeightedPodAffinityTerm', 'or'],
  ],
  /** k8s.io.api.core.v1.PodAntiAffinity */
  'core.PodAntiAffinity': [
    [1, 'requiredDuringSchedulingIgnoredDuringExecution', 'core.PodAffinityTerm', 'or'],
    [2, 'preferredDuringSchedulingIgnoredDuringExecution', 'core.WeightedPodAffinityTerm', 'or'],
  ],
  /** k8s.io.api.core.v1.NodeSelector */
  'core.NodeSelector': [[1, 'nodeSelectorTerms', 'core.NodeSelectorTerm', 'r']],
  /** k8s.io.api.core.v1.ProbeHandler */
  'core.ProbeHandler': [
    [1, 'exec', 'core.ExecAction', 'op'],
    [2, 'httpGet', 'core.HTTPGetAction', 'op'],
    [3, 'tcpSocket', 'core.TCPSocketAction', 'op'],
    [4, 'grpc', 'core.GRPCAction', 'op'],
  ],
  /** k8s.io.api.core.v1.LifecycleHandler */
  'core.LifecycleHandler': [
    [1, 'exec', 'core.ExecAction', 'op'],
    [2, 'httpGet', 'core.HTTPGetAction', 'op'],
    [3, 'tcpSocket', 'core.TCPSocketAction', 'op'],
    [4, 'sleep', 'core.SleepAction', 'op'],
  ],
  /** k8s.io.api.core.v1.Capabilities */
  'core.Capabilities': [
    [1, 'add', 'string', 'or'],
    [2, 'drop', 'string', 'or'],
  ],
  /** k8s.io.api.core.v1.PreferredSchedulingTerm */
  'core.PreferredSchedulingTerm': [
    [1, 'weight', 'int32'],
    [2, 'preference', 'core.NodeSelectorTerm'],
  ],
  /** k8s.io.api.core.v1.PodAffinityTerm */
  'core.PodAffinityTerm': [
    [1, 'labelSelector', 'meta.LabelSelector', 'op'],
    [2, 'namespaces', 'string', 'or'],
    [3, 'topologyKey', 'string'],
    [4, 'namespaceSelector', 'meta.LabelSelector', 'op'],
    [5, 'matchLabelKeys', 'string', 'or'],
    [6, 'mismatchLabelKeys', 'string', 'or'],
  ],
  /** k8s.io.api.core.v1.WeightedPodAffinityTerm */
  'core.WeightedPodAffinityTerm': [
    [1, 'weight', 'int32'],
    [2, 'podAffinityTerm', 'core.PodAffinityTerm'],
  ],
  /** k8s.io.api.core.v1.NodeSelectorTerm */
  'core.NodeSelectorTerm': [
    [1, 'matchExpressions', 'core.NodeSelectorRequirement', 'or'],
    [2, 'matchFields', 'core.NodeSelectorRequirement', 'or'],
  ],
  /** k8s.io.api.core.v1.ExecAction */
  'core.ExecAction': [[1, 'command', 'string', 'or']],
  /** k8s.io.api.core.v1.HTTPGetAction */
  'core.HTTPGetAction': [
    [1, 'path', 'string', 'o'],
    [2, 'port', 'IntOrString'],
    [3, 'host', 'string', 'o'],
    [4, 'scheme', 'string', 'o'],
    [5, 'httpHeaders', 'core.HTTPHeader', 'or'],
  ],
  /** k8s.io.api.core.v1.TCPSocketAction */
  'core.TCPSocketAction': [
    [1, 'port', 'IntOrString'],
    [2, 'host', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.GRPCAction */
  'core.GRPCAction': [
    [1, 'port', 'int32'],
    [2, 'service', 'string', 'p'],
  ],
  /** k8s.io.api.core.v1.SleepAction */
  'core.SleepAction': [[1, 'seconds', 'int64']],
  /** k8s.io.api.core.v1.NodeSelectorRequirement */
  'core.NodeSelectorRequirement': [
    [1, 'key', 'string'],
    [2, 'operator', 'string'],
    [3, 'values', 'string', 'or'],
  ],
  /** k8s.io.api.core.v1.HTTPHeader */
  'core.HTTPHeader': [
    [1, 'name', 'string'],
    [2, 'value', 'string'],
  ],
};
