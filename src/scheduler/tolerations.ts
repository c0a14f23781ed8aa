/**
 * Taint/toleration matching (upstream `Toleration.ToleratesTaint` and
 * `FindMatchingUntoleratedTaint`).
 *
 * @module
 */
import type { Taint, Toleration } from './types.js';

/**
 * An empty effect or key in the toleration is a wildcard; operator `''`/`Equal` compares the
 * values, `Exists` ignores them, anything else tolerates nothing.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

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
