/**
 * `controllerutil.MarkPodsNotReady`, used by the node lifecycle controller when a node's Ready
 * condition leaves True: every pod on the node whose Ready condition is not already False gets
 * Ready=False, so ReplicaSet/Deployment/StatefulSet ready and available counts drop at once.
 * Reason and message of the pod's condition are kept; `lastTransitionTime` moves to `now` (the
 * status changes). Pure: returns the new `status.conditions` per pod to write.
 *
 * @module
 */

import type { Pod, PodCondition } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { podNodeName } from './taints.js';

export interface PodReadyUpdate {
  pod: Pod;
  /** The pod's complete new `status.conditions`. */
  conditions: PodCondition[];
}

/** Status updates for pods on `nodeName` that still report Ready other than False. */
export function podsToMarkNotReady(
  nodeName: string,
  pods: readonly Pod[],
  now: number,
): PodReadyUpdate[] {
  const updates: PodReadyUpdate[] = [];
  for (const pod of pods) {
    if (podNodeName(pod) !== nodeName) continue;
    const conditions = pod.status?.conditions ?? [];
    const ready = conditions.find((c) => c.type === 'Ready');
    if (ready === undefined || ready.status === 'False') continue;
    updates.push({
      pod,
      conditions: conditions.map((c) =>
        c === ready ? { ...c, status: 'False', lastTransitionTime: formatTime(now) } : { ...c },
      ),
    });
  }
  return updates;
}
