/**
 * A test driver that plays `plan` over time like the real kubelet loop would: apply the
 * status, keep the runtime memory, advance a fake clock by `requeueAfterMs`, and apply
 * scheduled edits (create a ConfigMap, delete the pod) at their times.
 *
 * @module
 */

import type { RuntimeState } from '../backoff.js';
import type { KubeletPod } from '../kubelet-pod.js';
import { type PlanContext, type PodPlan, plan } from '../pod-lifecycle.js';

export const T0 = Date.parse('2025-01-01T00:00:00Z');

export interface SimEvent {
  atMs: number;
  apply(pod: KubeletPod, ctx: PlanContext): void;
}

export interface HistoryEntry {
  /** Seconds since T0. */
  t: number;
  phase?: string;
  conditions?: string;
  containers?: string[];
  deleted?: boolean;
}

export function baseContext(now = T0): PlanContext {
  let next = 10;
  return {
    now,
    node: { name: 'node-1', up: true, ip: '10.0.0.1' },
    allocatePodIP: () => `10.244.0.${next++}`,
    configMaps: {},
    secrets: {},
  };
}

function summarize(pod: KubeletPod, t: number): HistoryEntry {
  const s = pod.status ?? {};
  const cs = [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])].map((c) => {
    const st = c.state ?? {};
    const what = st.running
      ? 'running'
      : st.terminated
        ? `terminated:${st.terminated.reason}:${st.terminated.exitCode}`
        : `waiting:${st.waiting?.reason ?? ''}`;
    return `${c.name} ${what} ready=${c.ready} restarts=${c.restartCount}`;
  });
  const conds = (s.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(' ');
  return { t: (t - T0) / 1000, phase: s.phase, conditions: conds, containers: cs };
}

/** Runs until `untilMs` (from T0) or deletion; returns one summary per status write. */
export function simulate(
  pod: KubeletPod,
  ctx: PlanContext,
  untilMs: number,
  events: SimEvent[] = [],
): { history: HistoryEntry[]; pod: KubeletPod; plans: number } {
  const pending = [...events].sort((a, b) => a.atMs - b.atMs);
  const history: HistoryEntry[] = [];
  let runtime: RuntimeState | undefined;
  let plans = 0;
  while (ctx.now - T0 <= untilMs && plans < 10_000) {
    while (pending[0] && pending[0].atMs <= ctx.now - T0) pending.shift()?.apply(pod, ctx);
    const p: PodPlan = plan(pod, { ...ctx, runtime });
    plans++;
    if (p.runtime) runtime = p.runtime;
    if (p.status) {
      pod.status = p.status;
      history.push(summarize(pod, ctx.now));
    }
    if (p.deletePod) {
      history.push({ t: (ctx.now - T0) / 1000, deleted: true });
      break;
    }
    const nextEvent = pending[0] ? T0 + pending[0].atMs : Number.POSITIVE_INFINITY;
    const wake =
      p.requeueAfterMs === undefined ? Number.POSITIVE_INFINITY : ctx.now + p.requeueAfterMs;
    const next = Math.min(wake, nextEvent);
    if (!Number.isFinite(next)) break;
    ctx.now = next;
  }
  return { history, pod, plans };
}
