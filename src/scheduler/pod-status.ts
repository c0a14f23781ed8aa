/**
 * What the scheduler writes about a pod it could not place (upstream `handleSchedulingFailure`
 * and `updatePod`): the `PodScheduled=False` condition, sent as a strategic-merge patch of
 * `status.conditions` (merged by `type`) only when the condition would change, and the texts
 * of its events.
 *
 * As upstream `UpdatePodCondition`, an unchanged status keeps its `lastTransitionTime`, so a
 * retry with the same reason and message writes nothing.
 *
 * @module
 */
import type { Pod, PodCondition } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { formatTime } from '../api/time.js';

/** Upstream `v1.PodReasonUnschedulable`: no node fits. */
export const REASON_UNSCHEDULABLE = 'Unschedulable';
/** Upstream `v1.PodReasonSchedulerError`: the attempt failed for another reason (API error). */
export const REASON_SCHEDULER_ERROR = 'SchedulerError';
export const EVENT_SCHEDULED = 'Scheduled';
export const EVENT_FAILED_SCHEDULING = 'FailedScheduling';
/** Upstream `validation.NoteLengthLimit`: the longest event message. */
export const NOTE_LENGTH_LIMIT = 1024;

export function scheduledMessage(pod: KubeObject, node: string): string {
  return `Successfully assigned ${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''} to ${node}`;
}

/** Upstream `truncateMessage`: at most 1024 characters, ending in " ..." when cut. */
export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}

function podScheduledCondition(pod: Pod): PodCondition | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
}

/**
 * The strategic-merge patch of `pods/status` that sets `PodScheduled=False` with `reason` and
 * `message`, or null when the pod already says exactly that.
 */
export function unschedulablePatch(
  pod: Pod,
  reason: string,
  message: string,
  now: number,
): Record<string, unknown> | null {
  const old = podScheduledCondition(pod);
  if (old?.status === 'False' && old.reason === reason && old.message === message) return null;
  const lastTransitionTime =
    old?.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : formatTime(now);
  return {
    status: {
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime,
          reason,
          message,
        },
      ],
    },
  };
}
