/**
 * Reading daemon pods and the update strategy (upstream `daemon_controller.go:
 * getNodesToDaemonPods, podByCreationTimestampAndPhase`, `util/daemonset_util.go: IsPodUpdated,
 * SurgeCount, UnavailableCount`), shared by the planner, the rolling update and the status.
 *
 * @module
 */
import type { DaemonSet, Node, Pod } from '../../api/model/index.js';
import {
  getScaledValueFromIntOrPercent,
  isIntOrString,
} from '../../api/validation/int-or-string.js';
import {
  DAEMONSET_HASH_LABEL,
  type Eligibility,
  nodeShouldRunDaemonPod,
  targetNodeName,
} from './node-eligibility.js';

/** Pods grouped by the node they run on or are pinned to (upstream `getNodesToDaemonPods`). */
export function podsByNode(pods: readonly Pod[]): Map<string, Pod[]> {
  const out = new Map<string, Pod[]>();
  for (const pod of pods) {
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    const list = out.get(node);
    if (list === undefined) out.set(node, [pod]);
    else list.push(pod);
  }
  return out;
}

function creationMs(pod: Pod): number {
  const t = Date.parse(pod.metadata?.creationTimestamp ?? '');
  return Number.isNaN(t) ? 0 : t;
}

/** Upstream `podByCreationTimestampAndPhase`: bound pods first, then oldest, then by name. */
export function comparePods(a: Pod, b: Pod): number {
  const ba = (a.spec?.nodeName ?? '') !== '';
  const bb = (b.spec?.nodeName ?? '') !== '';
  if (ba !== bb) return ba ? -1 : 1;
  const ta = creationMs(a);
  const tb = creationMs(b);
  if (ta !== tb) return ta - tb;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

export const nameOf = (p: Pod): string => p.metadata?.name ?? '';
export const deleting = (p: Pod): boolean => Boolean(p.metadata?.deletionTimestamp);

/**
 * Upstream `IsPodUpdated`: the pod carries the current hash. (Upstream also compares the
 * `pod-template-generation` label, but against a pointer printed with `fmt.Sprint`, which never
 * matches; the hash alone decides there too.)
 */
export function isPodUpdated(pod: Pod, hash: string): boolean {
  return hash !== '' && pod.metadata?.labels?.[DAEMONSET_HASH_LABEL] === hash;
}

export function rollingValues(
  ds: DaemonSet,
): { maxUnavailable: unknown; maxSurge: unknown } | undefined {
  const strategy = ds.spec?.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return undefined;
  const r = strategy?.rollingUpdate;
  if (r === undefined) return undefined;
  return { maxUnavailable: r.maxUnavailable, maxSurge: r.maxSurge };
}

function scaled(value: unknown, total: number): number {
  if (!isIntOrString(value)) return 0;
  try {
    return getScaledValueFromIntOrPercent(value, total, true);
  } catch {
    return 0;
  }
}

/** Upstream `SurgeCount` (DaemonSetUpdateSurge is GA): 0 unless RollingUpdate with maxSurge. */
export function surgeCount(ds: DaemonSet, numberToSchedule: number): number {
  return scaled(rollingValues(ds)?.maxSurge, numberToSchedule);
}

/** Upstream `UnavailableCount`. */
export function unavailableCount(ds: DaemonSet, numberToSchedule: number): number {
  return scaled(rollingValues(ds)?.maxUnavailable, numberToSchedule);
}

/** Eligibility of every node, in name order. */
export function eligibilityByNode(ds: DaemonSet, nodes: readonly Node[]): Map<string, Eligibility> {
  const sorted = [...nodes].sort((a, b) => {
    const na = a.metadata?.name ?? '';
    const nb = b.metadata?.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
  return new Map(sorted.map((n) => [n.metadata?.name ?? '', nodeShouldRunDaemonPod(n, ds)]));
}
