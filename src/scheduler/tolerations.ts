/**
 * Taint/toleration matching (upstream `Toleration.ToleratesTaint` and
 * `FindMatchingUntoleratedTaint`).
 *
 * @module
 */

import type { Taint, Toleration } from '../api/model/index.js';
import { toleratesTaint } from '../api/taints.js';

export { toleratesTaint };

export function tolerationsTolerate(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint));
}

/** Taints the Filter phase enforces: NoSchedule and NoExecute (PreferNoSchedule only scores). */
export function isDoNotScheduleTaint(taint: Taint): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** The first taint (in node order) that passes `include` and no toleration tolerates. */
export function findUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  include: (t: Taint) => boolean,
): Taint | undefined {
  return taints.find((taint) => include(taint) && !tolerationsTolerate(tolerations, taint));
}
