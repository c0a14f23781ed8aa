/**
 * Recreate's gate, after upstream `recreate.go: oldPodsRunning`: the new ReplicaSet may only be
 * scaled up once no old pod can still be running. Pure.
 *
 * @module
 */
import type { Pod, ReplicaSet } from '../../api/model/index.js';
import { rsStatusReplicas, uidOf } from './types.js';

/**
 * True while old pods may run: an old ReplicaSet still reports replicas, or a pod owned by a
 * non-new ReplicaSet is in any phase but Succeeded/Failed (Pending, Running, Unknown and
 * terminating pods all count). `podsByRS` maps ReplicaSet UID → its pods.
 */
export function oldPodsRunning(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
  podsByRS: ReadonlyMap<string, readonly Pod[]>,
): boolean {
  if (oldRSs.some((rs) => rsStatusReplicas(rs) > 0)) return true;
  for (const [uid, pods] of podsByRS) {
    if (newRS !== undefined && uidOf(newRS) === uid) continue;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (phase !== 'Succeeded' && phase !== 'Failed') return true;
    }
  }
  return false;
}
