/**
 * Graceful termination as the kubelet plays it (`CheckGracefulDelete` + kubelet kill): the
 * simulated containers ignore SIGTERM, so they are killed (exit 137, reason `Error`) when
 * min(terminationGracePeriodSeconds, deletionGracePeriodSeconds) has passed since the delete
 * request (= deletionTimestamp − deletionGracePeriodSeconds). The pod then moves to a terminal
 * phase (Succeeded only if every regular container exited 0) and the next plan deletes it.
 *
 * With a shutdown delay (the kubelet's `shutdownDelayMs`, or the pod's
 * `sim.fleetyard.dev/shutdown-delay`) the containers handle SIGTERM instead: running ones exit
 * with code 0 (`Completed`) that long after the delete request, unless the grace period ends
 * first (then they are killed as above). Without one they ignore SIGTERM (the goldens' case).
 *
 * @module
 */

import { isDeepStrictEqual } from 'node:util';
import { formatTime, parseTime } from '../../api/time.js';
import { readShutdownDelayMs } from './annotations.js';
import type { ContainerStatus, KubeletPod, PodStatus } from './kubelet-pod.js';
import { podConditions } from './pod-conditions.js';

/** Exit code of a SIGKILLed process: 128 + 9. */
export const SIGKILL_EXIT_CODE = 137;

/** When the containers are killed (epoch ms). */
export function killTime(pod: KubeletPod, now: number): number {
  return stopTime(pod, now, undefined).at;
}

/**
 * When the containers stop (epoch ms), and whether they exit on SIGTERM (`graceful`) rather
 * than being killed at the end of the grace period.
 */
export function stopTime(
  pod: KubeletPod,
  now: number,
  shutdownDelayMs: number | undefined,
): { at: number; graceful: boolean } {
  const deadline = parseTime(pod.metadata.deletionTimestamp) ?? now;
  const dgps = pod.metadata.deletionGracePeriodSeconds;
  const shutdown = readShutdownDelayMs(pod) ?? shutdownDelayMs;
  if (dgps === undefined || dgps === null) return { at: deadline, graceful: false };
  const requested = deadline - dgps * 1000;
  const tgps = pod.spec.terminationGracePeriodSeconds ?? 30;
  const kill = requested + Math.max(0, Math.min(tgps, dgps)) * 1000;
  if (shutdown !== undefined && requested + shutdown < kill) {
    return { at: requested + shutdown, graceful: true };
  }
  return { at: kill, graceful: false };
}

function kill(
  cs: ContainerStatus,
  now: number,
  neverRanStays: boolean,
  graceful = false,
): ContainerStatus {
  const base = { ...cs, ready: false, started: false };
  const running = cs.state?.running;
  if (running) {
    const terminated = {
      exitCode: graceful ? 0 : SIGKILL_EXIT_CODE,
      reason: graceful ? 'Completed' : 'Error',
      startedAt: running.startedAt ?? formatTime(now),
      finishedAt: formatTime(now),
      ...(cs.containerID ? { containerID: cs.containerID } : {}),
    };
    return { ...base, state: { terminated } };
  }
  if (cs.state?.terminated || neverRanStays) return base;
  const terminated = {
    exitCode: SIGKILL_EXIT_CODE,
    reason: 'ContainerStatusUnknown',
    message: 'The container could not be located when the pod was terminated',
    startedAt: null,
    finishedAt: null,
  };
  return { ...base, state: { terminated } };
}

export function planTermination(
  pod: KubeletPod,
  now: number,
  shutdownDelayMs?: number,
): { status?: PodStatus; requeueAfterMs?: number } {
  const { at, graceful } = stopTime(pod, now, shutdownDelayMs);
  if (now < at) return { requeueAfterMs: at - now };
  const old = pod.status ?? {};
  const statuses = (old.containerStatuses ?? []).map((cs) => kill(cs, now, false, graceful));
  const inits = (pod.spec.initContainers ?? []).map((spec) => ({
    spec,
    kind: spec.restartPolicy === 'Always' ? ('sidecar' as const) : ('init' as const),
  }));
  const initStatuses = (old.initContainerStatuses ?? []).map((cs) => {
    const sidecar = inits.find((c) => c.spec.name === cs.name)?.kind === 'sidecar';
    return kill(cs, now, !sidecar, graceful && sidecar);
  });
  const allZero =
    statuses.length === pod.spec.containers.length &&
    statuses.every((s) => s.state?.terminated?.exitCode === 0);
  const phase = allZero ? 'Succeeded' : 'Failed';
  const initialized =
    old.conditions?.some((c) => c.type === 'Initialized' && c.status === 'True') ?? false;
  const status: PodStatus = {
    ...old,
    phase,
    conditions: podConditions(pod, { phase, initialized, inits, initStatuses, statuses, now }),
    ...(old.initContainerStatuses ? { initContainerStatuses: initStatuses } : {}),
    ...(old.containerStatuses ? { containerStatuses: statuses } : {}),
  };
  return isDeepStrictEqual(status, old) ? {} : { status, requeueAfterMs: 0 };
}
