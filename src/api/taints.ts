/**
 * Taint/toleration matching, shared by the scheduler's filters, the taint eviction controller
 * and the DefaultTolerationSeconds admission (upstream `Toleration.ToleratesTaint` in
 * `k8s.io/api/core/v1/toleration.go`).
 *
 * @module
 */

/** The fields of a toleration that matching reads (all optional in the API). */
export interface TolerationFields {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
}

/** The fields of a taint that matching reads. */
export interface TaintFields {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

/**
 * An empty effect matches every effect and an empty key every key; `Exists` ignores the value,
 * `Equal` (or empty) requires the same value; any other operator tolerates nothing.
 */
export function toleratesTaint(tol: TolerationFields, taint: TaintFields): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.key && tol.key !== taint.key) return false;
  const op = tol.operator ?? '';
  if (op === 'Exists') return true;
  if (op === '' || op === 'Equal') return (tol.value ?? '') === (taint.value ?? '');
  return false;
}
