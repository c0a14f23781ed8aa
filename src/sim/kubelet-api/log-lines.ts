/**
 * What a simulated container writes to its log, derived from the pod as stored, so every
 * reader (and every replay) sees the same lines:
 *
 * 1. at the run's `startedAt`: `[fleetyard] container "app" started (image nginx:1.27, node node-1)`;
 * 2. the lines of `sim.fleetyard.dev/log-lines.<container>` (any container), else of
 *    `sim.fleetyard.dev/log-lines` (regular containers), one per line of the value: all at the
 *    start, or with `sim.fleetyard.dev/log-interval` (a Go duration) the n-th at
 *    `startedAt + n × interval`, so `kubectl logs -f` shows them arrive;
 * 3. when the run has terminated, at its `finishedAt`: its termination message (each line of
 *    `terminated.message`, if any), then `[fleetyard] container "app" exited with code 1 (Error)`.
 *    A terminated run shows only the annotation lines written before it finished.
 *
 * The current run is the running one, else the terminated one, else (a container waiting to
 * restart) the last terminated one, as the kubelet picks the container ID it reads logs from;
 * `previous` is `lastState.terminated`.
 *
 * @module
 */
import type { ContainerStatus, Pod } from '../../api/model/index.js';
import { parseTime } from '../../api/time.js';
import { ANNOTATION_PREFIX, parseGoDuration } from '../kubelet/annotations.js';

/** Lines every regular container writes after its start line (newline-separated). */
export const LOG_LINES_ANNOTATION = `${ANNOTATION_PREFIX}log-lines`;
/** Time between those lines (Go duration; default `0s`: all at the start). */
export const LOG_INTERVAL_ANNOTATION = `${ANNOTATION_PREFIX}log-interval`;

/** The log of one run, as `apiserver/kubelet/types.ts`'s `ContainerLog`. */
export interface SimContainerLog {
  readonly lines: readonly { readonly at: number; readonly text: string }[];
  readonly containerID: string;
  readonly running: boolean;
}

interface Run {
  readonly containerID: string;
  readonly startedAt: number;
  readonly finished?: {
    readonly at: number;
    readonly exitCode: number;
    readonly reason: string;
    readonly message: string;
  };
}

function allStatuses(pod: Pod): ContainerStatus[] {
  const s = pod.status;
  return [
    ...(s?.containerStatuses ?? []),
    ...(s?.initContainerStatuses ?? []),
    ...(s?.ephemeralContainerStatuses ?? []),
  ];
}

function terminatedRun(t: NonNullable<NonNullable<ContainerStatus['state']>['terminated']>): Run {
  const startedAt = parseTime(t.startedAt) ?? parseTime(t.finishedAt) ?? 0;
  return {
    containerID: t.containerID ?? '',
    startedAt,
    finished: {
      at: parseTime(t.finishedAt) ?? startedAt,
      exitCode: t.exitCode,
      reason: t.reason ?? '',
      message: t.message ?? '',
    },
  };
}

/** The run a log request reads (see the module comment), or undefined. */
export function runOf(status: ContainerStatus, previous: boolean): Run | undefined {
  const last = status.lastState?.terminated;
  if (previous) return last?.containerID ? terminatedRun(last) : undefined;
  const running = status.state?.running;
  if (running) {
    return { containerID: status.containerID ?? '', startedAt: parseTime(running.startedAt) ?? 0 };
  }
  const terminated = status.state?.terminated;
  if (terminated?.containerID) return terminatedRun(terminated);
  return last?.containerID ? terminatedRun(last) : undefined;
}

function isRegular(pod: Pod, container: string): boolean {
  return (pod.spec?.containers ?? []).some((c) => c.name === container);
}

/** The annotation's lines for `container` (its own annotation first). */
export function annotationLines(pod: Pod, container: string): string[] {
  const a = pod.metadata?.annotations ?? {};
  const text =
    a[`${LOG_LINES_ANNOTATION}.${container}`] ??
    (isRegular(pod, container) ? a[LOG_LINES_ANNOTATION] : undefined);
  if (text === undefined || text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

function imageOf(pod: Pod, container: string): string {
  const spec = pod.spec;
  const all = [
    ...(spec?.containers ?? []),
    ...(spec?.initContainers ?? []),
    ...(spec?.ephemeralContainers ?? []),
  ];
  return all.find((c) => c.name === container)?.image ?? '';
}

/** The log of `container`'s current (or previous) run; undefined when it has none. */
export function containerLog(
  pod: Pod,
  container: string,
  previous: boolean,
): SimContainerLog | undefined {
  const status = allStatuses(pod).find((s) => s.name === container);
  const run = status === undefined ? undefined : runOf(status, previous);
  if (run === undefined) return undefined;
  const name = JSON.stringify(container);
  const lines: { at: number; text: string }[] = [
    {
      at: run.startedAt,
      text: `[fleetyard] container ${name} started (image ${imageOf(pod, container)}, node ${pod.spec?.nodeName ?? ''})`,
    },
  ];
  const interval =
    parseGoDuration((pod.metadata?.annotations?.[LOG_INTERVAL_ANNOTATION] ?? '0').trim()) ?? 0;
  const end = run.finished?.at ?? Number.POSITIVE_INFINITY;
  for (const [i, text] of annotationLines(pod, container).entries()) {
    const at = run.startedAt + (i + 1) * interval;
    if (at > end) break;
    lines.push({ at, text });
  }
  const f = run.finished;
  if (f !== undefined) {
    for (const text of f.message.replace(/\n$/, '').split('\n')) {
      if (text !== '') lines.push({ at: f.at, text });
    }
    const reason = f.reason === '' ? '' : ` (${f.reason})`;
    lines.push({
      at: f.at,
      text: `[fleetyard] container ${name} exited with code ${f.exitCode}${reason}`,
    });
  }
  return { lines, containerID: run.containerID, running: f === undefined };
}
