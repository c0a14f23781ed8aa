/**
 * The `pods/status` patch after a failed attempt once PostFilter ran (upstream `updatePod`):
 * the `PodScheduled=False` condition when it changes, and `status.nominatedNodeName` when the
 * preemption sets or clears it and it differs from the pod's. Null when nothing changes.
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import { unschedulablePatch } from '../pod-status.js';

export function failureStatusPatch(
  pod: Pod,
  reason: string,
  message: string,
  now: number,
  nominatedNodeName: string | undefined,
): Record<string, unknown> | null {
  const condition = unschedulablePatch(pod, reason, message, now);
  const current = pod.status?.nominatedNodeName ?? '';
  const nominate = nominatedNodeName !== undefined && nominatedNodeName !== current;
  if (!nominate) return condition;
  const status: Record<string, unknown> = {};
  const conditionStatus = condition?.status;
  if (typeof conditionStatus === 'object' && conditionStatus !== null)
    Object.assign(status, conditionStatus);
  // A strategic-merge null deletes the field: upstream's patch of an emptied omitempty string.
  status.nominatedNodeName = nominatedNodeName === '' ? null : nominatedNodeName;
  return { status };
}
