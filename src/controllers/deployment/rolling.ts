/**
 * RollingUpdate, after upstream `rolling.go: rolloutRolling`: grow the new ReplicaSet within
 * maxSurge; else shrink old ones within maxUnavailable (unhealthy replicas first); when
 * complete, trim history; then the rollout status. The sizes come from `rollout-math.ts`.
 *
 * @module
 */
import type { ReplicaSet } from '../../api/model/index.js';
import { deploymentComplete } from './progress.js';
import { newReplicaSetTarget, planOldReplicaSetsScaleDown, rsReplicas } from './rollout-math.js';
import type { DeploymentSyncer } from './syncer.js';

export async function rolloutRolling(
  s: DeploymentSyncer,
  rsList: readonly ReplicaSet[],
): Promise<void> {
  const { newRS, oldRSs } = await s.replicaSets(rsList, true);
  if (newRS === undefined) throw new Error('rolling update: no new replica set');
  const all = new Map<string, ReplicaSet>();
  for (const rs of [...oldRSs, newRS]) all.set(rs.metadata?.name ?? '', rs);
  const current = () => [...all.values()];
  const newName = newRS.metadata?.name ?? '';

  // reconcileNewReplicaSet: one step, then report progress and wait for the next event.
  const target = newReplicaSetTarget(s.d, current(), newRS);
  if (target !== rsReplicas(newRS)) {
    const { scaled, rs } = await s.scaleAndRecord(newRS, target);
    all.set(newName, rs);
    if (scaled) return s.syncRolloutStatus(current(), rs);
  }

  // reconcileOldReplicaSets: cleanup of unhealthy replicas, then the availability budget.
  const olds = () => current().filter((rs) => rs.metadata?.name !== newName);
  const plan = planOldReplicaSetsScaleDown(s.d, current(), olds(), all.get(newName));
  let scaledDown = false;
  for (const step of [...plan.cleanup, ...plan.scaleDown]) {
    const rs = all.get(step.name);
    if (rs === undefined) continue;
    const result = await s.scaleReplicaSet(rs, step.to, 'down');
    all.set(step.name, result.rs);
    scaledDown ||= result.scaled;
  }
  const latestNew = all.get(newName);
  if (scaledDown) return s.syncRolloutStatus(current(), latestNew);

  if (deploymentComplete(s.d, s.d.status ?? {})) await s.cleanup(olds());
  await s.syncRolloutStatus(current(), latestNew);
}
