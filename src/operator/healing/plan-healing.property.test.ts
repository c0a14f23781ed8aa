/**
 * fast-check properties of the healing planner over random member states (pods ready, down,
 * terminating, pending, foreign or missing; claims Bound, Pending, Lost or deleting; nodes up
 * or down; image waits; missing preconditions): one member per action, nothing fresh while two
 * are down unless a volume is Lost, a Lost claim never waits for a member the scheduler has
 * decided (bound or Unschedulable), every delete fenced by the observed uid and resourceVersion,
 * and the requeue time is exactly the next time the decision (or the member table) changes.
 */

import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import { planHealing } from './plan-healing.js';
import { claim, input, MIN, node, pod, SEC, T0 } from './testing/fixtures.js';
import type { HealingInput, HealingPlan, MemberObservation } from './types.js';

const offset = fc.integer({ min: -40 * 60, max: 10 * 60 }).map((s) => T0 + s * SEC);

interface Raw {
  podState: string;
  since: number;
  createdAt: number;
  deletionAt: number;
  waiting: string | undefined;
  unschedulableSince: number | undefined;
  claimState: string;
  claimDeleting: boolean;
  claimCreatedAt: number;
  nodeReady: boolean;
  dropRv: boolean;
}

function rawPod(ordinal: number, r: Raw): KubeObject {
  const p = pod(ordinal, {
    ready: r.podState === 'ready',
    since: r.since,
    createdAt: r.createdAt,
    ...(r.podState === 'terminating' ? { deletionAt: r.deletionAt } : {}),
    ...(r.podState === 'pending'
      ? { nodeName: null, unschedulableSince: r.unschedulableSince }
      : {}),
    ...(r.podState === 'foreign' ? { owner: 'someone-else' } : {}),
    ...(r.waiting === undefined ? {} : { waitingReason: r.waiting }),
  });
  if (r.dropRv && p.metadata) delete p.metadata.resourceVersion;
  return p;
}

function toMember(ordinal: number, r: Raw): MemberObservation {
  const m: MemberObservation = { ordinal };
  if (r.podState !== 'none') {
    m.pod = rawPod(ordinal, r);
    if (r.podState !== 'pending')
      m.node = node(ordinal, { ready: r.nodeReady, notReadySince: r.since });
  }
  if (r.claimState !== 'none') {
    m.claim = claim(ordinal, {
      phase: r.claimState,
      createdAt: r.claimCreatedAt,
      ...(r.claimDeleting ? { deletionAt: r.deletionAt } : {}),
    });
  }
  return m;
}

const memberArb = (ordinal: number): fc.Arbitrary<MemberObservation> =>
  fc
    .record({
      podState: fc.constantFrom('none', 'ready', 'notReady', 'terminating', 'pending', 'foreign'),
      since: offset,
      createdAt: offset,
      deletionAt: offset,
      waiting: fc.constantFrom(
        undefined,
        'ImagePullBackOff',
        'CrashLoopBackOff',
        'CreateContainerConfigError',
      ),
      unschedulableSince: fc.option(offset, { nil: undefined }),
      claimState: fc.constantFrom('none', 'Bound', 'Bound', 'Lost', 'Pending'),
      claimDeleting: fc.boolean(),
      claimCreatedAt: offset,
      nodeReady: fc.boolean(),
      dropRv: fc.boolean(),
    })
    .map((r) => toMember(ordinal, r));

const inputArb: fc.Arbitrary<HealingInput> = fc
  .record({
    replicas: fc.integer({ min: 1, max: 5 }),
    extra: fc.integer({ min: 0, max: 1 }),
    settled: fc.boolean(),
    delayMin: fc.integer({ min: 0, max: 15 }),
  })
  .chain(({ replicas, extra, settled, delayMin }) =>
    fc
      .tuple(...Array.from({ length: replicas + extra }, (_, i) => memberArb(i)))
      .map((members) => input(members, { replicas, settled, delayMs: delayMin * MIN })),
  );

// The member table counts: a note that changes by the clock alone must wake the reconcile too.
const decision = (p: HealingPlan): string => JSON.stringify([p.action, p.blocked, p.memberStatus]);
const at = (i: HealingInput, now: number): HealingInput => ({ ...i, now });

/** Down as the planner defines it, recomputed independently from the raw objects. */
function downCount(i: HealingInput): number {
  return i.members.filter((m) => {
    if (m.ordinal >= i.settings.replicas) return false;
    const p = m.pod;
    if (
      p === undefined ||
      p.metadata?.ownerReferences?.[0]?.uid !== i.workloadUid ||
      p.metadata?.deletionTimestamp
    )
      return true;
    const conds =
      (p.status as { conditions?: { type: string; status: string }[] }).conditions ?? [];
    const nodeUp = m.node === undefined || (m.node.exists && m.node.ready);
    return !(conds.some((c) => c.type === 'Ready' && c.status === 'True') && nodeUp);
  }).length;
}

const hasLostClaim = (i: HealingInput): boolean =>
  i.members.some(
    (m) =>
      m.ordinal < i.settings.replicas &&
      (m.claim?.status as { phase?: string } | undefined)?.phase === 'Lost',
  );

it('every action touches one member, and every delete carries the observed uid and resourceVersion', () => {
  fc.assert(
    fc.property(inputArb, (i) => {
      const a = planHealing(i).action;
      if (a === undefined) return;
      assert.ok(a.deletes.length >= 1 && a.deletes.length <= 2);
      const m = i.members.find((x) => x.ordinal === a.ordinal);
      for (const d of a.deletes) {
        const obj = d.kind === 'Pod' ? m?.pod : m?.claim;
        assert.ok(d.uid !== '' && d.resourceVersion !== '');
        assert.equal(d.uid, obj?.metadata?.uid);
        assert.equal(d.resourceVersion, obj?.metadata?.resourceVersion);
      }
    }),
    { numRuns: 500 },
  );
});

it('while two are down, no disk is deleted and no fresh disk is made unless a volume is Lost', () => {
  fc.assert(
    fc.property(inputArb, (i) => {
      if (downCount(i) < 2 || hasLostClaim(i)) return;
      const a = planHealing(i).action;
      // Allowed: a force-delete keeps the disk; releaseDisk finishes a claim deletion already committed.
      assert.ok(
        a === undefined || a.kind === 'forceDeletePod' || a.kind === 'releaseDisk',
        a?.kind,
      );
      assert.ok(!a?.deletes.some((d) => d.kind === 'PersistentVolumeClaim'));
    }),
    { numRuns: 500 },
  );
});

/** Go `scheduleDecided`, recomputed from the raw pod: ours, not terminating, bound or Unschedulable. */
function decided(i: HealingInput, m: MemberObservation | undefined): boolean {
  const p = m?.pod;
  if (p === undefined || p.metadata?.ownerReferences?.[0]?.uid !== i.workloadUid) return false;
  if (p.metadata?.deletionTimestamp) return false;
  if ((p.spec as { nodeName?: string }).nodeName) return true;
  const conds =
    (p.status as { conditions?: { type: string; status: string; reason?: string }[] }).conditions ??
    [];
  return conds.some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
}

/** The member's own deletes can be fenced: its claim has both preconditions and so has its pod, if it deletes one. */
function fenceable(i: HealingInput, m: MemberObservation): boolean {
  const p = m.pod;
  const ours = p !== undefined && p.metadata?.ownerReferences?.[0]?.uid === i.workloadUid;
  return !ours || Boolean(p.metadata?.deletionTimestamp) || Boolean(p.metadata?.resourceVersion);
}

it('a Lost claim is acted on once the scheduler has decided every other member (Unschedulable counts)', () => {
  fc.assert(
    fc.property(inputArb, (i) => {
      if (!i.workloadSettled) return;
      const active = i.members.filter((m) => m.ordinal < i.settings.replicas);
      const lost = active.find(
        (m) =>
          (m.claim?.status as { phase?: string } | undefined)?.phase === 'Lost' &&
          !m.claim?.metadata?.deletionTimestamp &&
          fenceable(i, m),
      );
      if (lost === undefined) return;
      const others = Array.from({ length: i.settings.replicas }, (_, o) => o).filter(
        (o) => o !== lost.ordinal,
      );
      if (
        !others.every((o) =>
          decided(
            i,
            i.members.find((m) => m.ordinal === o),
          ),
        )
      )
        return;
      // The Lost rule, or an earlier rule (a force-delete, a release), acts in this reconcile.
      assert.ok(planHealing(i).action !== undefined, 'a decided fleet held back a Lost member');
    }),
    { numRuns: 2000 },
  );
});

it('the requeue time is in the future, nothing changes before it, and the decision changes at it', () => {
  fc.assert(
    fc.property(inputArb, (i) => {
      const plan = planHealing(i);
      if (plan.requeueAfterMs === undefined) {
        // Nothing due: an hour later decides the same.
        assert.equal(decision(planHealing(at(i, i.now + 60 * MIN))), decision(plan));
        return;
      }
      assert.ok(plan.requeueAfterMs > 0);
      const due = i.now + plan.requeueAfterMs;
      assert.equal(
        decision(planHealing(at(i, due - 1))),
        decision(plan),
        'same decision just before',
      );
      assert.notEqual(
        decision(planHealing(at(i, due))),
        decision(plan),
        'decision changes at the due time',
      );
    }),
    { numRuns: 500 },
  );
});

it('the plan is deterministic and never mutates its input', () => {
  fc.assert(
    fc.property(inputArb, (i) => {
      const before = JSON.stringify(i);
      assert.deepEqual(planHealing(i), planHealing(i));
      assert.equal(JSON.stringify(i), before);
    }),
    { numRuns: 200 },
  );
});
