/**
 * Taints and tolerations as the node-lifecycle planners read them: the well-known taint keys
 * (`k8s.io/api/core/v1/well_known_taints.go`), reading them off Node/Pod objects, and the
 * matching rules of `Toleration.ToleratesTaint`, `Taint.MatchTaint` and
 * `v1helper.GetMatchingTolerations`. Taint and Toleration are the API model's. Pure.
 *
 * @module
 */

import type { Node, Pod, Taint, Toleration } from '../../api/model/index.js';
import { toleratesTaint } from '../../api/taints.js';

export type { Taint, Toleration };

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

/** `node.spec.taints` (the API server requires each taint's key and effect). */
export function nodeTaints(node: Node): Taint[] {
  return node.spec?.taints ?? [];
}

/** `pod.spec.tolerations`. */
export function podTolerations(pod: Pod): Toleration[] {
  return pod.spec?.tolerations ?? [];
}

/** `pod.spec.nodeName`, '' when unbound. */
export function podNodeName(pod: Pod): string {
  return pod.spec?.nodeName ?? '';
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
