/**
 * Table tests for `planScale`: contraction (one step, highest ordinal, after the roll-out),
 * growth in kept/fresh runs gated on the spec being observed and the scheduler's decisions
 * (issue #79), and the foreign-claim block (`StorageIdentityConflict`).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextRun, planScale, rolledOut } from './plan.js';
import type { ClaimFacts, PodPlacement, ScaleInput, StatefulSetFacts } from './types.js';

/** A set of `n` replicas that has fully rolled out. */
function settled(n: number, over: Partial<StatefulSetFacts> = {}): StatefulSetFacts {
  return {
    specReplicas: n,
    generation: 4,
    observedGeneration: 4,
    replicas: n,
    readyReplicas: n,
    updatedReplicas: n,
    currentRevision: 'web-7f',
    updateRevision: 'web-7f',
    ...over,
  };
}
const ours = (...ordinals: number[]): ClaimFacts[] =>
  ordinals.map((ordinal) => ({ ordinal, ours: true, terminating: false }));
const placed = (n: number, over: Record<number, PodPlacement> = {}) =>
  new Map<number, PodPlacement>(
    Array.from({ length: n }, (_, i) => [i, over[i] ?? ('scheduled' as PodPlacement)]),
  );

function input(over: Partial<ScaleInput> & { set: StatefulSetFacts }): ScaleInput {
  const n = over.set.specReplicas;
  return {
    setName: 'web',
    desired: n,
    templateConverged: true,
    claims: ours(...Array.from({ length: n }, (_, i) => i)),
    placements: placed(n),
    ...over,
  };
}

describe('planScale: contraction', () => {
  const cases: Array<{ name: string; in: ScaleInput; replicas?: number; wait?: string }> = [
    { name: 'at the target: nothing', in: input({ set: settled(3) }) },
    {
      name: 'one member lower: removes the highest ordinal',
      in: input({ set: settled(5), desired: 4 }),
      replicas: 4,
    },
    {
      name: 'three lower: still exactly one step (5 → 4)',
      in: input({ set: settled(5), desired: 2 }),
      replicas: 4,
    },
    {
      name: 'down to zero from one',
      in: input({ set: settled(1), desired: 0 }),
      replicas: 0,
    },
    {
      name: 'the previous removal still has a pod (status.replicas 5 > spec 4): waits',
      in: input({ set: settled(4, { replicas: 5 }), desired: 2 }),
      wait: 'RolloutPending',
    },
    {
      name: 'a member not Ready: waits',
      in: input({ set: settled(5, { readyReplicas: 4 }), desired: 4 }),
      wait: 'RolloutPending',
    },
    {
      name: 'a roll in progress (revisions differ): waits',
      in: input({ set: settled(5, { updateRevision: 'web-80' }), desired: 4 }),
      wait: 'RolloutPending',
    },
    {
      name: 'not all members updated: waits',
      in: input({ set: settled(5, { updatedReplicas: 3 }), desired: 4 }),
      wait: 'RolloutPending',
    },
    {
      name: 'spec not observed (generation 5, observed 4): waits',
      in: input({ set: settled(5, { generation: 5 }), desired: 4 }),
      wait: 'RolloutPending',
    },
    {
      name: 'never observed: waits',
      in: input({ set: settled(5, { observedGeneration: undefined }), desired: 4 }),
      wait: 'RolloutPending',
    },
    {
      name: 'the template is not converged yet: waits for that roll first',
      in: input({ set: settled(5), desired: 4, templateConverged: false }),
      wait: 'RolloutPending',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planScale(c.in);
      assert.equal(plan.replicas, c.replicas);
      assert.equal(plan.wait?.reason, c.wait);
      assert.equal(plan.block, undefined);
      if (c.wait) {
        assert.equal(
          plan.wait?.message,
          'Waiting for the previous change to roll out before removing a member',
        );
      }
    });
  }

  it('never names a claim: contraction keeps every claim', () => {
    const plan = planScale(input({ set: settled(5), desired: 4 }));
    assert.deepEqual(Object.keys(plan).sort(), ['action', 'replicas']);
  });
});

describe('planScale: growth in runs (issue #79)', () => {
  const cases: Array<{
    name: string;
    in: ScaleInput;
    replicas?: number;
    run?: string;
    wait?: string;
    message?: string;
  }> = [
    {
      name: 'all fresh, every member placed: one run to the target',
      in: input({ set: settled(3), desired: 5 }),
      replicas: 5,
      run: 'fresh 3..4',
    },
    {
      name: 'all kept (scale-in then growth back): one run, claims reattached',
      in: input({ set: settled(3), desired: 5, claims: ours(0, 1, 2, 3, 4) }),
      replicas: 5,
      run: 'kept 3..4',
    },
    {
      name: 'kept then fresh: stops at the end of the kept run',
      in: input({ set: settled(3), desired: 6, claims: ours(0, 1, 2, 3, 4) }),
      replicas: 5,
      run: 'kept 3..4',
    },
    {
      name: 'fresh then kept: stops at the end of the fresh run',
      in: input({ set: settled(2), desired: 5, claims: ours(0, 1, 4) }),
      replicas: 4,
      run: 'fresh 2..3',
    },
    {
      name: 'full-stop return from 0: all kept in one run, nobody to wait for',
      in: input({ set: settled(0), desired: 3, claims: ours(0, 1, 2), placements: new Map() }),
      replicas: 3,
      run: 'kept 0..2',
    },
    {
      name: 'a terminating claim of ours is no kept disk: the member needs a fresh one',
      in: input({
        set: settled(3),
        desired: 5,
        claims: [...ours(0, 1, 2, 4), { ordinal: 3, ours: true, terminating: true }],
      }),
      replicas: 4,
      run: 'fresh 3..3',
    },
    {
      name: 'fresh run while member 1 awaits the scheduler: waits (the #79 zone rule)',
      in: input({ set: settled(3), desired: 5, placements: placed(3, { 1: 'awaiting' }) }),
      run: 'fresh 3..4',
      wait: 'SchedulerPending',
      message:
        'Waiting for the scheduler to place member web-1, or find no node for it, before adding members web-3 to web-4 on fresh disks',
    },
    {
      name: 'a member whose pod does not exist yet is not decided: waits',
      in: input({ set: settled(3), desired: 4, placements: placed(2) }),
      run: 'fresh 3..3',
      wait: 'SchedulerPending',
      message:
        'Waiting for the scheduler to place member web-2, or find no node for it, before adding member web-3 on fresh disks',
    },
    {
      name: 'a member found Unschedulable does not hold growth back',
      in: input({ set: settled(3), desired: 4, placements: placed(3, { 0: 'unschedulable' }) }),
      replicas: 4,
      run: 'fresh 3..3',
    },
    {
      name: 'a kept run also waits for the scheduler (each run waits, §2.5)',
      in: input({
        set: settled(3),
        desired: 4,
        claims: ours(0, 1, 2, 3),
        placements: placed(3, { 2: 'awaiting' }),
      }),
      run: 'kept 3..3',
      wait: 'SchedulerPending',
      message:
        'Waiting for the scheduler to place member web-2, or find no node for it, before adding member web-3 on their kept disks',
    },
    {
      name: 'spec not observed yet: waits before anything else',
      in: input({ set: settled(3, { generation: 5 }), desired: 5 }),
      run: 'fresh 3..4',
      wait: 'SpecNotObserved',
      message:
        'Waiting for the StatefulSet to observe its spec before adding members web-3 to web-4',
    },
    {
      name: 'growth does not wait for readiness or a roll-out (only for scheduling)',
      in: input({
        set: settled(3, { readyReplicas: 1, updateRevision: 'web-80' }),
        desired: 4,
      }),
      replicas: 4,
      run: 'fresh 3..3',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planScale(c.in);
      assert.equal(plan.action, 'grow');
      assert.equal(plan.replicas, c.replicas);
      assert.equal(plan.run && `${plan.run.disks} ${plan.run.from}..${plan.run.to}`, c.run);
      assert.equal(plan.wait?.reason, c.wait);
      if (c.message) assert.equal(plan.wait?.message, c.message);
      assert.equal(plan.block, undefined);
    });
  }
});

describe('planScale: a foreign claim at a member name blocks growth', () => {
  const foreign = (ordinal: number): ClaimFacts => ({ ordinal, ours: false, terminating: false });
  const cases: Array<{ name: string; claims: ClaimFacts[]; desired: number; block?: number[] }> = [
    { name: 'in the new run', claims: [...ours(0, 1, 2), foreign(3)], desired: 5, block: [3] },
    {
      name: 'beyond the first run: still blocks all growth',
      claims: [...ours(0, 1, 2, 3), foreign(5)],
      desired: 6,
      block: [5],
    },
    {
      name: 'below the current count (a swapped disk): blocks',
      claims: [...ours(0, 2), foreign(1)],
      desired: 4,
      block: [1],
    },
    {
      name: 'beside one of ours at the same name (stale facts): still foreign',
      claims: [...ours(0, 1, 2, 3), foreign(3)],
      desired: 4,
      block: [3],
    },
    {
      name: 'past the target: not our business yet',
      claims: [...ours(0, 1, 2), foreign(4)],
      desired: 4,
    },
    {
      name: 'a terminating foreign claim still blocks',
      claims: [...ours(0, 1, 2), { ordinal: 3, ours: false, terminating: true }],
      desired: 4,
      block: [3],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planScale(input({ set: settled(3), desired: c.desired, claims: c.claims }));
      assert.deepEqual(plan.block?.ordinals, c.block);
      if (c.block) {
        assert.equal(plan.block?.reason, 'StorageIdentityConflict');
        assert.equal(plan.replicas, undefined);
        assert.match(plan.block?.message ?? '', /^Claim data-web-\d/);
      } else {
        assert.notEqual(plan.replicas, undefined);
      }
    });
  }

  it('a foreign claim does not stop a contraction', () => {
    const plan = planScale(input({ set: settled(5), desired: 4, claims: [foreign(2)] }));
    assert.equal(plan.replicas, 4);
  });
});

describe('rolledOut and nextRun', () => {
  it('rolledOut needs an update revision', () => {
    assert.equal(rolledOut(settled(3)), true);
    assert.equal(
      rolledOut(settled(3, { currentRevision: undefined, updateRevision: undefined })),
      false,
    );
  });
  it('nextRun never passes the target', () => {
    assert.deepEqual(nextRun(ours(0, 1, 2, 3, 4, 5), 1, 3), { from: 1, to: 2, disks: 'kept' });
    assert.deepEqual(nextRun([], 0, 1), { from: 0, to: 0, disks: 'fresh' });
  });
});
