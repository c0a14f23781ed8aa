/**
 * The simulated kubelet's planner: `plan(pod, ctx)` computes the status the kubelet would
 * write next for one pod bound to its node, and when to look again. Pure: no I/O, no timers;
 * `ctx.now` is the time, the pod IP comes from `ctx.allocatePodIP`, and the kubelet's back-off
 * memory is the {@link RuntimeState} the caller threads from one plan to the next.
 *
 * Order of checks: not our node → nothing; node down → nothing (frozen); terminal and being
 * deleted → `deletePod`; being deleted → kill at the grace deadline; otherwise every container
 * advances one stage (see `stages.ts`) and the pod's phase and conditions are derived.
 *
 * @module
 */

import { isDeepStrictEqual } from 'node:util';
import { podQOSClass } from '../../api/kinds/qos.js';
import { formatTime, parseTime } from '../../api/time.js';
import { DEFAULT_FAILING_IMAGE, readSimSettings, type SimSettings } from './annotations.js';
import { EMPTY_RUNTIME, type RuntimeState } from './backoff.js';
import { type ConfigObjects, containerConfigError, missingVolumeSource } from './config-refs.js';
import type { Container, ContainerStatus, KubeletPod, PodStatus } from './kubelet-pod.js';
import { podConditions } from './pod-conditions.js';
import { podPhase } from './pod-status.js';
import { type ContainerKind, playContainerStage } from './stages.js';
import { planTermination } from './termination.js';

export interface NodeState {
  name: string;
  /** False while the simulated node is down: its kubelet changes nothing. */
  up: boolean;
  /** `status.hostIP`. */
  ip: string;
}

export interface PlanContext extends ConfigObjects {
  /** Epoch ms. */
  now: number;
  node: NodeState;
  /** Called once per pod, when the kubelet first gives it an IP. */
  allocatePodIP: (pod: KubeletPod) => string;
  /** The kubelet's back-off memory for this pod from the previous plan; empty when absent. */
  runtime?: RuntimeState;
  /** Images whose pull fails; default: tag `nonexistent` or `404`. */
  failingImage?: RegExp;
  /**
   * How long running containers take to exit after SIGTERM (ms); undefined = they ignore it
   * and are killed at the grace deadline. A pod's `sim.fleetyard.dev/shutdown-delay` wins.
   */
  shutdownDelayMs?: number;
  /**
   * Why the pod's claim volumes cannot be mounted yet (`volumes.ts`); holds containers that
   * never started at ContainerCreating, as a missing ConfigMap/Secret volume does.
   */
  volumeError?: string;
}

export interface PodPlan {
  /** The full new status, present only when it differs from `pod.status`. */
  status?: PodStatus;
  /** Plan again after this many ms (0 = at once); absent = only on the next event. */
  requeueAfterMs?: number;
  /** The pod is terminal and being deleted: delete it with gracePeriodSeconds=0. */
  deletePod?: boolean;
  /** The kubelet's back-off memory to pass to the next plan (present when it changed). */
  runtime?: RuntimeState;
}

const TERMINAL = new Set(['Succeeded', 'Failed']);

export function plan(pod: KubeletPod, ctx: PlanContext): PodPlan {
  if (pod.spec.nodeName !== ctx.node.name || !ctx.node.up) return {};
  const terminal = TERMINAL.has(pod.status?.phase ?? '');
  if (pod.metadata.deletionTimestamp) {
    return terminal ? { deletePod: true } : planTermination(pod, ctx.now, ctx.shutdownDelayMs);
  }
  if (terminal) return {};
  return planLive(pod, ctx);
}

interface Walk {
  statuses: ContainerStatus[];
  wakes: number[];
  runtime: RuntimeState;
}

/** Advances the containers of one kind, in order; `gateAt` undefined = blocked. */
function advance(
  pod: KubeletPod,
  ctx: PlanContext,
  settings: SimSettings,
  containers: { spec: Container; kind: ContainerKind }[],
  previous: ContainerStatus[] | undefined,
  walk: Walk,
  gate: (index: number, done: ContainerStatus[]) => number | undefined,
): ContainerStatus[] {
  const out: ContainerStatus[] = [];
  const volumeError = missingVolumeSource(pod, ctx) ?? ctx.volumeError;
  containers.forEach(({ spec, kind }, i) => {
    const gateAt = gate(i, out);
    const step = playContainerStage({
      pod,
      kind,
      spec,
      current: previous?.find((s) => s.name === spec.name),
      now: ctx.now,
      blocked: gateAt === undefined,
      startAt: (gateAt ?? ctx.now) + settings.startDelayMs,
      settings,
      runtime: walk.runtime,
      failingImage: ctx.failingImage ?? DEFAULT_FAILING_IMAGE,
      configError: containerConfigError(pod, spec, ctx),
      volumeError,
    });
    out.push(step.status);
    if (step.runtime) walk.runtime = step.runtime;
    if (step.wakeAt !== undefined) walk.wakes.push(step.wakeAt);
  });
  return out;
}

/** When an init container counts as done (sidecar: started; others: exited 0), else undefined. */
export function initDoneAt(
  cs: ContainerStatus | undefined,
  kind: ContainerKind,
): number | undefined {
  if (kind === 'sidecar') return parseTime(cs?.state?.running?.startedAt);
  return cs?.state?.terminated?.exitCode === 0
    ? parseTime(cs.state.terminated.finishedAt)
    : undefined;
}

function initSpecs(pod: KubeletPod): { spec: Container; kind: ContainerKind }[] {
  return (pod.spec.initContainers ?? []).map((spec) => ({
    spec,
    kind: spec.restartPolicy === 'Always' ? 'sidecar' : 'init',
  }));
}

function planLive(pod: KubeletPod, ctx: PlanContext): PodPlan {
  const old = pod.status ?? {};
  const settings = readSimSettings(pod);
  const startTime = old.startTime ?? formatTime(ctx.now);
  const startMs = parseTime(startTime) ?? ctx.now;
  const runtime = ctx.runtime ?? EMPTY_RUNTIME;
  const walk: Walk = { statuses: [], wakes: [], runtime };
  const inits = initSpecs(pod);
  const initStatuses = advance(
    pod,
    ctx,
    settings,
    inits,
    old.initContainerStatuses,
    walk,
    (i, done) => {
      if (i === 0) return startMs;
      const prev = inits[i - 1];
      return prev && initDoneAt(done[i - 1], prev.kind);
    },
  );
  const doneTimes = inits.map((c, i) => initDoneAt(initStatuses[i], c.kind));
  const wasInitialized =
    old.conditions?.some((c) => c.type === 'Initialized' && c.status === 'True') ?? false;
  const initialized = wasInitialized || doneTimes.every((t) => t !== undefined);
  const initDone = Math.max(startMs, ...doneTimes.map((t) => t ?? 0));
  const regular = pod.spec.containers.map((spec) => ({ spec, kind: 'regular' as const }));
  const statuses = advance(pod, ctx, settings, regular, old.containerStatuses, walk, () =>
    initialized ? initDone : undefined,
  );
  const initFailed = inits.some(
    (c, i) =>
      c.kind === 'init' &&
      (initStatuses[i]?.state?.terminated?.exitCode ?? 0) !== 0 &&
      pod.spec.restartPolicy === 'Never',
  );
  const phase = podPhase(pod, statuses, initialized, initFailed);
  const podIP = old.podIP ?? ctx.allocatePodIP(pod);
  const status: PodStatus = {
    ...old,
    phase,
    conditions: podConditions(pod, {
      phase,
      initialized,
      initStatuses,
      inits,
      statuses,
      now: ctx.now,
    }),
    hostIP: ctx.node.ip,
    hostIPs: [{ ip: ctx.node.ip }],
    podIP,
    podIPs: old.podIPs ?? [{ ip: podIP }],
    startTime,
    ...(inits.length > 0 ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: sortByName(statuses),
    qosClass: old.qosClass ?? podQOSClass(pod.spec),
  };
  return finish(pod, status, walk, runtime, ctx.now);
}

function sortByName(statuses: ContainerStatus[]): ContainerStatus[] {
  return [...statuses].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Builds the plan: status only if changed, the earliest wake, the memory only if changed. */
function finish(
  pod: KubeletPod,
  status: PodStatus,
  walk: Walk,
  runtime: RuntimeState,
  now: number,
): PodPlan {
  const changed = !isDeepStrictEqual(status, pod.status ?? {});
  const terminal = TERMINAL.has(status.phase ?? '');
  const wake = Math.min(...walk.wakes);
  const plan: PodPlan = {};
  if (changed) plan.status = status;
  if (walk.runtime !== runtime) plan.runtime = walk.runtime;
  // A write is followed by one more look: the next stage may already be due.
  if (changed) plan.requeueAfterMs = 0;
  else if (!terminal && Number.isFinite(wake)) plan.requeueAfterMs = Math.max(0, wake - now);
  return plan;
}
