/**
 * The Node object a simulated kubelet registers and the status it posts, after upstream
 * `kubelet_node_status.go` (`initialNode`, `registerWithAPIServer`, `tryUpdateNodeStatus`) and
 * the `nodestatus` setters. Pure: the apply side is in `node-status-loop.ts`.
 *
 * Conditions come in the setters' order (MemoryPressure, DiskPressure, PIDPressure, Ready) with
 * the kubelet's reasons and messages. Every status pass stamps `lastHeartbeatTime = now`;
 * `lastTransitionTime` moves only when a condition's status changes. As upstream, a pass whose
 * status differs from the stored one only in heartbeat times is not written unless the report
 * period (5 min) has passed since the last write.
 *
 * Allocatable equals capacity (kwok's habit: no system reservations or eviction thresholds).
 *
 * @module
 */

import { isDeepStrictEqual } from 'node:util';
import type { Node, NodeCondition, NodeStatus, NodeSystemInfo } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { FLEETYARD_VERSION, KUBERNETES_MINOR } from '../../api/version.js';
import type { NodeIdentity, ResolvedOptions } from './node-config.js';

export const KUBELET_VERSION = `v1.${KUBERNETES_MINOR}.0+fleetyard.${FLEETYARD_VERSION}`;
/** The kubelet's secure port (`daemonEndpoints.kubeletEndpoint.Port`). */
export const KUBELET_PORT = 10250;

/** The conditions a healthy kubelet reports: [type, status, reason, message]. */
const HEALTHY: readonly [string, 'True' | 'False', string, string][] = [
  [
    'MemoryPressure',
    'False',
    'KubeletHasSufficientMemory',
    'kubelet has sufficient memory available',
  ],
  ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
  ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
  ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
];

export function nodeLabels(id: NodeIdentity, opts: ResolvedOptions): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': opts.arch,
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': opts.arch,
    'kubernetes.io/hostname': id.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': opts.instanceType,
    'topology.kubernetes.io/region': id.region,
    'topology.kubernetes.io/zone': id.zone,
  };
}

/** The Node to create at registration (status included: the create keeps it, as for kwok). */
export function initialNode(id: NodeIdentity, opts: ResolvedOptions, now: number): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.name,
      labels: nodeLabels(id, opts),
      annotations: { 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { podCIDR: id.podCIDR, podCIDRs: [id.podCIDR] },
    status: nodeStatus(id, opts, undefined, now),
  };
}

/** Healthy conditions at `now`, keeping transition times of conditions whose status holds. */
export function healthyConditions(previous: NodeStatus | undefined, now: number): NodeCondition[] {
  const old = previous?.conditions ?? [];
  const stamp = formatTime(now);
  return HEALTHY.map(([type, status, reason, message]) => {
    const before = old.find((c) => c.type === type);
    const lastTransitionTime = before?.status === status ? before.lastTransitionTime : stamp;
    return { type, status, lastHeartbeatTime: stamp, lastTransitionTime, reason, message };
  });
}

/** The full status the kubelet posts; `previous` is the stored status (or undefined). */
export function nodeStatus(
  id: NodeIdentity,
  opts: ResolvedOptions,
  previous: NodeStatus | undefined,
  now: number,
): NodeStatus {
  return {
    ...previous,
    capacity: { ...opts.capacity, 'hugepages-1Gi': '0', 'hugepages-2Mi': '0' },
    allocatable: { ...opts.capacity, 'hugepages-1Gi': '0', 'hugepages-2Mi': '0' },
    conditions: healthyConditions(previous, now),
    addresses: [
      { type: 'InternalIP', address: id.ip },
      { type: 'Hostname', address: id.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
    nodeInfo: nodeInfo(id, opts),
  };
}

function nodeInfo(id: NodeIdentity, opts: ResolvedOptions): NodeSystemInfo {
  // Stable per node name, so a restart posts the same identity.
  const hex = Buffer.from(id.name).toString('hex').padEnd(32, '0').slice(0, 32);
  return {
    machineID: hex,
    systemUUID: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
    bootID: hex,
    kernelVersion: '6.8.0-fleetyard',
    osImage: 'fleetyard simulated node',
    containerRuntimeVersion: 'containerd://1.7.24',
    kubeletVersion: KUBELET_VERSION,
    kubeProxyVersion: '',
    operatingSystem: 'linux',
    architecture: opts.arch,
  };
}

/** Drops heartbeat times: what `nodeStatusHasChanged` compares. */
function withoutHeartbeats(status: NodeStatus | undefined): NodeStatus {
  return {
    ...status,
    conditions: (status?.conditions ?? []).map(({ lastHeartbeatTime: _h, ...rest }) => rest),
  };
}

/**
 * Whether the status must be posted: it changed (ignoring heartbeat times), or the report
 * period has passed since the last post (`lastReportAt`, epoch ms; undefined = never).
 */
export function mustPostStatus(
  stored: NodeStatus | undefined,
  next: NodeStatus,
  now: number,
  lastReportAt: number | undefined,
  reportMs: number,
): boolean {
  if (lastReportAt === undefined || now - lastReportAt >= reportMs) return true;
  return statusChanged(stored, next);
}

/** Whether `next` differs from the stored status other than in heartbeat times. */
export function statusChanged(stored: NodeStatus | undefined, next: NodeStatus): boolean {
  return !isDeepStrictEqual(withoutHeartbeats(stored), withoutHeartbeats(next));
}
