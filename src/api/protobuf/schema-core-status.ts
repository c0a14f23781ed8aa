/**
 * Protobuf schema tables: core/v1 PodStatus and Node messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits. Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33): numbers from the `protobuf` tags, names and `omitempty`
 * from the `json` tags, `p` where the Go field is a pointer.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for core/v1 PodStatus and Node messages. */
export const coreStatusTables: MessageTables = {
  /** k8s.io.api.core.v1.Node */
  'core.Node': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.NodeSpec', 'o'],
    [3, 'status', 'core.NodeStatus', 'o'],
  ],
  /** k8s.io.api.core.v1.PodStatus */
  'core.PodStatus': [
    [17, 'observedGeneration', 'int64', 'o'],
    [1, 'phase', 'string', 'o'],
    [2, 'conditions', 'core.PodCondition', 'or'],
    [3, 'message', 'string', 'o'],
    [4, 'reason', 'string', 'o'],
    [11, 'nominatedNodeName', 'string', 'o'],
    [5, 'hostIP', 'string', 'o'],
    [16, 'hostIPs', 'core.HostIP', 'or'],
    [6, 'podIP', 'string', 'o'],
    [12, 'podIPs', 'core.PodIP', 'or'],
    [7, 'startTime', 'Time', 'op'],
    [10, 'initContainerStatuses', 'core.ContainerStatus', 'or'],
    [8, 'containerStatuses', 'core.ContainerStatus', 'or'],
    [9, 'qosClass', 'string', 'o'],
    [13, 'ephemeralContainerStatuses', 'core.ContainerStatus', 'or'],
    [14, 'resize', 'string', 'o'],
    [15, 'resourceClaimStatuses', 'core.PodResourceClaimStatus', 'or'],
  ],
  /** k8s.io.api.core.v1.NodeSpec */
  'core.NodeSpec': [
    [1, 'podCIDR', 'string', 'o'],
    [7, 'podCIDRs', 'string', 'or'],
    [3, 'providerID', 'string', 'o'],
    [4, 'unschedulable', 'bool', 'o'],
    [5, 'taints', 'core.Taint', 'or'],
    [6, 'configSource', 'core.NodeConfigSource', 'op'],
    [2, 'externalID', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.NodeStatus */
  'core.NodeStatus': [
    [1, 'capacity', 'Quantity', 'om'],
    [2, 'allocatable', 'Quantity', 'om'],
    [3, 'phase', 'string', 'o'],
    [4, 'conditions', 'core.NodeCondition', 'or'],
    [5, 'addresses', 'core.NodeAddress', 'or'],
    [6, 'daemonEndpoints', 'core.NodeDaemonEndpoints', 'o'],
    [7, 'nodeInfo', 'core.NodeSystemInfo', 'o'],
    [8, 'images', 'core.ContainerImage', 'or'],
    [9, 'volumesInUse', 'string', 'or'],
    [10, 'volumesAttached', 'core.AttachedVolume', 'or'],
    [11, 'config', 'core.NodeConfigStatus', 'op'],
    [12, 'runtimeHandlers', 'core.NodeRuntimeHandler', 'or'],
    [13, 'features', 'core.NodeFeatures', 'op'],
  ],
  /** k8s.io.api.core.v1.PodCondition */
  'core.PodCondition': [
    [1, 'type', 'string'],
    [7, 'observedGeneration', 'int64', 'o'],
    [2, 'status', 'string'],
    [3, 'lastProbeTime', 'Time', 'o'],
    [4, 'lastTransitionTime', 'Time', 'o'],
    [5, 'reason', 'string', 'o'],
    [6, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.HostIP */
  'core.HostIP': [[1, 'ip', 'string']],
  /** k8s.io.api.core.v1.PodIP */
  'core.PodIP': [[1, 'ip', 'string']],
  /** k8s.io.api.core.v1.ContainerStatus */
  'core.ContainerStatus': [
    [1, 'name', 'string'],
    [2, 'state', 'core.ContainerState', 'o'],
    [3, 'lastState', 'core.ContainerState', 'o'],
    [4, 'ready', 'bool'],
    [5, 'restartCount', 'int32'],
    [6, 'image', 'string'],
    [7, 'imageID', 'string'],
    [8, 'containerID', 'string', 'o'],
    [9, 'started', 'bool', 'op'],
    [10, 'allocatedResources', 'Quantity', 'om'],
    [11, 'resources', 'core.ResourceRequirements', 'op'],
    [12, 'volumeMounts', 'core.VolumeMountStatus', 'or'],
    [13, 'user', 'core.ContainerUser', 'op'],
    [14, 'allocatedResourcesStatus', 'core.ResourceStatus', 'or'],
    [15, 'stopSignal', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.PodResourceClaimStatus */
  'core.PodResourceClaimStatus': [
    [1, 'name', 'string'],
    [2, 'resourceClaimName', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.Taint */
  'core.Taint': [
    [1, 'key', 'string'],
    [2, 'value', 'string', 'o'],
    [3, 'effect', 'string'],
    [4, 'timeAdded', 'Time', 'op'],
  ],
  /** k8s.io.api.core.v1.NodeConfigSource */
  'core.NodeConfigSource': [[2, 'configMap', 'core.ConfigMapNodeConfigSource', 'op']],
  /** k8s.io.api.core.v1.NodeCondition */
  'core.NodeCondition': [
    [1, 'type', 'string'],
    [2, 'status', 'string'],
    [3, 'lastHeartbeatTime', 'Time', 'o'],
    [4, 'lastTransitionTime', 'Time', 'o'],
    [5, 'reason', 'string', 'o'],
    [6, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.NodeAddress */
  'core.NodeAddress': [
    [1, 'type', 'string'],
    [2, 'address', 'string'],
  ],
  /** k8s.io.api.core.v1.NodeDaemonEndpoints */
  'core.NodeDaemonEndpoints': [[1, 'kubeletEndpoint', 'core.DaemonEndpoint', 'o']],
  /** k8s.io.api.core.v1.NodeSystemInfo */
  'core.NodeSystemInfo': [
    [1, 'machineID', 'string'],
    [2, 'systemUUID', 'string'],
    [3, 'bootID', 'string'],
    [4, 'kernelVersion', 'string'],
    [5, 'osImage', 'string'],
    [6, 'containerRuntimeVersion', 'string'],
    [7, 'kubeletVersion', 'string'],
    [8, 'kubeProxyVersion', 'string'],
    [9, 'operatingSystem', 'string'],
    [10, 'architecture', 'string'],
    [11, 'swap', 'core.NodeSwapStatus', 'op'],
  ],
  /** k8s.io.api.core.v1.ContainerImage */
  'core.ContainerImage': [
    [1, 'names', 'string', 'r'],
    [2, 'sizeBytes', 'int64', 'o'],
  ],
  /** k8s.io.api.core.v1.AttachedVolume */
  'core.AttachedVolume': [
    [1, 'name', 'string'],
    [2, 'devicePath', 'string'],
  ],
  /** k8s.io.api.core.v1.NodeConfigStatus */
  'core.NodeConfigStatus': [
    [1, 'assigned', 'core.NodeConfigSource', 'op'],
    [2, 'active', 'core.NodeConfigSource', 'op'],
    [3, 'lastKnownGood', 'core.NodeConfigSource', 'op'],
    [4, 'error', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.NodeRuntimeHandler */
  'core.NodeRuntimeHandler': [
    [1, 'name', 'string'],
    [2, 'features', 'core.NodeRuntimeHandlerFeatures', 'op'],
  ],
  /** k8s.io.api.core.v1.NodeFeatures */
  'core.NodeFeatures': [[1, 'supplementalGroupsPolicy', 'bool', 'op']],
  /** k8s.io.api.core.v1.ContainerState */
  'core.ContainerState': [
    [1, 'waiting', 'core.ContainerStateWaiting', 'op'],
    [2, 'running', 'core.ContainerStateRunning', 'op'],
    [3, 'terminated', 'core.ContainerStateTerminated', 'op'],
  ],
  /** k8s.io.api.core.v1.VolumeMountStatus */
  'core.VolumeMountStatus': [
    [1, 'name', 'string'],
    [2, 'mountPath', 'string'],
    [3, 'readOnly', 'bool', 'o'],
    [4, 'recursiveReadOnly', 'string', 'op'],
  ],
  /** k8s.io.api.core.v1.ContainerUser */
  'core.ContainerUser': [[1, 'linux', 'core.LinuxContainerUser', 'op']],
  /** k8s.io.api.core.v1.ResourceStatus */
  'core.ResourceStatus': [
    [1, 'name', 'string'],
    [2, 'resources', 'core.ResourceHealth', 'or'],
  ],
  /** k8s.io.api.core.v1.ConfigMapNodeConfigSource */
  'core.ConfigMapNodeConfigSource': [
    [1, 'namespace', 'string'],
    [2, 'name', 'string'],
    [3, 'uid', 'string', 'o'],
    [4, 'resourceVersion', 'string', 'o'],
    [5, 'kubeletConfigKey', 'string'],
  ],
  /** k8s.io.api.core.v1.DaemonEndpoint */
  'core.DaemonEndpoint': [[1, 'Port', 'int32']],
  /** k8s.io.api.core.v1.NodeSwapStatus */
  'core.NodeSwapStatus': [[1, 'capacity', 'int64', 'op']],
  /** k8s.io.api.core.v1.NodeRuntimeHandlerFeatures */
  'core.NodeRuntimeHandlerFeatures': [
    [1, 'recursiveReadOnlyMounts', 'bool', 'op'],
    [2, 'userNamespaces', 'bool', 'op'],
  ],
  /** k8s.io.api.core.v1.ContainerStateWaiting */
  'core.ContainerStateWaiting': [
    [1, 'reason', 'string', 'o'],
    [2, 'message', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.ContainerStateRunning */
  'core.ContainerStateRunning': [[1, 'startedAt', 'Time', 'o']],
  /** k8s.io.api.core.v1.ContainerStateTerminated */
  'core.ContainerStateTerminated': [
    [1, 'exitCode', 'int32'],
    [2, 'signal', 'int32', 'o'],
    [3, 'reason', 'string', 'o'],
    [4, 'message', 'string', 'o'],
    [5, 'startedAt', 'Time', 'o'],
    [6, 'finishedAt', 'Time', 'o'],
    [7, 'containerID', 'string', 'o'],
  ],
  /** k8s.io.api.core.v1.LinuxContainerUser */
  'core.LinuxContainerUser': [
    [1, 'uid', 'int64'],
    [2, 'gid', 'int64'],
    [3, 'supplementalGroups', 'int64', 'or'],
  ],
  /** k8s.io.api.core.v1.ResourceHealth */
  'core.ResourceHealth': [
    [1, 'resourceID', 'string'],
    [2, 'health', 'string', 'o'],
  ],
};
