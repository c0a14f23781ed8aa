/**
 * What a DELETE does to an object, as a pure plan (upstream `genericregistry.Store.Delete`,
 * `BeforeDelete`, `deletionFinalizersForGarbageCollection`, and the pod strategy's
 * `CheckGracefulDelete`).
 *
 * - No finalizers and no grace period: remove now.
 * - Otherwise mark: set `deletionTimestamp` (now, or now + grace for a pod), bump generation
 *   once, and keep the object until its finalizers are gone (or the kubelet removes the pod).
 * - Kind-specific parts come from the strategy: a pod's grace period, a namespace's
 *   `spec.finalizers` hold and its `Terminating` phase.
 * - `propagationPolicy` becomes finalizers: Orphan → `orphan`, Foreground →
 *   `foregroundDeletion`; the garbage collector acts on them.
 *
 * @module
 */
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../api/finalizers.js';
import type { KubeObject, ObjectMeta } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { formatTime } from '../../api/time.js';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** Every policy, in the order upstream lists them in its `NotSupported` error. */
export const PROPAGATION_POLICIES: readonly PropagationPolicy[] = [
  'Foreground',
  'Background',
  'Orphan',
];

export function isPropagationPolicy(v: unknown): v is PropagationPolicy {
  return PROPAGATION_POLICIES.some((p) => p === v);
}

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
  const { strategy } = def;
  const meta = obj.metadata ?? {};
  const finalizers = gcFinalizers(meta.finalizers ?? [], options);
  const grace = strategy.gracePeriodSeconds?.(obj, options.gracePeriodSeconds) ?? 0;
  const held = finalizers.length > 0 || grace > 0 || (strategy.holdsDeletion?.(obj) ?? false);
  const deleting = meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
  if (!held) return { action: 'remove' };

  const next = structuredClone(obj);
  // A stored object always has metadata; the copy's is the one to change.
  const nextMeta: ObjectMeta = next.metadata ?? {};
  next.metadata = nextMeta;
  setFinalizers(nextMeta, finalizers);
  if (deleting) {
    const shortened =
      strategy.gracePeriodSeconds !== undefined && shortenGrace(nextMeta, grace, now);
    const changed = shortened || !sameList(finalizers, meta.finalizers ?? []);
    return changed ? { action: 'mark', next } : { action: 'none' };
  }
  nextMeta.deletionTimestamp = formatTime(now + grace * 1000);
  nextMeta.deletionGracePeriodSeconds = grace;
  if (def.generation !== 'none') nextMeta.generation = (nextMeta.generation ?? 1) + 1;
  strategy.prepareForDeletion?.(next);
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

/** A later delete may only shorten a grace period. Returns whether it did. */
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
