/**
 * Coalesces the pure planner's instantaneous steps into one status write. `plan` advances each
 * container by one stage and asks to look again at once (`requeueAfterMs: 0`); when nothing
 * delays a pod, Pending/ContainerCreating → Running/Ready are several plans at the same instant.
 * Writing each would cost one API write per step for no observer's benefit, so the runner plays
 * the steps in memory and writes once — but stops at any state a user should be able to see:
 * an error or back-off reason (ErrImagePull, CreateContainerConfigError, CrashLoopBackOff …), a
 * container that exited (other than a finished init container), or a terminal phase.
 *
 * With no delays configured a new pod therefore takes exactly one status write, straight to
 * Running with Ready=True (upstream writes Pending/ContainerCreating first; kwok writes once).
 *
 * @module
 */

import type { RuntimeState } from './backoff.js';
import type { ContainerStatus, KubeletPod, PodStatus } from './kubelet-pod.js';
import { type PlanContext, type PodPlan, plan } from './pod-lifecycle.js';

/** Upper bound of coalesced steps (a pod with init containers and sidecars needs ~2 per container). */
export const MAX_STEPS = 32;

const QUIET_WAITING = new Set(['ContainerCreating', 'PodInitializing']);

function quiet(cs: ContainerStatus, init: boolean): boolean {
  const { waiting, terminated } = cs.state ?? {};
  if (waiting) return QUIET_WAITING.has(waiting.reason ?? '');
  if (terminated) return init && terminated.exitCode === 0;
  return true;
}

/** Whether `status` may be stepped past without being written. */
export function isTransient(status: PodStatus): boolean {
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return false;
  return (
    (status.initContainerStatuses ?? []).every((cs) => quiet(cs, true)) &&
    (status.containerStatuses ?? []).every((cs) => quiet(cs, false))
  );
}

export interface SteppedPlan extends PodPlan {
  /** Plans evaluated. */
  steps: number;
}

/** Plays `plan` until it waits, deletes, or reaches a visible state; see the module doc. */
export function planSteps(pod: KubeletPod, ctx: PlanContext): SteppedPlan {
  let current = pod;
  let runtime: RuntimeState | undefined = ctx.runtime;
  let status: PodStatus | undefined;
  for (let steps = 1; ; steps++) {
    const p = plan(current, { ...ctx, runtime });
    if (p.runtime) runtime = p.runtime;
    const memory = runtime !== ctx.runtime && runtime ? { runtime } : {};
    if (p.deletePod && status === undefined) return { ...p, ...memory, steps };
    if (!p.status || p.deletePod) return { ...settled(status, p), ...memory, steps };
    status = p.status;
    current = { ...current, status };
    if (!isTransient(status) || steps >= MAX_STEPS) {
      return { status, ...pick(p.requeueAfterMs), ...memory, steps };
    }
  }
}

/** Nothing more happens now: write what accumulated (if anything), wake as planned. */
function settled(status: PodStatus | undefined, p: PodPlan): PodPlan {
  if (status === undefined) return pick(p.requeueAfterMs);
  // A delete right after the accumulated write: look again at once (after the write).
  return { status, ...(p.deletePod ? { requeueAfterMs: 0 } : pick(p.requeueAfterMs)) };
}

function pick(requeueAfterMs: number | undefined): { requeueAfterMs?: number } {
  return requeueAfterMs === undefined ? {} : { requeueAfterMs };
}
