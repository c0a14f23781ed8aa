/**
 * `planScale`: the next StatefulSet `spec.replicas` for a PersistentFleet, after the Go
 * operator's `contraction` and `growth` (`persistent.go`; docs/design/operator.md §5).
 *
 * Contraction removes one member per step, the highest ordinal (the StatefulSet removes from the
 * top), and only once the previous change has rolled out, so a removal never overlaps a roll and
 * at most one member is ever leaving. The removed member's claim is kept (retention Retain): this
 * planner never names a claim to delete.
 *
 * Growth writes the target in one step, unless a claim at a member name in the target range is
 * not this fleet's. Which new member may be scheduled when is not decided by the replica count
 * but by `planRelease` (`release.ts`): every member pod starts scheduling-gated, members on kept
 * disks are released first, and a member on a fresh disk only once they are placed, and kept out
 * of the places they need. The Go operator instead wrote one run of all-kept or all-fresh
 * ordinals at a time (issue #79); that cannot order a fresh ordinal below a kept one (the
 * StatefulSet creates the lower ordinal first), which is how a fresh member took the node a kept
 * disk needed (issue 14, item 8).
 *
 * @module
 */
import type { ClaimFacts, ScaleInput, ScalePlan, StatefulSetFacts } from './types.js';

/** Upstream StatefulSet claim name for the operator's `data` template: `data-<set>-<ordinal>`. */
export function memberClaimName(setName: string, ordinal: number): string {
  return `data-${setName}-${ordinal}`;
}

/** Pod name of a member: `<set>-<ordinal>`. */
export function memberPodName(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

/**
 * The previous change has rolled out (Go `rolledOut`): the controller observed the current
 * generation, every pod that exists is wanted (`status.replicas` = `spec.replicas`, so a removed
 * member's pod is gone), all are on the update revision and Ready, and the revisions agree.
 */
export function rolledOut(set: StatefulSetFacts): boolean {
  const n = set.specReplicas;
  return (
    set.observedGeneration !== undefined &&
    set.observedGeneration >= set.generation &&
    set.replicas === n &&
    set.updatedReplicas === n &&
    set.readyReplicas === n &&
    set.updateRevision !== undefined &&
    set.currentRevision === set.updateRevision
  );
}

/** The plan for one reconcile; see the module note for the rules. */
export function planScale(input: ScaleInput): ScalePlan {
  const applied = input.set.specReplicas;
  if (input.desired < applied) return planContraction(input);
  if (input.desired > applied) return planGrowth(input);
  return { action: 'none' };
}

function planContraction(input: ScaleInput): ScalePlan {
  if (!input.templateConverged || !rolledOut(input.set)) {
    return {
      action: 'contract',
      wait: {
        reason: 'RolloutPending',
        message: 'Waiting for the previous change to roll out before removing a member',
      },
    };
  }
  // Exactly one step, even when the target is several members lower: the next reconcile
  // removes the next member only after this one's pod is gone and the set is Ready again.
  return { action: 'contract', replicas: input.set.specReplicas - 1 };
}

function planGrowth(input: ScaleInput): ScalePlan {
  const foreign = foreignOrdinals(input.claims, input.desired);
  if (foreign.length > 0) {
    return { action: 'grow', block: identityConflict(input.setName, foreign) };
  }
  return { action: 'grow', replicas: input.desired };
}

/**
 * Ordinals in `[0, desired)` whose claim name is held by a claim that is not ours. The whole
 * target range is checked, as in Go: a foreign claim below the current count means a member's
 * disk was swapped by hand, and growing would only add members beside it.
 */
function foreignOrdinals(claims: readonly ClaimFacts[], desired: number): number[] {
  const found = claims.filter((c) => !c.ours && c.ordinal >= 0 && c.ordinal < desired);
  return [...new Set(found.map((c) => c.ordinal))].sort((a, b) => a - b);
}

function identityConflict(setName: string, ordinals: number[]) {
  const names = ordinals.map((n) => memberClaimName(setName, n)).join(', ');
  const message = `Claim ${names} at a member's name does not belong to this fleet; no member is added and no foreign disk is adopted until it is removed`;
  return { reason: 'StorageIdentityConflict' as const, message, ordinals };
}
