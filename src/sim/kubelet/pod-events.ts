/**
 * The Events a kubelet records for a status change (`kubectl describe pod`), derived from the
 * old and new container statuses, with upstream's reasons and messages
 * (`kuberuntime_container.go`, `images/image_manager.go`, `events/event.go`). Pure.
 *
 * @module
 */

import type { EventType } from '../../controller/events.js';
import type { ContainerStatus, KubeletPod, PodStatus } from './kubelet-pod.js';

export interface PodEvent {
  type: EventType;
  reason: string;
  message: string;
}

function forContainer(
  pod: KubeletPod,
  before: ContainerStatus | undefined,
  after: ContainerStatus,
): PodEvent[] {
  const { name, image } = after;
  const running = after.state?.running;
  if (running && (!before?.state?.running || before.containerID !== after.containerID)) {
    return [
      {
        type: 'Normal',
        reason: 'Pulled',
        message: `Container image "${image}" already present on machine`,
      },
      { type: 'Normal', reason: 'Created', message: `Created container: ${name}` },
      { type: 'Normal', reason: 'Started', message: `Started container ${name}` },
    ];
  }
  if (before?.state?.running && after.state?.terminated && pod.metadata.deletionTimestamp) {
    return [{ type: 'Normal', reason: 'Killing', message: `Stopping container ${name}` }];
  }
  const reason = after.state?.waiting?.reason;
  if (reason === undefined || before?.state?.waiting?.reason === reason) return [];
  const message = after.state?.waiting?.message ?? '';
  const m = pod.metadata;
  switch (reason) {
    case 'ErrImagePull':
      return [
        {
          type: 'Warning',
          reason: 'Failed',
          message: `Failed to pull image "${image}": ${message}`,
        },
        { type: 'Warning', reason: 'Failed', message: 'Error: ErrImagePull' },
      ];
    case 'ImagePullBackOff':
      return [
        { type: 'Normal', reason: 'BackOff', message: `Back-off pulling image "${image}"` },
        { type: 'Warning', reason: 'Failed', message: 'Error: ImagePullBackOff' },
      ];
    case 'CrashLoopBackOff':
      return [
        {
          type: 'Warning',
          reason: 'BackOff',
          message: `Back-off restarting failed container ${name} in pod ${m.name ?? ''}_${m.namespace ?? ''}(${m.uid ?? ''})`,
        },
      ];
    case 'CreateContainerConfigError':
      return [{ type: 'Warning', reason: 'Failed', message: `Error: ${message}` }];
    default:
      return [];
  }
}

/** The events for `pod` moving from its stored status to `next`. */
export function podEvents(pod: KubeletPod, next: PodStatus): PodEvent[] {
  const old = pod.status ?? {};
  const pairs = (a: ContainerStatus[] | undefined, b: ContainerStatus[] | undefined): PodEvent[] =>
    (b ?? []).flatMap((cs) =>
      forContainer(
        pod,
        a?.find((o) => o.name === cs.name),
        cs,
      ),
    );
  return [
    ...pairs(old.initContainerStatuses, next.initContainerStatuses),
    ...pairs(old.containerStatuses, next.containerStatuses),
  ];
}
