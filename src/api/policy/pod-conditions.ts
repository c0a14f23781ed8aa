/**
 * The pod facts the eviction subresource and the disruption controller both need: upstream
 * `podutil.IsPodReady`, `podutil.UpdatePodCondition`, and the `DisruptionTarget` condition an
 * eviction puts on a pod before deleting it. Pure; `now` is epoch ms.
 *
 * @module
 */

import { isJsonObject, type KubeObject } from '../object.js';
import { formatTime } from '../time.js';

type Json = Record<string, unknown>;

/** The pod condition set before a disruptive deletion (`v1.DisruptionTarget`). */
export const DISRUPTION_TARGET_CONDITION = 'DisruptionTarget';

/** A `v1.PodCondition` as it appears on the wire. */
export interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
  [extra: string]: unknown;
}

/** Reads a nested plain-object field (`spec`, `status`, …); absent or non-object → `{}`. */
export function field(obj: unknown, key: string): Json {
  if (!isJsonObject(obj)) return {};
  const v = obj[key];
  return isJsonObject(v) ? v : {};
}

/** Upstream `IsPodReady`: condition Ready has status "True" (the phase is not consulted). */
export function isPodReady(pod: KubeObject): boolean {
  const conditions = field(pod, 'status').conditions;
  if (!Array.isArray(conditions)) return false;
  const ready = conditions.find((c): c is Json => isJsonObject(c) && c.type === 'Ready');
  return ready?.status === 'True';
}

/** The condition the eviction subresource puts on a pod before deleting it. */
export function evictionDisruptionTarget(now: number): PodCondition {
  return {
    type: DISRUPTION_TARGET_CONDITION,
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: formatTime(now),
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
  };
}

/**
 * `podutil.UpdatePodCondition`: replaces or appends `condition` in a pod's conditions, keeping
 * the old transition time when the status did not change. Returns the new list and whether
 * anything changed (so a caller can skip a write that changes nothing).
 */
export function updatePodCondition(
  conditions: unknown,
  condition: PodCondition,
): { conditions: PodCondition[]; changed: boolean } {
  const list = (Array.isArray(conditions) ? conditions : []).filter(
    (c): c is PodCondition => isJsonObject(c) && typeof c.type === 'string',
  );
  const index = list.findIndex((c) => c.type === condition.type);
  const old = list[index];
  if (old === undefined) return { conditions: [...list, condition], changed: true };
  const next =
    old.status === condition.status
      ? { ...condition, lastTransitionTime: old.lastTransitionTime ?? null }
      : condition;
  const changed =
    old.status !== next.status ||
    (old.reason ?? '') !== (next.reason ?? '') ||
    (old.message ?? '') !== (next.message ?? '') ||
    (old.lastProbeTime ?? null) !== (next.lastProbeTime ?? null) ||
    (old.lastTransitionTime ?? null) !== (next.lastTransitionTime ?? null);
  const out = [...list];
  out[index] = next;
  return { conditions: out, changed };
}
