/**
 * Recreate, after upstream `recreate.go: rolloutRecreate`: scale every old ReplicaSet to 0,
 * wait until no old pod can still run, only then create/scale the new ReplicaSet to full size;
 * trim history when complete; then the rollout status.
 *
 * @module
 */
import type { Pod, ReplicaSet } from '../../api/model/index.js';
import { deploymentComplete } from './progress.js';
import { oldPodsRunning } from './recreate-plan.js';
import { activeReplicaSets, deploymentReplicas } from './rollout-math.js';
import type { DeploymentSyncer } from './syncer.js';

export async function rolloutRecreate(
  s: DeploymentSyncer,
  rsList: readonly ReplicaSet[],
  podsByRS: ReadonlyMap<string, readonly Pod[]>,
): Promise<void> {
  let { newRS, oldRSs } = await s.replicaSets(rsList, false);

  let scaledDown = false;
  const scaledOld: ReplicaSet[] = [];
  for (const rs of oldRSs) {
    if (activeReplicaSets([rs]).length === 0) {
      scaledOld.push(rs);
      continue;
    }
    const result = await s.scaleAndRecord(rs, 0);
    scaledOld.push(result.rs);
    scaledDown ||= result.scaled;
  }
  if (scaledDown) return s.syncRolloutStatus([...scaledOld, newRS], newRS);

  // Old pods may still be terminating: wait for the RS and pod events that say they are gone.
  if (oldPodsRunning(newRS, oldRSs, podsByRS))
    return s.syncRolloutStatus([...oldRSs, newRS], newRS);

  if (newRS === undefined) ({ newRS, oldRSs } = await s.replicaSets(rsList, true));
  if (newRS === undefined) throw new Error('recreate: no new replica set');
  const { rs } = await s.scaleAndRecord(newRS, deploymentReplicas(s.d));
  newRS = rs;

  if (deploymentComplete(s.d, s.d.status ?? {})) await s.cleanup(oldRSs);
  await s.syncRolloutStatus([...oldRSs, newRS], newRS);
}
