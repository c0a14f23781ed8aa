/**
 * Pod garbage collection planning, after upstream `pkg/controller/podgc/gc_controller.go` (`gc`):
 * in order, (1) terminated pods above `terminatedPodGCThreshold`, evicted first then oldest;
 * (2) terminating pods on a not-Ready node tainted `node.kubernetes.io/out-of-service`;
 * (3) pods bound to a node that has been missing for the quarantine time; (4) terminating pods
 * never bound to a node. Every deletion is a force delete (grace 0), preceded by setting phase
 * Failed on a pod not yet terminal. A terminating pod on an unreachable but existing node is
 * NOT collected: only the user (force delete), the node's return, its deletion or the
 * out-of-service taint ends it. Pure: `now` is epoch ms.
 *
 * Upstream's quarantine is a delaying queue plus a live GET; here the caller carries
 * `missingNodesSince` from one pass to the next (first sighting of each missing node name).
 *
 * @module
 */

import type { Node, Pod } from '../../api/model/index.js';
import type { PodCondition } from '../../api/policy/pod-conditions.js';
import { formatTime, parseTime } from '../../api/time.js';
import { nodeReadyStatus } from './node-health.js';
import { nodeTaints, podNodeName, TAINT_OUT_OF_SERVICE } from './taints.js';

export interface PodGarbageOptions {
  /** `--terminated-pod-gc-threshold`; 0 or less turns terminated-pod GC off. @default 12500 */
  terminatedPodGCThreshold?: number;
  /** How long a node name must stay missing before its pods go. @default 40_000 */
  quarantineMs?: number;
  /** Epoch ms each missing node was first seen missing, as returned by the previous pass. */
  missingNodesSince?: ReadonlyMap<string, number>;
}

export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12_500;
export const DEFAULT_ORPHAN_QUARANTINE_MS = 40_000;

/** Upstream metric label values (`metrics.PodGCReason*`). */
export type PodGarbageReason =
  | 'terminated'
  | 'terminating-out-of-service'
  | 'orphaned'
  | 'terminating-unscheduled';

export interface PodDeletion {
  pod: Pod;
  reason: PodGarbageReason;
  /** Patch `status.phase: Failed` (plus `condition`, if any) before deleting: the pod was not terminal. */
  markFailed: boolean;
  /** The DisruptionTarget condition to set with the phase (orphaned pods only). */
  condition?: PodCondition;
  /** Always 0: PodGC force-deletes. */
  gracePeriodSeconds: 0;
}

export interface PodGarbagePlan {
  /** Each pod at most once, in upstream's pass order. */
  deletions: PodDeletion[];
  /** Pass back as `missingNodesSince` next time. */
  missingNodesSince: Map<string, number>;
  /** Earliest future time a quarantine ends, to requeue at; `undefined` when none pending. */
  recheckAt?: number;
}

function phase(pod: Pod): string {
  return pod.status?.phase ?? '';
}

/**
 * `isPodTerminated`: any phase other than Pending, Running or Unknown — an empty phase counts as
 * terminated upstream, and here too.
 */
export function isPodTerminated(pod: Pod): boolean {
  const p = phase(pod);
  return p !== 'Pending' && p !== 'Running' && p !== 'Unknown';
}

/** `eviction.PodIsEvicted`: Failed with reason Evicted. */
function isEvicted(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' && pod.status.reason === 'Evicted';
}

/** `byEvictionAndCreationTimestamp`: evicted first, then oldest, then name (namespace last, for a total order). */
function compareForGC(a: Pod, b: Pod): number {
  const ea = isEvicted(a);
  if (ea !== isEvicted(b)) return ea ? -1 : 1;
  const ca = parseTime(a.metadata?.creationTimestamp) ?? 0;
  const cb = parseTime(b.metadata?.creationTimestamp) ?? 0;
  if (ca !== cb) return ca - cb;
  const byName = (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
  return byName !== 0
    ? byName
    : (a.metadata?.namespace ?? '').localeCompare(b.metadata?.namespace ?? '');
}

function terminatedOverThreshold(pods: readonly Pod[], threshold: number): Pod[] {
  if (threshold <= 0) return [];
  const terminated = pods.filter(isPodTerminated);
  const excess = terminated.length - threshold;
  return excess > 0 ? [...terminated].sort(compareForGC).slice(0, excess) : [];
}

function terminatingOutOfService(pods: readonly Pod[], nodes: ReadonlyMap<string, Node>): Pod[] {
  return pods
    .filter((pod) => {
      if (!pod.metadata?.deletionTimestamp) return false;
      const node = nodes.get(podNodeName(pod));
      if (node === undefined) return false;
      return (
        nodeReadyStatus(node) !== 'True' &&
        nodeTaints(node).some((t) => t.key === TAINT_OUT_OF_SERVICE)
      );
    })
    .sort(compareForGC);
}

/** The DisruptionTarget condition PodGC sets on pods whose node is gone (wire form: `null` probe time). */
export function orphanedPodCondition(now: number): PodCondition {
  return {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'DeletionByPodGC',
    message: 'PodGC: node no longer exists',
    lastProbeTime: null,
    lastTransitionTime: formatTime(now),
  };
}

/** Plans one PodGC pass over all pods and nodes. */
export function podGarbage(
  pods: readonly Pod[],
  nodes: readonly Node[],
  now: number,
  opts: PodGarbageOptions = {},
): PodGarbagePlan {
  const byName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
  const quarantine = opts.quarantineMs ?? DEFAULT_ORPHAN_QUARANTINE_MS;
  const missingNodesSince = new Map<string, number>();
  for (const pod of pods) {
    const name = podNodeName(pod);
    if (name !== '' && !byName.has(name) && !missingNodesSince.has(name)) {
      missingNodesSince.set(name, opts.missingNodesSince?.get(name) ?? now);
    }
  }
  const gone = (name: string) => {
    const since = missingNodesSince.get(name);
    return since !== undefined && now >= since + quarantine;
  };
  const pending = [...missingNodesSince.values()].map((s) => s + quarantine).filter((t) => t > now);

  const deletions: PodDeletion[] = [];
  const seen = new Set<Pod>();
  const add = (pod: Pod, reason: PodGarbageReason, condition?: PodCondition) => {
    if (seen.has(pod)) return;
    seen.add(pod);
    const p = phase(pod);
    const markFailed = p !== 'Succeeded' && p !== 'Failed';
    deletions.push({
      pod,
      reason,
      markFailed,
      ...(condition && markFailed ? { condition } : {}),
      gracePeriodSeconds: 0,
    });
  };
  const threshold = opts.terminatedPodGCThreshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD;
  for (const pod of terminatedOverThreshold(pods, threshold)) add(pod, 'terminated');
  for (const pod of terminatingOutOfService(pods, byName)) add(pod, 'terminating-out-of-service');
  for (const pod of pods)
    if (gone(podNodeName(pod))) add(pod, 'orphaned', orphanedPodCondition(now));
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp && podNodeName(pod) === '')
      add(pod, 'terminating-unscheduled');
  }
  const plan: PodGarbagePlan = { deletions, missingNodesSince };
  if (pending.length > 0) plan.recheckAt = Math.min(...pending);
  return plan;
}
