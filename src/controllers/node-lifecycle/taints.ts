/**
 * Taints and tolerations as the node-lifecycle planners read them: the well-known taint keys
 * (`k8s.io/api/core/v1/well_known_taints.go`), reading them off Node/Pod objects, and the
 * matching rules of `Toleration.ToleratesTaint`, `Taint.MatchTaint` and
 * `v1helper.GetMatchingTolerations`. Pure.
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import { isJsonObject } from '../../api/object.js';
import { toleratesTaint } from '../../api/taints.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect | string;
  /** RFC3339; set for taints the node controller adds (SwapNodeControllerTaint stamps every added taint). */
  timeAdded?: string | null;
}

export interface Toleration {
  key?: string;
  /** `Equal` (the default when empty) or `Exists`. */
  operator?: string;
  value?: string;
  effect?: string;
  /** Only meaningful for NoExecute; absent/null = tolerate forever, ≤ 0 = evict at once. */
  tolerationSeconds?: number | null;
}

function spec(obj: KubeObject): Record<string, unknown> {
  return isJsonObject(obj.spec) ? obj.spec : {};
}

/** `node.spec.taints`, ignoring malformed entries. */
export function nodeTaints(node: KubeObject): Taint[] {
  const raw = spec(node).taints;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (t): t is Taint => isJsonObject(t) && typeof t.key === 'string' && typeof t.effect === 'string',
  );
}

/** `pod.spec.tolerations`, ignoring malformed entries. */
export function podTolerations(pod: KubeObject): Toleration[] {
  const raw = spec(pod).tolerations;
  return Array.isArray(raw) ? raw.filter((t): t is Toleration => isJsonObject(t)) : [];
}

/** `pod.spec.nodeName`, '' when unbound. */
export function podNodeName(pod: KubeObject): string {
  const n = spec(pod).nodeName;
  return typeof n === 'string' ? n : '';
}

/** Taints are identified by key and effect (`MatchTaint`); the value is not part of identity. */
export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

export function hasTaint(taints: readonly Taint[], t: Taint): boolean {
  return taints.some((x) => sameTaint(x, t));
}

export { toleratesTaint };

/**
 * `GetMatchingTolerations`: for each taint the FIRST toleration that tolerates it (order
 * matters: `[{operator: Exists}, {key: k, tolerationSeconds: 5}]` tolerates k forever).
 * `undefined` when some taint is not tolerated.
 */
export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): Toleration[] | undefined {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const tol = tolerations.find((t) => toleratesTaint(t, taint));
    if (tol === undefined) return undefined;
    used.push(tol);
  }
  return used;
}
