/**
 * Protobuf schema tables: core/v1 Pod, PodSpec and container messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 Pod, PodSpec and container messages. */
export const corePodTables: MessageTables = {
  /** k8s.io.api.core.v1.Pod */
  'core.Pod': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.PodSpec', 'o'],
    [3, 'status', 'core.PodStatus', 'o'],
  ],
  /** k8s.io.api.core.v1.PodSpec */
  'core.PodSpec': [
    [1, 'volumes', 'core.Volume', 'or'],
    [20, 'initContainers', 'core.Container', 'or'],
    [2, 'containers', 'core.Container', 'r'],
    [34, 'ephemeralContainers', 'core.EphemeralContainer', 'or'],
    [3, 'restartPolicy', 'string', 'o'],
    [4, 'terminationGracePeriodSeconds', 'int64', 'op'],
    [5, 'activeDeadlineSeconds', 'int64', 'op'],
    [6, 'dnsPolicy', 'string', 'o'],
    [7, 'nodeSelector', 'string', 'om'],
    [8, 'serviceAccountName', 'string', 'o'],
    [9, 'serviceAccount', 'string', 'o'],
    [21, 'automountServiceAccountToken', 'bool', 'op'],
    [10, 'nodeName', 'string', 'o'],
    [11, 'hostNetwork', 'bool', 'o'],
    [12, 'hostPID', 'bool', 'o'],
    [13, 'hostIPC', 'bool', 'o'],
    [27, 'shareProcessNamespace', 'bool', 'op'],
    [14, 'securityContext', 'core.PodSecurityContext', 'op'],
    [15, 'imagePullSecrets', 'core.LocalObjectReference', 'or'],
    [16, 'hostname', 'string', 'o'],
    [17, 'subdomain', 'string', 'o'],
    [18, 'affinity', 'core.Affinity', 'op'],
    [19, 'schedulerName', 'string', 'o'],
    [22, 'tolerations', 'core.Toleration', 'or'],
    [23, 'hostAliases', 'core.HostAlias', 'or'],
    [24, 'priorityClassName', 'string', 'o'],
    [25, 'priority', 'int32', 'op'],
    [26, 'dnsConfig', 'core.PodDNSConfig', 'op'],
    [28, 'readinessGates', 'core.PodReadinessGate', 'or'],
    [29, 'runtimeClassName', 'string', 'op'],
    [30, 'enableServiceLinks', 'bool', 'op'],
    [31, 'preemptionPolicy', 'string', 'op'],
    [32, 'overhead', 'Quantity', 'om'],
    [33, 'topologySpreadConstraints', 'core.TopologySpreadConstraint', 'or'],
    [35, 'setHostnameAsFQDN', 'bool', 'op'],
    [36, 'os', 'core.PodOS', 'op'],
    [37, 'hostUsers', 'bool', 'op'],
    [38, 'schedulingGates', 'core.PodSchedulingGate', 'or'],
    [39, 'resourceClaims', 'core.PodResourceClaim', 'or'],
    [40, 'resources', 'core.ResourceRequirements', 'op'],
  ],
  /** k8s.io.api.core.v1.LocalObjectReference */
  'core.LocalObjectReference': [[1, 'name', 'string', 'o']],
  /** k8s.io.api.core.v1.Container */
  'core.Container': [
    [1, 'name', 'string'],
    [2, 'image', 'string', 'o'],
    [3, 'command', 'string', 'or'],
    [4, 'args', 'string', 'or'],
    [5, 'workingDir', 'string', 'o'],
    [6, 'ports', 'core.ContainerPort', 'or'],
    [19, 'envFrom', 'core.EnvFromSource', 'or'],
    [7, 'env', 'core.EnvVar', 'or'],
    [8, 'resources', 'core.ResourceRequirements', 'o'],
    [23, 'resizePolicy', 'core.ContainerResizePolicy', 'or'],
    [24, 'restartPolicy', 'string', 'op'],
    [9, 'volumeMounts', 'core.VolumeMount', 'or'],
    [21, 'volumeDevices', 'core.VolumeDevice', 'or'],
    [10, 'livenessProbe', 'core.Probe', 'op'],
    [11, 'readinessProbe', 'core.Probe', 'op'],
    [22, 'startupProbe', 'core.Probe', 'op'],
    [12, 'lifecycle', 'core.Lifecycle', 'op'],
    [13, 'terminationMessagePath', 'string', 'o'],
    [20, 'terminationMessagePolicy', 'string', 'o'],
    [14, 'imagePullPolicy', 'string', 'o'],
    [15, 'securityContext', 'core.SecurityContext', 'op'],
    [16, 'stdin', 'bool', 'o'],
    [17, 'stdinOnce', 'bool', 'o'],
    [18, 'tty', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.EphemeralContainer */
  'core.EphemeralContainer': [
    [1, '', 'core.EphemeralContainerCommon', 'i'],
    [2, 'targetContainerName', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.HostAlias */
  'core.HostAlias': [
    [1, 'ip', 'string'],
    [2, 'hostnames', 'string', 'or'],
  ],
  /** k8s.io.api.core.v1.PodDNSConfig */
  'core.PodDNSConfig': [
    [1, 'nameservers', 'string', 'or'],
    [2, 'searches', 'string', 'or'],
    [3, 'options', 'core.PodDNSConfigOption', 'or'],
  ],
  /** k8s.io.api.core.v1.PodReadinessGate */
  'core.PodReadinessGate': [[1, 'conditionType', 'string']],
  /** k8s.io.api.core.v1.PodOS */
  'core.PodOS': [[1, 'name', 'string']],
  /** k8s.io.api.core.v1.PodSchedulingGate */
  'core.PodSchedulingGate': [[1, 'name', 'string']],
  /** k8s.io.api.core.v1.PodResourceClaim */
  'core.PodResourceClaim': [
    [1, 'name', 'string'],
    [3, 'resourceClaimName', 'string', 'op'],
    [4, 'resourceClaimTemplateName', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.ResourceRequirements */
  'core.ResourceRequirements': [
    [1, 'limits', 'Quantity', 'om'],
    [2, 'requests', 'Quantity', 'om'],
    [3, 'claims', 'core.ResourceClaim', 'or'],
  ],
  /** k8s.io.api.core.v1.PodTemplateSpec */
  'core.PodTemplateSpec': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.PodSpec', 'o'],
  ],
  /** k8s.io.api.core.v1.ContainerPort */
  'core.ContainerPort': [
    [1, 'name', 'string', 'o'],
    [2, 'hostPort', 'int32', 'o'],
    [3, 'containerPort', 'int32'],
    [4, 'protocol', 'string', 'o'],
    [5, 'hostIP', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.EnvFromSource */
  'core.EnvFromSource': [
    [1, 'prefix', 'string', 'o'],
    [2, 'configMapRef', 'core.ConfigMapEnvSource', 'op'],
    [3, 'secretRef', 'core.SecretEnvSource', 'op'],
  ],
  /** k8s.io.api.core.v1.EnvVar */
  'core.EnvVar': [
    [1, 'name', 'string'],
    [2, 'value', 'string', 'o'],
    [3, 'valueFrom', 'core.EnvVarSource', 'op'],
  ],
  /** k8s.io.api.core.v1.ContainerResizePolicy */
  'core.ContainerResizePolicy': [
    [1, 'resourceName', 'string'],
    [2, 'restartPolicy', 'string'],
  ],
  /** k8s.io.api.core.v1.VolumeMount */
  'core.VolumeMount': [
    [1, 'name', 'string'],
    [2, 'readOnly', 'bool', 'o'],
    [7, 'recursiveReadOnly', 'string', 'op'],
    [3, 'mountPath', 'string'],
    [4, 'subPath', 'string', 'o'],
    [5, 'mountPropagation', 'string', 'op'],
    [6, 'subPathExpr', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.VolumeDevice */
  'core.VolumeDevice': [
    [1, 'name', 'string'],
    [2, 'devicePath', 'string'],
  ],
  /** k8s.io.api.core.v1.EphemeralContainerCommon */
  'core.EphemeralContainerCommon': [
    [1, 'name', 'string'],
    [2, 'image', 'string', 'o'],
    [3, 'command', 'string', 'or'],
    [4, 'args', 'string', 'or'],
    [5, 'workingDir', 'string', 'o'],
    [6, 'ports', 'core.ContainerPort', 'or'],
    [19, 'envFrom', 'core.EnvFromSource', 'or'],
    [7, 'env', 'core.EnvVar', 'or'],
    [8, 'resources', 'core.ResourceRequirements', 'o'],
    [23, 'resizePolicy', 'core.ContainerResizePolicy', 'or'],
    [24, 'restartPolicy', 'string', 'op'],
    [9, 'volumeMounts', 'core.VolumeMount', 'or'],
    [21, 'volumeDevices', 'core.VolumeDevice', 'or'],
    [10, 'livenessProbe', 'core.Probe', 'op'],
    [11, 'readinessProbe', 'core.Probe', 'op'],
    [22, 'startupProbe', 'core.Probe', 'op'],
    [12, 'lifecycle', 'core.Lifecycle', 'op'],
    [13, 'terminationMessagePath', 'string', 'o'],
    [20, 'terminationMessagePolicy', 'string', 'o'],
    [14, 'imagePullPolicy', 'string', 'o'],
    [15, 'securityContext', 'core.SecurityContext', 'op'],
    [16, 'stdin', 'bool', 'o'],
    [17, 'stdinOnce', 'bool', 'o'],
    [18, 'tty', 'bool', 'o'],
  ],
  /** k8s.io.api.core.v1.PodDNSConfigOption */
  'core.PodDNSConfigOption': [
    [1, 'name', 'string', 'o'],
    [2, 'value', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.ResourceClaim */
  'core.ResourceClaim': [
    [1, 'name', 'string'],
    [2, 'request', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.ConfigMapEnvSource */
  'core.ConfigMapEnvSource': [
    [1, '', 'core.LocalObjectReference', 'i'],
    [2, 'optional', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.SecretEnvSource */
  'core.SecretEnvSource': [
    [1, '', 'core.LocalObjectReference', 'i'],
    [2, 'optional', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.EnvVarSource */
  'core.EnvVarSource': [
    [1, 'fieldRef', 'core.ObjectFieldSelector', 'op'],
    [2, 'resourceFieldRef', 'core.ResourceFieldSelector', 'op'],
    [3, 'configMapKeyRef', 'core.ConfigMapKeySelector', 'op'],
    [4, 'secretKeyRef', 'core.SecretKeySelector', 'op'],
  ],
  /** k8s.io.api.core.v1.ObjectFieldSelector */
  'core.ObjectFieldSelector': [
    [1, 'apiVersion', 'string', 'o'],
    [2, 'fieldPath', 'string'],
  ],
  /** k8s.io.api.core.v1.ResourceFieldSelector */
  'core.ResourceFieldSelector': [
    [1, 'containerName', 'string', 'o'],
    [2, 'resource', 'string'],
    [3, 'divisor', 'Quantity', 'o'],
  ],
  /** k8s.io.api.core.v1.ConfigMapKeySelector */
  'core.ConfigMapKeySelector': [
    [1, '', 'core.LocalObjectReference', 'i'],
    [2, 'key', 'string'],
    [3, 'optional', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.SecretKeySelector */
  'core.SecretKeySelector': [
    [1, '', 'core.LocalObjectReference', 'i'],
    [2, 'key', 'string'],
    [3, 'optional', 'bool', 'op'],
  ],
};
