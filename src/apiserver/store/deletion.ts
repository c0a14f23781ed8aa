/**
 * What a DELETE does to an object, as a pure plan (upstream `genericregistry.Store.Delete`,
 * `BeforeDelete`, `deletionFinalizersForGarbageCollection`, and the pod strategy's
 * `CheckGracefulDelete`).
 *
 * - No finalizers and no grace period: remove now.
 * - Otherwise mark: set `deletionTimestamp` (now, or now + grace for a pod), bump generation
 *   once, and keep the object until its finalizers are gone (or the kubelet removes the pod).
 * - `propagationPolicy` becomes finalizers: Orphan → `orphan`, Foreground →
 *   `foregroundDeletion`; the garbage collector acts on them.
 *
 * @module
 */
import type { KubeObject, ObjectMeta } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { formatTime } from './metadata.js';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

export type DeletionPlan =
  | { readonly action: 'remove' }
  | { readonly action: 'mark'; readonly next: KubeObject }
  | { readonly action: 'none' };

/** Decides what a DELETE with `options` does to `obj` at time `now` (ms). */
export function planDeletion(
  def: ResourceDefinition,
  obj: KubeObject,
  options: DeleteOptions,
  now: number,
): DeletionPlan {
  const meta = obj.metadata ?? {};
  const finalizers = gcFinalizers(meta.finalizers ?? [], options);
  const grace = isPod(def) ? podGracePeriod(obj, options) : 0;
  const deleting = meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
  const finalizersChanged = !sameList(finalizers, meta.finalizers ?? []);

  if (deleting) {
    const next = structuredClone(obj);
    const nextMeta = next.metadata as ObjectMeta;
    let changed = finalizersChanged;
    setFinalizers(nextMeta, finalizers);
    if (isPod(def) && shortenGrace(nextMeta, grace, now)) changed = true;
    if (finalizers.length === 0 && grace === 0 && !holdsNamespace(def, obj)) {
      return { action: 'remove' };
    }
    return changed ? { action: 'mark', next } : { action: 'none' };
  }

  if (finalizers.length === 0 && grace === 0 && !holdsNamespace(def, obj)) {
    return { action: 'remove' };
  }
  const next = structuredClone(obj);
  const nextMeta = next.metadata as ObjectMeta;
  setFinalizers(nextMeta, finalizers);
  nextMeta.deletionTimestamp = formatTime(now + grace * 1000);
  nextMeta.deletionGracePeriodSeconds = grace;
  if (def.generation !== 'none') nextMeta.generation = (nextMeta.generation ?? 1) + 1;
  if (isNamespace(def)) {
    next.status = { ...(next.status as object | undefined), phase: 'Terminating' };
  }
  return { action: 'mark', next };
}

/** Adds or removes the GC finalizers the propagation policy asks for. */
function gcFinalizers(current: readonly string[], options: DeleteOptions): string[] {
  let policy = options.propagationPolicy;
  if (policy === undefined && options.orphanDependents !== undefined) {
    policy = options.orphanDependents ? 'Orphan' : 'Background';
  }
  const rest = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  switch (policy) {
    case 'Orphan':
      return [...rest, ORPHAN_FINALIZER];
    case 'Foreground':
      return [...rest, FOREGROUND_FINALIZER];
    case 'Background':
      return rest;
    default:
      // No policy: the finalizers already on the object decide (upstream keeps them).
      return [...current];
  }
}

/**
 * A pod's grace period: the request's, else `spec.terminationGracePeriodSeconds` (default 30);
 * 0 when the pod never reached a node or already finished (nothing to stop). Negative → 1.
 */
export function podGracePeriod(pod: KubeObject, options: DeleteOptions): number {
  const spec = (pod.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const status = (pod.status ?? {}) as { phase?: string };
  let grace = options.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
  if (!spec.nodeName || status.phase === 'Succeeded' || status.phase === 'Failed') grace = 0;
  if (grace < 0) grace = 1;
  return grace;
}

/** A later delete may only shorten a pod's grace period. Returns whether it did. */
function shortenGrace(meta: ObjectMeta, grace: number, now: number): boolean {
  const current = meta.deletionGracePeriodSeconds ?? 0;
  if (grace >= current) return false;
  meta.deletionGracePeriodSeconds = grace;
  meta.deletionTimestamp = formatTime(now + grace * 1000);
  return true;
}

function setFinalizers(meta: ObjectMeta, finalizers: string[]): void {
  if (finalizers.length === 0) delete meta.finalizers;
  else meta.finalizers = finalizers;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function isPod(def: ResourceDefinition): boolean {
  return def.group === '' && def.plural === 'pods';
}

function isNamespace(def: ResourceDefinition): boolean {
  return def.group === '' && def.plural === 'namespaces';
}

/** A namespace with `spec.finalizers` waits for the namespace controller to empty it. */
function holdsNamespace(def: ResourceDefinition, obj: KubeObject): boolean {
  if (!isNamespace(def)) return false;
  const spec = obj.spec as { finalizers?: unknown[] } | undefined;
  return (spec?.finalizers ?? []).length > 0;
}
