/**
 * The container lifecycle as data, after kwok's stages: an ordered list of
 * {@link ContainerStage}s, each a selector over a container's observed facts plus the next
 * container status. The first stage whose selector matches wins; a plan advances every
 * container by at most one stage, so each visible state (ContainerCreating, ErrImagePull,
 * Running, Error, CrashLoopBackOff …) is written once before the next.
 *
 * @module
 */

import type { Probe } from '../../api/model/index.js';
import { formatTime, parseTime } from '../../api/time.js';
import type { SimSettings } from './annotations.js';
import { formatGoDuration } from './annotations.js';
import {
  backoffUntilSince,
  backoffUntilSinceUpdate,
  nextBackoff,
  type RuntimeState,
  withEntry,
} from './backoff.js';
import type { Container, ContainerStatus, KubeletPod } from './kubelet-pod.js';
import { containerID, imageID, lastExit, normalizeImage, waitingStatus } from './pod-status.js';

/** Regular init container, sidecar (init with restartPolicy Always), or regular container. */
export type ContainerKind = 'init' | 'sidecar' | 'regular';

/** Everything a stage may look at for one container. Times are epoch ms. */
export interface ContainerFacts {
  pod: KubeletPod;
  kind: ContainerKind;
  spec: Container;
  current: ContainerStatus | undefined;
  now: number;
  /** Earlier init containers are not done yet. */
  blocked: boolean;
  /** Earliest first start (gate opening + start delay). */
  startAt: number;
  settings: SimSettings;
  runtime: RuntimeState;
  failingImage: RegExp;
  configError: string | undefined;
  volumeError: string | undefined;
}

/** A stage's result: the container's next status, when to look again, the new kubelet memory. */
export interface ContainerStep {
  status: ContainerStatus;
  wakeAt?: number;
  runtime?: RuntimeState;
}

export interface ContainerStage {
  name: string;
  matches(f: ContainerFacts): boolean;
  next(f: ContainerFacts): ContainerStep;
}

/** Retry period for config and mount errors (upstream pod-worker back-off period: 10 s). */
export const CONFIG_RETRY_MS = 10_000;

const image = (f: ContainerFacts): string => f.spec.image ?? '';

/**
 * The exit code this container will exit with, if it exits at all. Without an `exit-code`
 * annotation, the regular containers of a run-to-completion pod (`restartPolicy` Never or
 * OnFailure: a Job's) exit 0, as the command of a batch workload ends; those of an `Always`
 * pod run until stopped.
 */
export function plannedExitCode(
  f: Pick<ContainerFacts, 'kind' | 'spec' | 'settings' | 'pod'>,
): number | undefined {
  const named = f.settings.exitCodeByName.get(f.spec.name);
  if (named !== undefined) return named;
  if (f.kind === 'regular') {
    const runsToCompletion = (f.pod.spec.restartPolicy ?? 'Always') !== 'Always';
    return f.settings.exitCode ?? (runsToCompletion ? 0 : undefined);
  }
  return f.kind === 'init' ? 0 : undefined;
}

/** Whether a container that exited with `code` is started again. */
export function restartable(pod: KubeletPod, kind: ContainerKind, code: number): boolean {
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (kind === 'sidecar') return true;
  if (kind === 'init') return code !== 0 && policy !== 'Never';
  return policy === 'Always' || (policy === 'OnFailure' && code !== 0);
}

/** Never ran (no previous termination) and not running. */
function notStarted(f: ContainerFacts): boolean {
  return !f.current?.state?.running && !lastExit(f.current);
}

function crashKey(f: ContainerFacts): string {
  return `crash/${f.spec.name}`;
}

function readyAt(f: ContainerFacts, startedAt: number): number | undefined {
  if (!f.settings.readyAllowed) return undefined;
  return startedAt + Math.max(f.settings.readyDelayMs, firstPassingProbeMs(f.spec));
}

/**
 * When the readiness probe first passes, from the container's start. The kubelet's prober
 * ticks every `periodSeconds` (default 10) from the start and ignores ticks before
 * `initialDelaySeconds`; a readiness probe runs only once a startup probe passed, so that
 * probe's delay counts first. No probe: ready at once, as upstream.
 */
function firstPassingProbeMs(spec: Container): number {
  const after = (probe: Probe | undefined, from: number): number => {
    if (probe === undefined || probe === null) return from;
    const delay = Math.max(0, probe.initialDelaySeconds ?? 0) * 1000;
    const period = Math.max(1, probe.periodSeconds ?? 10) * 1000;
    // The first tick at or after the delay (ticks at from, from + period, …).
    return from + Math.ceil(delay / period) * period;
  };
  const started = after(spec.startupProbe, 0);
  return after(spec.readinessProbe, started);
}

/** A new container instance starts now; `restart` marks a restart after an exit. */
function start(f: ContainerFacts, runtime?: RuntimeState): ContainerStep {
  const prev = f.current;
  const exit = lastExit(prev);
  // Upstream reports the latest container's attempt: one more than the one that exited, and
  // nothing added while it waits in CrashLoopBackOff (kubelet_pods.go
  // convertToAPIContainerStatuses): RESTARTS 1 during the first back-off, not 2.
  const restartCount = (prev?.restartCount ?? 0) + (exit ? 1 : 0);
  const ready = readyAt(f, f.now);
  const status: ContainerStatus = {
    name: f.spec.name,
    image: normalizeImage(image(f)),
    imageID: imageID(image(f)),
    containerID: containerID(f.pod, f.spec.name, restartCount),
    ready: ready !== undefined && ready <= f.now,
    started: true,
    restartCount,
    state: { running: { startedAt: formatTime(f.now) } },
    lastState: exit ? { terminated: exit } : (prev?.lastState ?? {}),
  };
  return { status, wakeAt: f.now, runtime };
}

/** The container's status, for the stages whose selector matched one. */
function observed(f: ContainerFacts): ContainerStatus {
  if (f.current === undefined) throw new Error(`no status for container ${f.spec.name}`);
  return f.current;
}

function running(f: ContainerFacts): ContainerStep {
  const cur = observed(f);
  const startedAt = parseTime(cur.state?.running?.startedAt) ?? f.now;
  const code = plannedExitCode(f);
  const exitAt = startedAt + f.settings.exitAfterMs;
  if (code !== undefined && f.now >= exitAt) {
    const terminated = {
      exitCode: code,
      reason: code === 0 ? 'Completed' : 'Error',
      startedAt: cur.state?.running?.startedAt ?? formatTime(startedAt),
      finishedAt: formatTime(exitAt),
      ...(cur.containerID ? { containerID: cur.containerID } : {}),
    };
    return {
      status: { ...cur, ready: false, started: false, state: { terminated } },
      wakeAt: f.now,
    };
  }
  const ready = readyAt(f, startedAt);
  const isReady = ready !== undefined && ready <= f.now;
  const wakes = [code !== undefined ? exitAt : undefined, isReady ? undefined : ready];
  const wakeAt = Math.min(...wakes.filter((w): w is number => w !== undefined));
  return {
    status: { ...cur, ready: isReady },
    wakeAt: Number.isFinite(wakeAt) ? wakeAt : undefined,
  };
}

/** After an exit: restart now (advancing the back-off) or wait in CrashLoopBackOff. */
function afterExit(f: ContainerFacts): ContainerStep {
  const cur = observed(f);
  const exit = lastExit(cur);
  const finishedAt = parseTime(exit?.finishedAt) ?? f.now;
  const entry = f.runtime.backoff[crashKey(f)];
  const until = backoffUntilSince(entry, finishedAt, f.now);
  if (until === undefined)
    return start(f, withEntry(f.runtime, crashKey(f), nextBackoff(entry, f.now)));
  const pod = f.pod.metadata;
  const message =
    `back-off ${formatGoDuration(entry?.backoffMs ?? 0)} restarting failed container=${f.spec.name} ` +
    `pod=${pod.name ?? ''}_${pod.namespace ?? ''}(${pod.uid ?? ''})`;
  const status: ContainerStatus = {
    ...cur,
    ready: false,
    started: false,
    restartCount: cur.restartCount,
    state: { waiting: { reason: 'CrashLoopBackOff', message } },
    lastState: exit ? { terminated: exit } : cur.lastState,
  };
  return { status, wakeAt: until };
}

function imagePull(f: ContainerFacts): ContainerStep {
  const key = `pull/${f.spec.name}`;
  const entry = f.runtime.backoff[key];
  const until = backoffUntilSinceUpdate(entry, f.now);
  if (until !== undefined) {
    const message = `Back-off pulling image "${image(f)}"`;
    return {
      status: waitingStatus(f.spec.name, image(f), 'ImagePullBackOff', message, f.current),
      wakeAt: until,
    };
  }
  const ref = normalizeImage(image(f));
  const message =
    `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": ` +
    `failed to resolve reference "${ref}": ${ref}: not found`;
  return {
    status: waitingStatus(f.spec.name, image(f), 'ErrImagePull', message, f.current),
    wakeAt: f.now,
    runtime: withEntry(f.runtime, key, nextBackoff(entry, f.now)),
  };
}

const waitingFor = (reason: string) => (f: ContainerFacts) =>
  f.kind === 'regular' ? reason : 'PodInitializing';

/** The stages, first match wins. */
export const CONTAINER_STAGES: readonly ContainerStage[] = [
  {
    name: 'accepted',
    matches: (f) => f.current === undefined,
    next: (f) => ({
      status: waitingStatus(
        f.spec.name,
        image(f),
        f.blocked ? 'PodInitializing' : waitingFor('ContainerCreating')(f),
      ),
      wakeAt: f.now,
    }),
  },
  {
    name: 'finished',
    matches: (f) => {
      const t = f.current?.state?.terminated;
      return t !== undefined && !restartable(f.pod, f.kind, t.exitCode);
    },
    next: (f) => ({ status: observed(f) }),
  },
  { name: 'running', matches: (f) => f.current?.state?.running !== undefined, next: running },
  { name: 'exited', matches: (f) => lastExit(f.current) !== undefined, next: afterExit },
  {
    name: 'pod-initializing',
    matches: (f) => f.blocked,
    next: (f) => ({
      status: waitingStatus(f.spec.name, image(f), 'PodInitializing', undefined, f.current),
    }),
  },
  {
    name: 'image-pull-failure',
    matches: (f) => notStarted(f) && f.failingImage.test(image(f)),
    next: imagePull,
  },
  {
    name: 'create-container-config-error',
    matches: (f) => f.configError !== undefined,
    next: (f) => ({
      status: waitingStatus(
        f.spec.name,
        image(f),
        'CreateContainerConfigError',
        f.configError,
        f.current,
      ),
      wakeAt: f.now + CONFIG_RETRY_MS,
    }),
  },
  {
    name: 'mounting-volumes',
    matches: (f) => f.volumeError !== undefined,
    next: (f) => ({
      status: waitingStatus(f.spec.name, image(f), 'ContainerCreating', undefined, f.current),
      wakeAt: f.now + CONFIG_RETRY_MS,
    }),
  },
  {
    name: 'container-creating',
    matches: (f) => f.now < f.startAt,
    next: (f) => ({
      status: waitingStatus(f.spec.name, image(f), 'ContainerCreating', undefined, f.current),
      wakeAt: f.startAt,
    }),
  },
  { name: 'start', matches: () => true, next: (f) => start(f) },
];

/** Plays the first matching stage; returns its name too (for tests and logs). */
export function playContainerStage(f: ContainerFacts): ContainerStep & { stage: string } {
  for (const stage of CONTAINER_STAGES) {
    if (stage.matches(f)) return { ...stage.next(f), stage: stage.name };
  }
  throw new Error('unreachable: the last stage always matches');
}
