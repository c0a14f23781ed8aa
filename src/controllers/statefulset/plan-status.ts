/**
 * The status one sync writes (upstream `computeReplicaStatus`, `updateStatus`,
 * `completeRollingUpdate`; docs/design/statefulset.md §10). Conditions are not carried: upstream builds a fresh
 * status, so any condition is dropped.
 *
 * @module
 */
import type { Pod, StatefulSetStatus } from '../../api/model/index.js';
import { ordinalInSet } from './identity.js';
import {
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
  podRevision,
  viewOf,
} from './plan-spec.js';
import type { Plan, PlanInput } from './plan-types.js';

/** The status one sync computes: every field of a `StatefulSetStatus` but the conditions. */
export type SyncedStatus = Required<Omit<StatefulSetStatus, 'conditions'>>;

/**
 * Counts over the observed pods (pods the plan creates have no phase yet and do not count), less
 * one current replica per pod deleted for update; then the completion rule: under RollingUpdate,
 * once every one of `spec.replicas` pods exists, is ready and is at the update revision,
 * `currentRevision` becomes the update revision.
 */
export function statusOf(input: PlanInput, plan: Plan): SyncedStatus {
  const v = viewOf(input.set);
  const status: SyncedStatus = {
    observedGeneration: v.generation,
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    currentRevision: input.currentRevision,
    updateRevision: input.updateRevision,
    collisionCount: v.collisionCount ?? 0,
  };
  // While the set is being deleted upstream counts every claimed pod; otherwise the parsed ones.
  const pods = input.pods.filter(
    (p) => v.deleting || ordinalInSet(v.name, p.metadata?.name ?? '') >= 0,
  );
  for (const pod of pods) countPod(status, pod, v.minReadySeconds, input.now);
  status.currentReplicas -= plan.updateDeletions;
  // Recreate (under its gate, else it is read as RollingUpdate) completes the same way.
  if (
    v.strategy === 'RollingUpdate' &&
    status.updatedReplicas === v.replicas &&
    status.readyReplicas === v.replicas &&
    status.replicas === v.replicas
  ) {
    status.currentRevision = status.updateRevision;
    status.currentReplicas = status.updatedReplicas;
  }
  return status;
}

function countPod(status: SyncedStatus, pod: Pod, minReadySeconds: number, now: number): void {
  status.replicas++;
  if (isRunningAndReady(pod)) {
    status.readyReplicas++;
    if (isRunningAndAvailable(pod, minReadySeconds, now)) status.availableReplicas++;
  }
  if (isTerminating(pod)) return;
  const revision = podRevision(pod);
  if (revision === status.currentRevision) status.currentReplicas++;
  if (revision === status.updateRevision) status.updatedReplicas++;
}

/**
 * Upstream re-queues after `minReadySeconds` while not every replica is available, so the
 * availability clock is re-read without a pod event. Seconds, or undefined for no re-queue.
 */
export function requeueAfterSeconds(input: PlanInput, status: SyncedStatus): number | undefined {
  const v = viewOf(input.set);
  return v.minReadySeconds > 0 && status.availableReplicas !== v.replicas
    ? v.minReadySeconds
    : undefined;
}
