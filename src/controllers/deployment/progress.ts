/**
 * Deployment status as a pure function of its ReplicaSets, after upstream `sync.go:
 * calculateStatus` and `progress.go: syncRolloutStatus, getReplicaFailures,
 * requeueStuckDeployment` with `deployment_util.go: DeploymentComplete, DeploymentProgressing,
 * DeploymentTimedOut`. The controller writes the result only when it differs.
 *
 * @module
 */
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../api/model/index.js';
import { deepCopy, deepEqual } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import {
  AVAILABLE,
  fromReplicaSetCondition,
  getCondition,
  newCondition,
  PROGRESSING,
  REASONS,
  REPLICA_FAILURE,
  removeCondition,
  setCondition,
} from './conditions.js';
import {
  availableReplicaCount,
  deploymentReplicas,
  maxUnavailable,
  replicaCount,
} from './rollout-math.js';
import { hasProgressDeadline, rsReadyReplicas, rsStatusReplicas } from './types.js';

type MaybeRS = ReplicaSet | undefined;

function sum(rss: readonly MaybeRS[], f: (rs: MaybeRS) => number): number {
  return rss.reduce((n, rs) => n + (rs ? f(rs) : 0), 0);
}

/** The counters of a DeploymentStatus. */
type Counter =
  | 'observedGeneration'
  | 'replicas'
  | 'updatedReplicas'
  | 'readyReplicas'
  | 'availableReplicas'
  | 'unavailableReplicas';

/** Drops zero counts, as Go's `omitempty` does on the wire, so stored and computed compare equal. */
function putCount(status: DeploymentStatus, key: Counter, n: number): void {
  if (n !== 0) status[key] = n;
}

/**
 * `calculateStatus`: counts from the ReplicaSets (replicas from their status, unavailable from
 * their spec), conditions copied, Available set from `available ≥ replicas − maxUnavailable`.
 */
export function calculateStatus(
  allRSs: readonly MaybeRS[],
  newRS: MaybeRS,
  d: Deployment,
  nowMs: number,
): DeploymentStatus {
  const available = availableReplicaCount(allRSs);
  const status: DeploymentStatus = {};
  putCount(status, 'observedGeneration', d.metadata?.generation ?? 0);
  putCount(status, 'replicas', sum(allRSs, rsStatusReplicas));
  putCount(status, 'updatedReplicas', rsStatusReplicas(newRS));
  putCount(status, 'readyReplicas', sum(allRSs, rsReadyReplicas));
  putCount(status, 'availableReplicas', available);
  putCount(status, 'unavailableReplicas', Math.max(0, replicaCount(allRSs) - available));
  const conditions = d.status?.conditions;
  if (conditions && conditions.length > 0) status.conditions = deepCopy(conditions);
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (available >= deploymentReplicas(d) - maxUnavailable(d)) {
    const msg = 'Deployment has minimum availability.';
    setCondition(
      status,
      newCondition(nowMs, AVAILABLE, 'True', REASONS.minimumReplicasAvailable, msg),
    );
  } else {
    const msg = 'Deployment does not have minimum availability.';
    setCondition(
      status,
      newCondition(nowMs, AVAILABLE, 'False', REASONS.minimumReplicasUnavailable, msg),
    );
  }
  return status;
}

/** `DeploymentComplete`: every desired replica updated and available, generation observed. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const replicas = deploymentReplicas(d);
  return (
    (s.updatedReplicas ?? 0) === replicas &&
    (s.replicas ?? 0) === replicas &&
    (s.availableReplicas ?? 0) === replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** `DeploymentProgressing`: more updated/ready/available replicas, or fewer old ones. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** `DeploymentTimedOut`: the Progressing condition's lastUpdateTime + deadline is before now. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, PROGRESSING);
  if (c === undefined || c.reason === REASONS.newRSAvailable) return false;
  if (c.reason === REASONS.timedOut) return true;
  const from = parseTime(c.lastUpdateTime) ?? 0;
  return from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 < nowMs;
}

function subject(d: Deployment, newRS: MaybeRS): string {
  return newRS
    ? `ReplicaSet ${JSON.stringify(newRS.metadata?.name ?? '')}`
    : `Deployment ${JSON.stringify(d.metadata?.name ?? '')}`;
}

function setProgressing(d: Deployment, s: DeploymentStatus, newRS: MaybeRS, nowMs: number): void {
  const current = getCondition(d.status, PROGRESSING);
  const who = subject(d, newRS);
  if (deploymentComplete(d, s)) {
    const msg = `${who} has successfully progressed.`;
    setCondition(s, newCondition(nowMs, PROGRESSING, 'True', REASONS.newRSAvailable, msg));
  } else if (deploymentProgressing(d, s)) {
    // Same reason but a fresh lastUpdateTime: the deadline restarts at every sign of progress.
    const c = newCondition(
      nowMs,
      PROGRESSING,
      'True',
      REASONS.replicaSetUpdated,
      `${who} is progressing.`,
    );
    if (current) {
      if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
      removeCondition(s, PROGRESSING);
    }
    setCondition(s, c);
  } else if (deploymentTimedOut(d, s, nowMs)) {
    const msg = `${who} has timed out progressing.`;
    setCondition(s, newCondition(nowMs, PROGRESSING, 'False', REASONS.timedOut, msg));
  }
}

/** `getReplicaFailures`: the new RS's ReplicaFailure conditions, else any RS's. */
function replicaFailure(allRSs: readonly MaybeRS[], newRS: MaybeRS) {
  const failures = (rs: MaybeRS) =>
    (rs?.status?.conditions ?? []).filter((c) => c.type === REPLICA_FAILURE);
  const fromNew = failures(newRS);
  return (fromNew.length > 0 ? fromNew : allRSs.flatMap(failures))[0];
}

/** `syncRolloutStatus`'s new status: counts, Progressing (when a deadline is set), ReplicaFailure. */
export function rolloutStatus(
  allRSs: readonly MaybeRS[],
  newRS: MaybeRS,
  d: Deployment,
  nowMs: number,
): DeploymentStatus {
  const s = calculateStatus(allRSs, newRS, d, nowMs);
  if (!hasProgressDeadline(d)) removeCondition(s, PROGRESSING);
  const current = getCondition(d.status, PROGRESSING);
  const recordedComplete =
    (s.replicas ?? 0) === (s.updatedReplicas ?? 0) && current?.reason === REASONS.newRSAvailable;
  if (hasProgressDeadline(d) && !recordedComplete) setProgressing(d, s, newRS, nowMs);
  const failure = replicaFailure(allRSs, newRS);
  if (failure) setCondition(s, fromReplicaSetCondition(failure));
  else removeCondition(s, REPLICA_FAILURE);
  return s;
}

/** True when `next` differs from the stored status (absent = empty). */
export function statusChanged(d: Deployment, next: DeploymentStatus): boolean {
  return !deepEqual(d.status ?? {}, next);
}

/**
 * `requeueStuckDeployment`: ms until the deadline check (lastUpdateTime + deadline − now, plus
 * 1 s against timer skew), 0 for "now, rate limited" when under a second is left, undefined when
 * no check is needed (no deadline, no condition, complete, or already timed out).
 */
export function stuckRequeueAfter(
  d: Deployment,
  next: DeploymentStatus,
  nowMs: number,
): number | undefined {
  const c = getCondition(d.status, PROGRESSING);
  if (!hasProgressDeadline(d) || c === undefined) return undefined;
  if (deploymentComplete(d, next) || c.reason === REASONS.timedOut) return undefined;
  const after =
    (parseTime(c.lastUpdateTime) ?? 0) + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 - nowMs;
  return after < 1000 ? 0 : after + 1000;
}
