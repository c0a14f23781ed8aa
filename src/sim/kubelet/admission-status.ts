/**
 * The status a kubelet writes for a pod it rejects at admission (upstream `Kubelet.rejectPod`
 * through the status manager's `updateStatusInternal` and `mergePodStatus`). Pure.
 *
 * `rejectPod` sets only phase `Failed`, `reason`, `message` (`Pod was rejected: ` + the
 * admission message) and `qosClass` (kept as is). The status manager then adds `startTime`
 * (now, unless the pod already had one) and merges with the stored status: the conditions the
 * kubelet owns (`PodScheduled`, `Ready`, `Initialized`, `ContainersReady`,
 * `PodReadyToStartContainers`, the resize ones) are replaced by the new status's — none — and
 * other owners' conditions (readiness gates, `DisruptionTarget`) stay. So a rejected pod shows
 * no `PodScheduled` condition, no IPs and no container statuses, as `kubectl describe` shows on
 * a real cluster:
 *
 * ```yaml
 * status:
 *   phase: Failed
 *   reason: OutOfcpu
 *   message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000"
 *   qosClass: Burstable
 *   startTime: "2025-01-01T00:00:00Z"
 * ```
 *
 * @module
 */
import { podQOSClass } from '../../api/kinds/qos.js';
import { formatTime } from '../../api/time.js';
import type { Rejection } from './admission.js';
import type { KubeletPod, PodStatus } from './kubelet-pod.js';

export const REJECTED_PREFIX = 'Pod was rejected: ';

/** Upstream `PodConditionsByKubelet` (with PodReadyToStartContainers, on by default). */
const KUBELET_CONDITIONS = new Set([
  'PodScheduled',
  'Ready',
  'Initialized',
  'ContainersReady',
  'PodReadyToStartContainers',
  'PodResizePending',
  'PodResizeInProgress',
]);

export function rejectedStatus(pod: KubeletPod, rejection: Rejection, now: number): PodStatus {
  const old = pod.status ?? {};
  const kept = (old.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.has(c.type));
  const claims = old.resourceClaimStatuses;
  return {
    phase: 'Failed',
    ...(kept.length > 0 ? { conditions: kept } : {}),
    message: REJECTED_PREFIX + rejection.message,
    reason: rejection.reason,
    startTime: old.startTime ?? formatTime(now),
    qosClass: old.qosClass ?? podQOSClass(pod.spec),
    // Not owned by the kubelet: the merge keeps it.
    ...(claims !== undefined ? { resourceClaimStatuses: claims } : {}),
  };
}
