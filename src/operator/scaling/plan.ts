/**
 * `planScale`: the next StatefulSet `spec.replicas` for a PersistentFleet, after the Go
 * operator's `contraction` and `growth` (`persistent.go`; spec §2.2 steps 13.7–13.9, §2.5).
 *
 * Contraction removes one member per step, the highest ordinal (the StatefulSet removes from the
 * top), and only once the previous change has rolled out, so a removal never overlaps a roll and
 * at most one member is ever leaving. The removed member's claim is kept (retention Retain): this
 * planner never names a claim to delete.
 *
 * Growth adds members in runs (issue #79). A reattached kept disk pins its pod to the disk's zone;
 * a fresh WaitForFirstConsumer disk is provisioned wherever its pod lands. The StatefulSet is
 * Parallel and creates every new pod at once, so with a 3-zone Strict spread (maxSkew 1) a fresh
 * pod could take the last slot in zone a that a kept disk in zone a needs, and that member would
 * stay Pending forever. So one write adds only a run of consecutive ordinals whose disks are all
 * kept or all fresh, and every run first waits for the StatefulSet to observe its spec and for the
 * scheduler to decide every current member (placed, or `Unschedulable`). Runs are re-derived from
 * the claims on each reconcile, so nothing is recorded between steps.
 *
 * @module
 */
import type { ClaimFacts, GrowthRun, ScaleInput, ScalePlan, StatefulSetFacts } from './types.js';

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
  const { setName, set, desired } = input;
  const applied = set.specReplicas;
  const foreign = foreignOrdinals(input.claims, desired);
  if (foreign.length > 0) return { action: 'grow', block: identityConflict(setName, foreign) };

  const run = nextRun(input.claims, applied, desired);
  const members = describeMembers(setName, run);
  if (set.observedGeneration === undefined || set.observedGeneration < set.generation) {
    const message = `Waiting for the StatefulSet to observe its spec before adding ${members}`;
    return { action: 'grow', run, wait: { reason: 'SpecNotObserved', message } };
  }
  const undecided = firstUndecided(input, applied);
  if (undecided !== undefined) {
    const disks = run.disks === 'fresh' ? 'on fresh disks' : 'on their kept disks';
    const pod = memberPodName(setName, undecided);
    const message = `Waiting for the scheduler to place member ${pod}, or find no node for it, before adding ${members} ${disks}`;
    return { action: 'grow', run, wait: { reason: 'SchedulerPending', message } };
  }
  return { action: 'grow', run, replicas: run.to + 1 };
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

/** A kept disk: a claim of ours that is not being deleted (a terminating one cannot be reused). */
function keptOrdinals(claims: readonly ClaimFacts[]): Set<number> {
  return new Set(claims.filter((c) => c.ours && !c.terminating).map((c) => c.ordinal));
}

/** The run starting at `applied`: extend while the next ordinal's disk is of the same kind. */
export function nextRun(
  claims: readonly ClaimFacts[],
  applied: number,
  desired: number,
): GrowthRun {
  const kept = keptOrdinals(claims);
  const disks = kept.has(applied) ? 'kept' : 'fresh';
  let to = applied;
  while (to + 1 < desired && kept.has(to + 1) === (disks === 'kept')) to++;
  return { from: applied, to, disks };
}

/** The lowest current member the scheduler has not decided yet (absent or awaiting). */
function firstUndecided(input: ScaleInput, applied: number): number | undefined {
  for (let ordinal = 0; ordinal < applied; ordinal++) {
    const placement = input.placements.get(ordinal) ?? 'absent';
    if (placement === 'absent' || placement === 'awaiting') return ordinal;
  }
  return undefined;
}

function describeMembers(setName: string, run: GrowthRun): string {
  const from = memberPodName(setName, run.from);
  return run.from === run.to
    ? `member ${from}`
    : `members ${from} to ${memberPodName(setName, run.to)}`;
}
