/**
 * The legacy rollback's writes, after upstream `rollback.go: rollback`: sync the ReplicaSets
 * and revisions first (creating the new one, as upstream's `getAllReplicaSetsAndSyncRevision(…,
 * true)`), then write the Deployment `rollback-plan.ts` computed. The sync stops there: the
 * update wakes the Deployment again, and the next sync rolls out the restored template.
 *
 * @module
 */
import type { ReplicaSet } from '../../api/model/index.js';
import { planRollback } from './rollback-plan.js';
import type { DeploymentSyncer } from './syncer.js';

export async function rollback(
  s: DeploymentSyncer,
  rsList: readonly ReplicaSet[],
  to: bigint,
): Promise<void> {
  const { newRS, oldRSs } = await s.replicaSets(rsList, true);
  const allRSs = newRS === undefined ? oldRSs : [...oldRSs, newRS];
  const plan = planRollback(s.d, allRSs, to);
  for (const e of plan.before) s.event(e.type, e.reason, e.message);
  await s.updateDeployment(plan.deployment);
  for (const e of plan.after) s.event(e.type, e.reason, e.message);
}
