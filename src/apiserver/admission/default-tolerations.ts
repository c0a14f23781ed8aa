/**
 * The DefaultTolerationSeconds admission plugin (`plugin/pkg/admission/defaulttolerationseconds`):
 * on pod create and update, a pod that does not already tolerate `not-ready:NoExecute` or
 * `unreachable:NoExecute` gets an `Exists` toleration for it with `tolerationSeconds: 300`, so
 * the taint eviction controller deletes its pods 5 minutes after their node is lost instead of at
 * once. Subresources (`status`, `binding`, …) are not touched.
 *
 * Lives in the API server, not with the node lifecycle controllers, because admission is part of
 * the write path (architecture layers: the API server never imports controllers).
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import { isJsonObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Admission } from '../store/object-store.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';

/** `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds`. */
export const DEFAULT_TOLERATION_SECONDS = 300;

export interface DefaultTolerationOptions {
  /** @default 300 */
  notReadyTolerationSeconds?: number;
  /** @default 300 */
  unreachableTolerationSeconds?: number;
}

/** A pod toleration as the plugin reads it (fields are optional in the API). */
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

function tolerationsOf(pod: KubeObject): Toleration[] {
  const spec = isJsonObject(pod.spec) ? pod.spec : {};
  const raw = spec.tolerations;
  return Array.isArray(raw) ? raw.filter((t): t is Toleration => isJsonObject(t)) : [];
}

/**
 * Whether some toleration already covers `key:NoExecute` in the plugin's sense: the key is equal
 * or empty and the effect is NoExecute or empty. Operator, value and seconds are not looked at,
 * so `{key: not-ready, operator: Equal, value: x}` counts too (as upstream).
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
  const existing = tolerationsOf(pod);
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

function isPods(def: ResourceDefinition): boolean {
  return def.group === '' && def.plural === 'pods';
}

/** Appends the missing default tolerations to `pod.spec.tolerations` in place. */
function admitPod(pod: KubeObject, opts: DefaultTolerationOptions): void {
  const add = defaultTolerations(pod, opts);
  if (add.length === 0) return;
  const spec = isJsonObject(pod.spec) ? pod.spec : {};
  const current = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  pod.spec = { ...spec, tolerations: [...current, ...add] };
}

/**
 * The plugin as object-store admission hooks: `admitCreate` for creates (every create path:
 * POST, dry run, server-side apply of a new object) and `preserve` for updates of the pod
 * itself (the store calls it for the main resource only, never for subresources).
 */
export function defaultTolerationSecondsAdmission(opts: DefaultTolerationOptions = {}): Admission {
  return {
    admitCreate(def, _namespace, obj) {
      if (isPods(def)) admitPod(obj, opts);
    },
    preserve(def, next) {
      if (isPods(def)) admitPod(next, opts);
    },
  };
}
