/**
 * Table tests for `planRelease`: kept disks first, fresh disks after them (all at once when
 * nothing is left to guard, else one at a time), node reservations for node-local kept disks,
 * zone exclusions only when capacity demands them, the spread-domain guard, Relaxed placement,
 * and the wait messages.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planRelease } from './release.js';
import type { ClaimFacts, MemberPodFacts, NodeFacts, ReleaseInput, ReleasePlan } from './types.js';

/** Nodes `a0 a1 b0 b1 c0 c1`: two per zone, all eligible. */
const NODES: NodeFacts[] = ['a', 'b', 'c'].flatMap((z) =>
  [0, 1].map((i) => ({ name: `${z}${i}`, zone: z, eligible: true })),
);

const on = (ordinal: number, node: string): MemberPodFacts => ({
  ordinal,
  gated: false,
  terminating: false,
  placement: 'scheduled',
  node,
});
const gated = (ordinal: number): MemberPodFacts => ({
  ordinal,
  gated: true,
  terminating: false,
  placement: 'awaiting',
});
const unschedulable = (ordinal: number): MemberPodFacts => ({
  ordinal,
  gated: false,
  terminating: false,
  placement: 'unschedulable',
});
const disk = (ordinal: number, node: string): ClaimFacts => ({
  ordinal,
  ours: true,
  terminating: false,
  bound: true,
  node,
});
const pending = (ordinal: number): ClaimFacts => ({
  ordinal,
  ours: true,
  terminating: false,
  bound: false,
});

function input(over: Partial<ReleaseInput>): ReleaseInput {
  return {
    setName: 'web',
    replicas: 6,
    mode: 'Strict',
    diskScope: 'node',
    zones: ['a', 'b', 'c'],
    members: [],
    claims: [],
    nodes: NODES,
    ...over,
  };
}

/** Members 0, 1, 2 placed on a0, b0, c0 with their disks there. */
const BASE = {
  members: [on(0, 'a0'), on(1, 'b0'), on(2, 'c0')],
  claims: [disk(0, 'a0'), disk(1, 'b0'), disk(2, 'c0')],
};

interface Case {
  name: string;
  in: ReleaseInput;
  releases: Array<[number, string[]]>;
  wait?: string;
  message?: string;
}

const cases: Case[] = [
  {
    name: 'a new fleet: nothing to guard, every member goes at once',
    in: input({ replicas: 3, members: [gated(0), gated(1), gated(2)], claims: [] }),
    releases: [
      [0, []],
      [1, []],
      [2, []],
    ],
  },
  {
    name: 'the issue: claim 3 deleted, 4 kept on a1, growth to 6: only the kept member goes first',
    in: input({
      members: [...BASE.members, gated(3), gated(4), gated(5)],
      claims: [...BASE.claims, pending(3), disk(4, 'a1'), pending(5)],
    }),
    releases: [[4, []]],
    wait: 'SchedulerPending',
    message:
      'Waiting for the scheduler to place member web-4 on its kept disk, or find no node for it, before member web-3 starts on a fresh disk',
  },
  {
    name: 'then, member 4 on its node: the fresh members go, with nothing left to take',
    in: input({
      members: [...BASE.members, gated(3), on(4, 'a1'), gated(5)],
      claims: [...BASE.claims, pending(3), disk(4, 'a1'), pending(5)],
    }),
    releases: [
      [3, []],
      [5, []],
    ],
  },
  {
    name: 'a kept member found Unschedulable does not hold the fresh one, which keeps off its node',
    in: input({
      members: [...BASE.members, gated(3), unschedulable(4), gated(5)],
      claims: [...BASE.claims, pending(3), disk(4, 'a1'), pending(5)],
    }),
    releases: [[3, ['a1']]],
  },
  {
    name: 'a removed member’s node-local disk keeps its node reserved (growth to 4, disk 4 on a1)',
    in: input({
      replicas: 4,
      members: [...BASE.members, gated(3)],
      claims: [...BASE.claims, pending(3), disk(4, 'a1')],
    }),
    releases: [[3, ['a1']]],
  },
  {
    name: 'a reserved node that already holds another member is not listed (nothing to save)',
    in: input({
      replicas: 4,
      members: [on(0, 'a0'), on(1, 'b0'), on(2, 'a1'), gated(3)],
      claims: [disk(0, 'a0'), disk(1, 'b0'), disk(2, 'a1'), pending(3), disk(4, 'a1')],
    }),
    releases: [[3, []]],
  },
  {
    name: 'a removed member’s zonal disk reserves nothing: its zone is judged when it returns',
    in: input({
      diskScope: 'zone',
      replicas: 4,
      members: [...BASE.members, gated(3)],
      claims: [...BASE.claims, pending(3), disk(4, 'a1')],
    }),
    releases: [[3, []]],
  },
  {
    name: 'fresh members go one at a time while a kept disk needs guarding',
    in: input({
      replicas: 5,
      members: [...BASE.members, { ...gated(3), gated: false }, gated(4)],
      claims: [...BASE.claims, pending(3), pending(4), disk(5, 'a1')],
    }),
    releases: [],
    wait: 'SchedulerPending',
    message:
      'Waiting for the scheduler to place member web-3 on its fresh disk before member web-4 starts on one',
  },
  {
    name: 'zonal: the last free node of zone a is the room a kept member there needs',
    // Nodes a0 a1 b0 b1 c0 c1; members a0, b0, c0, b1, c1 (a is least filled); kept 5 for zone
    // a (Unschedulable: say a1 was short of CPU); fresh 6. a1 is the only room for member 5.
    in: input({
      diskScope: 'zone',
      replicas: 7,
      members: [...BASE.members, on(3, 'b1'), on(4, 'c1'), unschedulable(5), gated(6)],
      claims: [...BASE.claims, disk(3, 'b1'), disk(4, 'c1'), disk(5, 'a1'), pending(6)],
    }),
    releases: [],
    wait: 'PlacementHeld',
  },
  {
    name: 'zonal: room in zone a for the kept member and a fresh one, but the spread would then hold the kept one back',
    // a0 b0 c0 placed; kept 3 for a; one fresh member. In a (a2) the kept one would need b and
    // c at two members first, which no one is left to fill.
    in: input({
      diskScope: 'zone',
      replicas: 5,
      nodes: [...NODES, { name: 'a2', zone: 'a', eligible: true }],
      members: [...BASE.members, unschedulable(3), gated(4)],
      claims: [...BASE.claims, disk(3, 'a1'), pending(4)],
    }),
    releases: [[4, ['a1', 'a2']]],
  },
  {
    name: 'zonal: a zone may hold several members: with three fresh ones to come, a is allowed',
    in: input({
      diskScope: 'zone',
      replicas: 7,
      nodes: [...NODES, { name: 'a2', zone: 'a', eligible: true }],
      members: [...BASE.members, unschedulable(3), gated(4), gated(5), gated(6)],
      claims: [...BASE.claims, disk(3, 'a1'), pending(4), pending(5), pending(6)],
    }),
    releases: [[4, []]],
  },
  {
    name: 'zonal: excluding a full least-filled zone lists its free nodes',
    // a0 b0 c0 placed, kept 3 for zone b (Unschedulable), fresh 4 and 5; b has one free node:
    // the fresh member must not take it.
    in: input({
      diskScope: 'zone',
      replicas: 6,
      members: [...BASE.members, unschedulable(3), gated(4), gated(5)],
      claims: [...BASE.claims, disk(3, 'b1'), pending(4), pending(5)],
    }),
    releases: [[4, ['b1']]],
  },
  {
    name: 'Relaxed: kept members still go first, then every fresh one at once, unrestricted',
    in: input({
      mode: 'Relaxed',
      members: [...BASE.members, gated(3), unschedulable(4), gated(5)],
      claims: [...BASE.claims, pending(3), disk(4, 'a1'), pending(5)],
    }),
    releases: [
      [3, []],
      [5, []],
    ],
  },
  {
    name: 'a claim being deleted is no kept disk: its member waits like a fresh one',
    in: input({
      replicas: 4,
      members: [...BASE.members, gated(3)],
      claims: [...BASE.claims, { ...disk(3, 'a1'), terminating: true }],
    }),
    releases: [[3, []]],
  },
  {
    name: 'a kept member whose pod does not exist yet holds the fresh ones back',
    in: input({
      members: [...BASE.members, gated(3), gated(5)],
      claims: [...BASE.claims, pending(3), disk(4, 'a1'), pending(5)],
    }),
    releases: [],
    wait: 'SchedulerPending',
  },
  {
    name: 'a kept member whose pod is terminating holds fresh ones back until its successor is placed',
    in: input({
      replicas: 3,
      members: [on(0, 'a0'), { ...gated(1), terminating: true }, gated(2)],
      claims: [disk(0, 'a0'), disk(1, 'b0'), pending(2)],
    }),
    releases: [],
    wait: 'SchedulerPending',
  },
  {
    name: 'a fresh member above the target stays gated; a kept one there is released anyway',
    in: input({
      replicas: 3,
      members: [on(0, 'a0'), on(1, 'b0'), on(2, 'c0'), gated(3), gated(4)],
      claims: [...BASE.claims, disk(4, 'a1')],
    }),
    releases: [[4, []]],
  },
];

function summary(plan: ReleasePlan) {
  return plan.releases.map((r) => [r.ordinal, r.excludeNodes] as [number, string[]]);
}

describe('planRelease', () => {
  for (const c of cases) {
    it(c.name, () => {
      const plan = planRelease(c.in);
      assert.deepEqual(summary(plan), c.releases);
      assert.equal(plan.wait?.reason, c.wait);
      if (c.message) assert.equal(plan.wait?.message, c.message);
    });
  }

  it('a zone is never excluded by dropping all of its nodes (it would stop being a domain)', () => {
    // Zone b has no member yet and its one free node is the room kept member 3 needs.
    const plan = planRelease(
      input({
        diskScope: 'zone',
        replicas: 4,
        nodes: [
          { name: 'a0', zone: 'a', eligible: true },
          { name: 'a1', zone: 'a', eligible: true },
          { name: 'b0', zone: 'b', eligible: true },
          { name: 'c0', zone: 'c', eligible: true },
          { name: 'c1', zone: 'c', eligible: true },
        ],
        members: [on(0, 'a0'), on(1, 'c0'), unschedulable(3), gated(2)],
        claims: [disk(0, 'a0'), disk(1, 'c0'), disk(3, 'b0'), pending(2)],
      }),
    );
    assert.deepEqual(summary(plan), []);
    assert.equal(plan.wait?.reason, 'PlacementHeld');
    assert.equal(
      plan.wait?.message,
      'Holding member web-2 back from a fresh disk: every zone it could take now holds only the room that members on kept disks need',
    );
  });
});
