/**
 * Table tests for `planScale`: contraction (one step, highest ordinal, after the roll-out),
 * growth in one write whatever mix of kept and fresh disks it brings (their scheduling order is
 * `planRelease`'s), and the foreign-claim block (`StorageIdentityConflict`).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planScale, rolledOut } from './plan.js';
import type { ClaimFacts, ScaleInput, StatefulSetFacts } from './types.js';

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

function input(over: Partial<ScaleInput> & { set: StatefulSetFacts }): ScaleInput {
  const n = over.set.specReplicas;
  return {
    setName: 'web',
    desired: n,
    templateConverged: true,
    claims: ours(...Array.from({ length: n }, (_, i) => i)),
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

describe('planScale: growth in one write', () => {
  const cases: Array<{ name: string; in: ScaleInput; replicas: number }> = [
    { name: 'all fresh', in: input({ set: settled(3), desired: 5 }), replicas: 5 },
    {
      name: 'all kept (scale-in then growth back): claims reattached',
      in: input({ set: settled(3), desired: 5, claims: ours(0, 1, 2, 3, 4) }),
      replicas: 5,
    },
    {
      name: 'kept then fresh: one write (the release order is planRelease’s)',
      in: input({ set: settled(3), desired: 6, claims: ours(0, 1, 2, 3, 4) }),
      replicas: 6,
    },
    {
      name: 'fresh below kept (claim 3 deleted by hand, 4 kept): one write, so the pod of the kept disk exists before the fresh member is released',
      in: input({ set: settled(3), desired: 6, claims: ours(0, 1, 2, 4) }),
      replicas: 6,
    },
    {
      name: 'full-stop return from 0',
      in: input({ set: settled(0), desired: 3, claims: ours(0, 1, 2) }),
      replicas: 3,
    },
    {
      name: 'does not wait for readiness, a roll-out or the spec being observed',
      in: input({
        set: settled(3, { readyReplicas: 1, updateRevision: 'web-80', generation: 9 }),
        desired: 4,
      }),
      replicas: 4,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planScale(c.in);
      assert.deepEqual(plan, { action: 'grow', replicas: c.replicas });
    });
  }
});

describe('planScale: a foreign claim at a member name blocks growth', () => {
  const foreign = (ordinal: number): ClaimFacts => ({ ordinal, ours: false, terminating: false });
  const cases: Array<{ name: string; claims: ClaimFacts[]; desired: number; block?: number[] }> = [
    {
      name: 'at the first new ordinal',
      claims: [...ours(0, 1, 2), foreign(3)],
      desired: 5,
      block: [3],
    },
    {
      name: 'further up the new range: still blocks all growth',
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

describe('rolledOut', () => {
  it('needs an update revision', () => {
    assert.equal(rolledOut(settled(3)), true);
    assert.equal(
      rolledOut(settled(3, { currentRevision: undefined, updateRevision: undefined })),
      false,
    );
  });
});
