/**
 * Facts for `planScale` from Kubernetes objects: which claims named `data-<set>-<n>` exist and
 * whose they are, and where the scheduler stands on each member pod. Pure functions over the
 * objects a reconcile already holds in its caches.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { ClaimFacts, PodPlacement } from './types.js';

/** How the operator marks what it owns: a label carrying the fleet's UID (no owner references). */
export interface FleetOwnership {
  labelKey: string;
  fleetUid: string;
}

/** Ordinals as the StatefulSet writes them: decimal, no sign, no leading zero (`07` is no member). */
const ORDINAL = /^(0|[1-9][0-9]{0,8})$/;

/** The ordinal in `<prefix><ordinal>`, or undefined when the name is not of that shape. */
export function ordinalOf(name: string, prefix: string): number | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return ORDINAL.test(rest) ? Number(rest) : undefined;
}

/**
 * The claims among `claims` that sit at a member's name `data-<set>-<n>`. A claim is ours only if
 * it carries the fleet UID label and has no owner references: Go's rule (§2.7), under which the
 * operator never adopts an object it did not label, and a claim someone else owns is never
 * reused even if it carries our label.
 */
export function claimFacts(
  claims: readonly KubeObject[],
  setName: string,
  ownership: FleetOwnership,
): ClaimFacts[] {
  const prefix = `data-${setName}-`;
  const facts: ClaimFacts[] = [];
  for (const claim of claims) {
    const meta = claim.metadata ?? {};
    const ordinal = ordinalOf(meta.name ?? '', prefix);
    if (ordinal === undefined) continue;
    const labelled = meta.labels?.[ownership.labelKey] === ownership.fleetUid;
    const owned = (meta.ownerReferences ?? []).length > 0;
    facts.push({ ordinal, ours: labelled && !owned, terminating: Boolean(meta.deletionTimestamp) });
  }
  return facts;
}

interface PodCondition {
  type?: string;
  status?: string;
  reason?: string;
}

/**
 * Where the scheduler stands on a pod (Go `scheduleDecided`): a node means placed; a
 * `PodScheduled=False` condition with reason `Unschedulable` means the scheduler found no node,
 * which is also a decision. Anything else (no condition yet, or a `SchedulingGated` pod) is
 * still awaiting the scheduler.
 */
export function podPlacement(pod: KubeObject | undefined): PodPlacement {
  if (pod === undefined) return 'absent';
  const spec = (pod.spec ?? {}) as { nodeName?: string };
  if (spec.nodeName) return 'scheduled';
  const status = (pod.status ?? {}) as { conditions?: PodCondition[] };
  const scheduled = (status.conditions ?? []).find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') return 'unschedulable';
  return 'awaiting';
}

/**
 * Placement per ordinal for the pods named `<set>-<n>` among `pods`. With `setUid`, only pods
 * whose controller is that StatefulSet count (Go `memberPods`): a stray pod that merely has a
 * member's name must not make the scheduler look decided.
 */
export function memberPlacements(
  pods: readonly KubeObject[],
  setName: string,
  setUid?: string,
): Map<number, PodPlacement> {
  const placements = new Map<number, PodPlacement>();
  for (const pod of pods) {
    if (setUid !== undefined && controllerUid(pod) !== setUid) continue;
    const ordinal = ordinalOf(pod.metadata?.name ?? '', `${setName}-`);
    if (ordinal !== undefined) placements.set(ordinal, podPlacement(pod));
  }
  return placements;
}

function controllerUid(pod: KubeObject): string | undefined {
  return (pod.metadata?.ownerReferences ?? []).find((ref) => ref.controller === true)?.uid;
}
