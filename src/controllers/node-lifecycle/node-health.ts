/**
 * Node health planning, after upstream `node_lifecycle_controller.go`: `tryUpdateNodeHealth`
 * (mark conditions Unknown when the kubelet went silent), `processTaintBaseEviction` +
 * `doNoExecuteTaintingPass` (the mutually exclusive not-ready / unreachable NoExecute taints) and
 * `doNoScheduleTaintingPass` (NoSchedule taints mirroring conditions and `spec.unschedulable`).
 * Pure: `now` is epoch ms; the caller writes the plan (status update, then taint patch).
 *
 * Deviations from upstream, all deliberate:
 * - Heartbeats are read from the objects, not remembered: upstream stamps its own clock when it
 *   first sees `lastHeartbeatTime` or the Lease `renewTime` change (so a controller restart gives
 *   every node a fresh grace period). Here the last heartbeat is the later of the Ready
 *   condition's `lastHeartbeatTime` and the Lease's `spec.renewTime` (creationTimestamp when
 *   neither exists), which is the same thing with one clock in one process.
 * - NoExecute taints follow the Ready condition in the same plan that changes it; upstream taints
 *   on its next pass, through a per-zone rate limiter (0.1 nodes/s, 0.01 when a zone is > 55%
 *   unhealthy, paused when every zone is fully down). Zones and rate limits are not modelled.
 *
 * @module
 */

import type { Lease, Node, NodeCondition } from '../../api/model/index.js';
import { deepCopy } from '../../api/object.js';
import { formatTime, parseTime } from '../../api/time.js';
import {
  hasTaint,
  nodeTaints,
  sameTaint,
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
  type Taint,
} from './taints.js';

export interface NodeHealthOptions {
  /** No heartbeat (status or Lease) for longer than this → conditions Unknown. @default 50_000 (v1.32+; 40 s before) */
  nodeMonitorGracePeriodMs?: number;
  /** The same, for a node that never posted a Ready condition, counted from its creation. @default 60_000 */
  nodeStartupGracePeriodMs?: number;
}

export const DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS = 50_000;
export const DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS = 60_000;

/** What to write to a node; only produced when something changes. */
export interface NodeHealthPlan {
  /** The complete new `status.conditions`, present only when they change. */
  conditions?: NodeCondition[];
  /** Taints to add, `timeAdded` stamped with `now`. */
  taintsToAdd: Taint[];
  /** Taints to remove, matched by key and effect. */
  taintsToRemove: Taint[];
}

export const REASON_NODE_STATUS_UNKNOWN = 'NodeStatusUnknown';
export const MESSAGE_NODE_STATUS_UNKNOWN = 'Kubelet stopped posting node status.';
export const REASON_NODE_STATUS_NEVER_UPDATED = 'NodeStatusNeverUpdated';
export const MESSAGE_NODE_STATUS_NEVER_UPDATED = 'Kubelet never posted node status.';

/** The conditions the kubelet owns; NetworkUnavailable is left alone (a control-plane condition). */
const KUBELET_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

/** `nodeConditionToTaintKeyStatusMap`: which condition status puts which NoSchedule taint. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: TAINT_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_PID_PRESSURE },
};

/** Taint keys the NoSchedule pass owns (`taintKeyToNodeConditionMap` + unschedulable). */
const NO_SCHEDULE_KEYS = new Set<string>([
  ...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)),
  TAINT_UNSCHEDULABLE,
]);

export const UNREACHABLE_NO_EXECUTE: Taint = { key: TAINT_UNREACHABLE, effect: 'NoExecute' };
export const NOT_READY_NO_EXECUTE: Taint = { key: TAINT_NOT_READY, effect: 'NoExecute' };

/** `node.status.conditions`. */
export function nodeConditions(node: Node): NodeCondition[] {
  return node.status?.conditions ?? [];
}

/** The node's Ready condition status, `undefined` when it has none. */
export function nodeReadyStatus(node: Node): string | undefined {
  return nodeConditions(node).find((c) => c.type === 'Ready')?.status;
}

/** Epoch ms of the node's last sign of life: Ready heartbeat or Lease renewal, else creation. */
export function lastHeartbeat(node: Node, lease: Lease | undefined): number {
  const ready = nodeConditions(node).find((c) => c.type === 'Ready');
  const created = parseTime(node.metadata?.creationTimestamp) ?? 0;
  const posted = ready ? (parseTime(ready.lastHeartbeatTime) ?? created) : created;
  const renewed = parseTime(lease?.spec?.renewTime);
  return renewed === undefined ? posted : Math.max(posted, renewed);
}

/**
 * The conditions after the staleness check, or `undefined` when they stay as they are. Upstream
 * writes only when the Ready condition changes, so a node already Ready=Unknown with a stale
 * MemoryPressure=True is left alone.
 */
function staleConditions(node: Node, now: number): NodeCondition[] | undefined {
  const current = nodeConditions(node);
  if (current.find((c) => c.type === 'Ready')?.status === 'Unknown') return undefined;
  // Upstream stamps the creation time, which the API server sets on every node (a node without
  // one, never seen from the cache, gets no heartbeat rather than Go's zero time, `null`).
  const created = node.metadata?.creationTimestamp;
  const nowText = formatTime(now);
  const next = current.map((c) => ({ ...c }));
  for (const type of KUBELET_CONDITIONS) {
    const cond = next.find((c) => c.type === type);
    if (cond === undefined) {
      next.push({
        type,
        status: 'Unknown',
        reason: REASON_NODE_STATUS_NEVER_UPDATED,
        message: MESSAGE_NODE_STATUS_NEVER_UPDATED,
        ...(typeof created === 'string' ? { lastHeartbeatTime: created } : {}),
        lastTransitionTime: nowText,
      });
    } else if (cond.status !== 'Unknown') {
      cond.status = 'Unknown';
      cond.reason = REASON_NODE_STATUS_UNKNOWN;
      cond.message = MESSAGE_NODE_STATUS_UNKNOWN;
      cond.lastTransitionTime = nowText;
    }
  }
  return next;
}

/** NoExecute taints wanted / unwanted for a Ready status (the two are mutually exclusive). */
function noExecuteTaints(ready: string | undefined): { want: Taint[]; drop: Taint[] } {
  switch (ready) {
    case 'False':
      return { want: [NOT_READY_NO_EXECUTE], drop: [UNREACHABLE_NO_EXECUTE] };
    case 'Unknown':
      return { want: [UNREACHABLE_NO_EXECUTE], drop: [NOT_READY_NO_EXECUTE] };
    case 'True':
      return { want: [], drop: [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE] };
    default:
      // No Ready condition yet: upstream neither taints nor untaints (it retries later).
      return { want: [], drop: [] };
  }
}

/** NoSchedule taints the conditions and `spec.unschedulable` call for (`doNoScheduleTaintingPass`). */
function noScheduleTaints(node: Node, conditions: readonly NodeCondition[]): Taint[] {
  const wanted: Taint[] = [];
  for (const c of conditions) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key !== undefined && !wanted.some((t) => t.key === key))
      wanted.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable === true) {
    wanted.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  }
  return wanted;
}

function taintPlan(node: Node, conditions: readonly NodeCondition[], now: number) {
  const existing = nodeTaints(node);
  const ready = conditions.find((c) => c.type === 'Ready')?.status;
  const exec = noExecuteTaints(ready);
  const wanted = [...exec.want, ...noScheduleTaints(node, conditions)];
  const owned = existing.filter((t) => t.effect === 'NoSchedule' && NO_SCHEDULE_KEYS.has(t.key));
  const toRemove = [
    ...exec.drop.filter((t) => hasTaint(existing, t)),
    ...owned.filter((t) => !hasTaint(wanted, t)),
  ].map((t) => ({ key: t.key, effect: t.effect }));
  const timeAdded = formatTime(now);
  const toAdd = wanted.filter((t) => !hasTaint(existing, t)).map((t) => ({ ...t, timeAdded }));
  return { taintsToAdd: toAdd, taintsToRemove: dedupe(toRemove) };
}

function dedupe(taints: Taint[]): Taint[] {
  return taints.filter((t, i) => taints.findIndex((u) => sameTaint(t, u)) === i);
}

/**
 * Plans one health pass for a node: its conditions go Unknown once neither the node status nor
 * its Lease (`kube-node-lease/<node>`) was renewed within the grace period (monitor grace, or
 * startup grace counted from creation for a node that never posted Ready), and its taints follow
 * the resulting conditions. Returns `undefined` when nothing would change.
 */
export function nodeHealth(
  node: Node,
  lease: Lease | undefined,
  now: number,
  opts: NodeHealthOptions = {},
): NodeHealthPlan | undefined {
  const current = nodeConditions(node);
  const posted = current.some((c) => c.type === 'Ready');
  const grace = posted
    ? (opts.nodeMonitorGracePeriodMs ?? DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS)
    : (opts.nodeStartupGracePeriodMs ?? DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS);
  // Strictly after, like `now.After(probe + grace)`.
  const stale = now > lastHeartbeat(node, lease) + grace;
  const conditions = stale ? staleConditions(node, now) : undefined;
  const { taintsToAdd, taintsToRemove } = taintPlan(node, conditions ?? current, now);
  if (conditions === undefined && taintsToAdd.length === 0 && taintsToRemove.length === 0)
    return undefined;
  return conditions === undefined
    ? { taintsToAdd, taintsToRemove }
    : { conditions, taintsToAdd, taintsToRemove };
}

/** A copy of `node` with the plan applied (what the status write plus taint patch produce). */
export function applyNodeHealthPlan(node: Node, plan: NodeHealthPlan): Node {
  const next = deepCopy(node);
  if (plan.conditions !== undefined) {
    next.status = { ...next.status, conditions: deepCopy(plan.conditions) };
  }
  const kept = nodeTaints(next).filter((t) => !hasTaint(plan.taintsToRemove, t));
  const taints = [
    ...kept,
    ...plan.taintsToAdd.filter((t) => !hasTaint(kept, t)).map((t) => ({ ...t })),
  ];
  const spec = next.spec ?? {};
  if (taints.length > 0) next.spec = { ...spec, taints };
  else {
    const { taints: _dropped, ...rest } = spec;
    next.spec = rest;
  }
  return next;
}
