/**
 * Deployment conditions: reasons and messages as upstream (`deployment_util.go` constants,
 * `NewDeploymentCondition`, `SetDeploymentCondition`, `RemoveDeploymentCondition`,
 * `ReplicaSetToDeploymentCondition`). Pure; a status is edited as a private copy.
 *
 * @module
 */
import type {
  DeploymentCondition as Condition,
  DeploymentStatus,
  ReplicaSetCondition,
} from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';

export const PROGRESSING = 'Progressing';
export const AVAILABLE = 'Available';
export const REPLICA_FAILURE = 'ReplicaFailure';

export const REASONS = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** `NewDeploymentCondition`: both times are now. */
export function newCondition(
  nowMs: number,
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
): Condition {
  const now = formatTime(nowMs);
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

export function getCondition(
  status: DeploymentStatus | undefined,
  type: string,
): Condition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * `SetDeploymentCondition`: no change when status and reason are the same; otherwise replace
 * (appended last), keeping lastTransitionTime when only the reason changed.
 */
export function setCondition(status: DeploymentStatus, condition: Condition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status) {
    next.lastTransitionTime = current.lastTransitionTime;
  }
  status.conditions = [...withoutCondition(status.conditions, condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  const rest = withoutCondition(status.conditions, type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

function withoutCondition(conditions: Condition[] | undefined, type: string): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** `ReplicaSetToDeploymentCondition`: lastUpdateTime is the RS condition's transition time. */
export function fromReplicaSetCondition(c: ReplicaSetCondition): Condition {
  const out: Condition = { type: c.type, status: c.status };
  if (c.lastTransitionTime !== undefined) {
    out.lastUpdateTime = c.lastTransitionTime;
    out.lastTransitionTime = c.lastTransitionTime;
  }
  if (c.reason !== undefined) out.reason = c.reason;
  if (c.message !== undefined) out.message = c.message;
  return out;
}
