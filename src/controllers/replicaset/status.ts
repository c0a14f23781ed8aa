/**
 * ReplicaSet status computation, following upstream `replica_set_utils.go: calculateStatus` and the
 * skip-write rule of `updateReplicaSetStatus`, plus the pod-state predicates both this file and the
 * victim ranking need (`IsPodActive`, `IsPodReady`, `IsPodAvailable`). Pure: `now` is epoch ms.
 *
 * @module
 */

import type {
  Pod,
  PodCondition,
  ReplicaSet,
  ReplicaSetCondition,
  ReplicaSetStatus,
} from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import { isPodReady } from '../../api/policy/pod-conditions.js';
import { formatTime, parseTime } from '../../api/time.js';
import { minReadySecondsOf, replicasOf } from '../../controller/workload-defaults.js';

/** The only ReplicaSet condition type. */
export const REPLICA_FAILURE_CONDITION = 'ReplicaFailure';

/** The pod's `Ready` condition, if any. */
export function podReadyCondition(pod: Pod): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

// One reading of a pod's readiness for the eviction subresource and every controller.
export { isPodReady };

/** Upstream IsPodActive: not Succeeded/Failed and no deletionTimestamp. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = pod.metadata?.deletionTimestamp;
  return deletion === undefined || deletion === null;
}

/**
 * Upstream IsPodAvailable: ready, and either minReadySeconds is 0 or the Ready transition time
 * plus minReadySeconds is STRICTLY before now (a zero transition time never qualifies when m > 0).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = parseTime(podReadyCondition(pod)?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < now;
}

/** labels ⊇ template labels (an empty template selects everything, as upstream's selector does). */
function hasAllLabels(pod: Pod, template: Readonly<Record<string, string>>): boolean {
  const labels = pod.metadata?.labels ?? {};
  return Object.entries(template).every(([k, v]) => labels[k] === v);
}

/** Builds the `ReplicaFailure` condition upstream adds when manageReplicas failed. */
function failureCondition(
  activeCount: number,
  desired: number,
  error: Error | string,
  now: number,
): ReplicaSetCondition {
  const diff = activeCount - desired;
  // diff == 0 leaves the reason empty upstream (a failure with no create/delete in flight).
  const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
  return {
    type: REPLICA_FAILURE_CONDITION,
    status: 'True',
    lastTransitionTime: formatTime(now),
    reason,
    message: typeof error === 'string' ? error : error.message,
  };
}

function nextConditions(
  rs: ReplicaSet,
  activeCount: number,
  now: number,
  manageError?: Error | string,
): ReplicaSetCondition[] {
  const list = rs.status?.conditions ?? [];
  const hasFailure = list.some((c) => c.type === REPLICA_FAILURE_CONDITION);
  if (manageError !== undefined && !hasFailure) {
    return [...list, failureCondition(activeCount, desiredReplicas(rs), manageError, now)];
  }
  if (manageError === undefined && hasFailure) {
    return list.filter((c) => c.type !== REPLICA_FAILURE_CONDITION);
  }
  return list;
}

/** `spec.replicas`, defaulted to 1 as `SetDefaults_ReplicaSet` does. */
export function desiredReplicas(rs: ReplicaSet): number {
  return replicasOf(rs);
}

/**
 * The status upstream would write for `rs` given its claimed ACTIVE pods. Unknown status fields and
 * other conditions are preserved; `observedGeneration` = `metadata.generation`. `terminatingPods`
 * (owned pods with a deletionTimestamp) fills the gated `terminatingReplicas` only when given.
 */
export function replicaSetStatus(
  rs: ReplicaSet,
  activePods: readonly Pod[],
  now: number,
  manageError?: Error | string,
  terminatingPods?: readonly Pod[],
): ReplicaSetStatus {
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const minReadySeconds = minReadySecondsOf(rs);
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of activePods) {
    if (hasAllLabels(pod, templateLabels)) fullyLabeled++;
    if (!isPodReady(pod)) continue;
    ready++;
    if (isPodAvailable(pod, minReadySeconds, now)) available++;
  }
  const status: ReplicaSetStatus = { ...rs.status, replicas: activePods.length };
  status.fullyLabeledReplicas = fullyLabeled;
  status.readyReplicas = ready;
  status.availableReplicas = available;
  if (terminatingPods !== undefined) status.terminatingReplicas = terminatingPods.length;
  status.observedGeneration = rs.metadata?.generation ?? 0;
  const conditions = nextConditions(rs, activePods.length, now, manageError);
  // An emptied condition list is a nil slice upstream, which `omitempty` drops from the JSON.
  if (conditions.length > 0) status.conditions = conditions;
  else delete status.conditions;
  return status;
}

const COUNTERS = [
  'replicas',
  'fullyLabeledReplicas',
  'readyReplicas',
  'availableReplicas',
] as const;

/**
 * Upstream's skip-write rule: the write is needed unless all counters, terminatingReplicas and the
 * conditions are equal AND `metadata.generation == status.observedGeneration`.
 */
export function replicaSetStatusChanged(rs: ReplicaSet, next: ReplicaSetStatus): boolean {
  const cur: Partial<ReplicaSetStatus> = rs.status ?? {};
  if (COUNTERS.some((k) => (cur[k] ?? 0) !== (next[k] ?? 0))) return true;
  if ((cur.terminatingReplicas ?? null) !== (next.terminatingReplicas ?? null)) return true;
  if ((rs.metadata?.generation ?? 0) !== (cur.observedGeneration ?? 0)) return true;
  return !deepEqual(cur.conditions ?? [], next.conditions ?? []);
}

/**
 * Seconds after which the controller should re-sync so availability can flip without another event
 * (docs/design/replicaset-deployment.md §1, step 8): only when manageReplicas succeeded, minReadySeconds > 0, every desired replica is
 * ready but not all are available yet. Otherwise `undefined`.
 */
export function availabilityRecheckSeconds(
  rs: ReplicaSet,
  status: ReplicaSetStatus,
  manageError?: Error | string,
): number | undefined {
  const minReadySeconds = minReadySecondsOf(rs);
  if (manageError !== undefined || minReadySeconds <= 0) return undefined;
  const desired = desiredReplicas(rs);
  if ((status.readyReplicas ?? 0) !== desired || (status.availableReplicas ?? 0) === desired)
    return undefined;
  return minReadySeconds;
}
