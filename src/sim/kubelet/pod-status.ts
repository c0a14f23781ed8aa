/**
 * Status builders: timestamps, container-status shapes, the pod phase (`kubelet_pods.go:
 * getPhase`) and the pod conditions (`pkg/kubelet/status/generate.go`) with upstream reasons,
 * messages and `lastTransitionTime` kept unless the condition's status flips.
 *
 * @module
 */

import { createHash } from 'node:crypto';
import { formatTime } from '../../api/time.js';
import type { ContainerState, ContainerStatus, KubeletPod, PodCondition } from './kubelet-pod.js';

/** Docker reference normalisation: `nginx` → `docker.io/library/nginx:latest`. */
export function normalizeImage(image: string): string {
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const hasRegistry = first.includes('.') || first.includes(':') || first === 'localhost';
  const named = hasRegistry
    ? image
    : slash < 0
      ? `docker.io/library/${image}`
      : `docker.io/${image}`;
  const lastPart = named.slice(named.lastIndexOf('/') + 1);
  return lastPart.includes(':') || lastPart.includes('@') ? named : `${named}:latest`;
}

function hex(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

/** A stable fake `containerd://…` id per pod, container and attempt. */
export function containerID(pod: KubeletPod, name: string, attempt: number): string {
  return `containerd://${hex(pod.metadata.uid ?? '', name, String(attempt))}`;
}

/** A stable fake digest reference for a started container's `imageID`. */
export function imageID(image: string): string {
  const normalized = normalizeImage(image);
  const repo = normalized.replace(/[:@][^/]*$/, '');
  return `${repo}@sha256:${hex(normalized)}`;
}

/** A fresh status for a container that has not run: `waiting` with `reason` (and `message`). */
export function waitingStatus(
  name: string,
  image: string,
  reason: string,
  message?: string,
  prev?: ContainerStatus,
): ContainerStatus {
  return {
    name,
    image: prev?.image ?? image,
    imageID: prev?.imageID ?? '',
    ...(prev?.containerID ? { containerID: prev.containerID } : {}),
    ready: false,
    started: false,
    restartCount: prev?.restartCount ?? 0,
    state: { waiting: message === undefined ? { reason } : { reason, message } },
    lastState: prev?.lastState ?? {},
  };
}

export function isRunning(cs: ContainerStatus | undefined): boolean {
  return cs?.state?.running !== undefined;
}

/** Terminated now, or waiting to be restarted after a termination (counts as "stopped" in getPhase). */
export function lastExit(cs: ContainerStatus | undefined): ContainerState['terminated'] {
  return cs?.state?.terminated ?? (cs?.state?.waiting ? cs.lastState?.terminated : undefined);
}

/** `getPhase` over the regular containers; `initFailed` = an init container failed for good. */
export function podPhase(
  pod: KubeletPod,
  statuses: ContainerStatus[],
  initialized: boolean,
  initFailed: boolean,
): string {
  if (initFailed) return 'Failed';
  if (!initialized) return 'Pending';
  let waiting = 0;
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const cs of statuses) {
    if (cs.state?.running) running++;
    else if (cs.state?.terminated) {
      stopped++;
      if (cs.state.terminated.exitCode === 0) succeeded++;
    } else if (cs.lastState?.terminated) stopped++;
    else waiting++;
  }
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === 0) return 'Pending';
  if (policy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  return policy === 'Never' ? 'Failed' : 'Running';
}

/** One condition, keeping `lastTransitionTime` from `old` when its status did not change. */
export function condition(
  old: readonly PodCondition[] | undefined,
  type: string,
  isTrue: boolean,
  now: number,
  reason?: string,
  message?: string,
): PodCondition {
  const status = isTrue ? 'True' : 'False';
  const prev = old?.find((c) => c.type === type);
  const lastTransitionTime =
    prev && prev.status === status ? prev.lastTransitionTime : formatTime(now);
  return {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/** The `[a b]` list in "containers with unready status: [a b]". */
export function goList(names: readonly string[]): string {
  return `[${names.join(' ')}]`;
}

/** Ready's readiness-gate verdict: undefined when every gate's condition is True, else the message. */
export function readinessGateMessage(pod: KubeletPod): string | undefined {
  for (const gate of pod.spec.readinessGates ?? []) {
    const c = pod.status?.conditions?.find((x) => x.type === gate.conditionType);
    if (!c)
      return `corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`;
    if (c.status !== 'True') {
      return `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`;
    }
  }
  return undefined;
}
