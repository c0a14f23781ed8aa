/**
 * The non-rollout paths of a Deployment sync, after upstream `sync.go`: `sync` (paused
 * deployments and scaling events: proportional scaling, then cleanup when paused),
 * `syncStatusOnly` (a deployment being deleted) and `checkPausedConditions`.
 *
 * @module
 */
import type { ReplicaSet } from '../../api/model/index.js';
import { getCondition, newCondition, PROGRESSING, REASONS } from './conditions.js';
import { isScalingEvent, proportionalScale } from './proportional.js';
import { activeReplicaSets, deploymentReplicas, maxSurge, replicaCount } from './rollout-math.js';
import type { DeploymentSyncer } from './syncer.js';
import { hasProgressDeadline } from './types.js';

/** `syncStatusOnly`: status from the ReplicaSets, no other writes. */
export async function syncStatusOnly(
  s: DeploymentSyncer,
  rsList: readonly ReplicaSet[],
): Promise<void> {
  const { newRS, oldRSs } = await s.replicaSets(rsList, false);
  await s.syncDeploymentStatus([...oldRSs, newRS], newRS);
}

/** `sync`: scale (proportionally when several RSes are active), clean up if paused, status. */
export async function syncScaling(
  s: DeploymentSyncer,
  rsList: readonly ReplicaSet[],
): Promise<void> {
  const { newRS, oldRSs } = await s.replicaSets(rsList, false);
  await scale(s, newRS, oldRSs);
  if (s.d.spec?.paused) await s.cleanup(oldRSs);
  await s.syncDeploymentStatus([...oldRSs, newRS], newRS);
}

/** `isScalingEvent` over this reconcile's RSes (revision sync included, as upstream). */
export async function scalingEvent(
  s: DeploymentSyncer,
  rsList: readonly ReplicaSet[],
): Promise<boolean> {
  const { newRS, oldRSs } = await s.replicaSets(rsList, false);
  return isScalingEvent(s.d, [...oldRSs, newRS]);
}

/** `scale`: applies the proportional plan; the event verb is the direction of the whole change. */
async function scale(
  s: DeploymentSyncer,
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): Promise<void> {
  const plan = proportionalScale(s.d, { newRS, oldRSs });
  const byName = new Map(
    [...oldRSs, ...(newRS ? [newRS] : [])].map((rs) => [rs.metadata?.name, rs]),
  );
  if (plan.kind !== 'proportional') {
    for (const t of plan.targets) {
      const rs = byName.get(t.name);
      if (rs) await s.scaleAndRecord(rs, t.to);
    }
    return;
  }
  const replicas = deploymentReplicas(s.d);
  const allowed = replicas > 0 ? replicas + maxSurge(s.d) : 0;
  const toAdd = allowed - replicaCount(activeReplicaSets([...oldRSs, newRS]));
  for (const t of plan.targets) {
    const rs = byName.get(t.name);
    if (rs) await s.scaleReplicaSet(rs, t.to, toAdd > 0 ? 'up' : 'down');
  }
}

/**
 * `checkPausedConditions`: Progressing=Unknown `DeploymentPaused` on pause and
 * `DeploymentResumed` on resume (which restarts the deadline clock); never over a recorded
 * ProgressDeadlineExceeded; only when a deadline is set.
 */
export async function checkPausedConditions(s: DeploymentSyncer): Promise<void> {
  if (!hasProgressDeadline(s.d)) return;
  const cond = getCondition(s.d.status, PROGRESSING);
  if (cond?.reason === REASONS.timedOut) return;
  const pausedCondExists = cond?.reason === REASONS.paused;
  const paused = s.d.spec?.paused === true;
  if (paused && !pausedCondExists) {
    s.setCondition(
      newCondition(s.now, PROGRESSING, 'Unknown', REASONS.paused, 'Deployment is paused'),
    );
  } else if (!paused && pausedCondExists) {
    s.setCondition(
      newCondition(s.now, PROGRESSING, 'Unknown', REASONS.resumed, 'Deployment is resumed'),
    );
  } else {
    return;
  }
  await s.saveStatus();
}
