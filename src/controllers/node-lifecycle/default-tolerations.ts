/**
 * The DefaultTolerationSeconds admission plugin (`plugin/pkg/admission/defaulttolerationseconds`):
 * on pod create and update, every pod that does not already tolerate `not-ready:NoExecute` or
 * `unreachable:NoExecute` gets an `Exists` toleration for it with `tolerationSeconds: 300`.
 * Pure; the caller appends the result to `spec.tolerations` (and skips subresources).
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import { podTolerations, TAINT_NOT_READY, TAINT_UNREACHABLE, type Toleration } from './taints.js';

export interface DefaultTolerationOptions {
  /** `--default-not-ready-toleration-seconds`. @default 300 */
  notReadyTolerationSeconds?: number;
  /** `--default-unreachable-toleration-seconds`. @default 300 */
  unreachableTolerationSeconds?: number;
}

export const DEFAULT_TOLERATION_SECONDS = 300;

/**
 * Whether some toleration already covers `key:NoExecute` in the plugin's sense: the key is equal
 * or empty and the effect is NoExecute or empty. Operator, value and seconds are not looked at,
 * so `{key: not-ready, operator: Equal, value: x}` counts too.
 */
function covers(tolerations: readonly Toleration[], key: string): boolean {
  return tolerations.some(
    (t) => (!t.key || t.key === key) && (!t.effect || t.effect === 'NoExecute'),
  );
}

/** The tolerations to append to the pod (not-ready first, then unreachable); `[]` when none. */
export function defaultTolerations(
  pod: KubeObject,
  opts: DefaultTolerationOptions = {},
): Toleration[] {
  const existing = podTolerations(pod);
  const add: Toleration[] = [];
  const wanted: Array<[string, number]> = [
    [TAINT_NOT_READY, opts.notReadyTolerationSeconds ?? DEFAULT_TOLERATION_SECONDS],
    [TAINT_UNREACHABLE, opts.unreachableTolerationSeconds ?? DEFAULT_TOLERATION_SECONDS],
  ];
  for (const [key, seconds] of wanted) {
    if (!covers(existing, key)) {
      add.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
    }
  }
  return add;
}
