/**
 * fast-check properties of `planScale` over arbitrary sets and claims: bounds, one-step
 * contraction only after a roll-out, no growth into a foreign claim, growth in one write, and
 * convergence on a cluster that settles after every write. Where new members may be scheduled
 * is `planRelease`'s (its properties are in `release-property.test.ts`).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { planScale, rolledOut } from './plan.js';
import type { ScaleInput, StatefulSetFacts } from './types.js';

const MAX = 12;
const claimArb = fc.record({
  ordinal: fc.integer({ min: 0, max: MAX + 2 }),
  ours: fc.boolean(),
  terminating: fc.boolean(),
});

const inputArb: fc.Arbitrary<ScaleInput> = fc
  .record({
    applied: fc.integer({ min: 0, max: MAX }),
    desired: fc.integer({ min: 0, max: MAX }),
    generationLag: fc.constantFrom(0, 0, 1),
    missing: fc.constantFrom(0, 0, 1),
    unready: fc.constantFrom(0, 0, 1),
    rolling: fc.boolean(),
    templateConverged: fc.boolean(),
    claims: fc.array(claimArb, { maxLength: 16 }),
  })
  .map((r) => {
    const set: StatefulSetFacts = {
      specReplicas: r.applied,
      generation: 3 + r.generationLag,
      observedGeneration: 3,
      replicas: r.applied + r.missing,
      readyReplicas: Math.max(0, r.applied - r.unready),
      updatedReplicas: r.applied,
      currentRevision: 'a',
      updateRevision: r.rolling ? 'b' : 'a',
    };
    return {
      setName: 'f',
      desired: r.desired,
      set,
      templateConverged: r.templateConverged,
      claims: r.claims,
    };
  });

describe('planScale properties', () => {
  it('never below 0, never past the target, contraction steps by exactly 1', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const plan = planScale(input);
        const applied = input.set.specReplicas;
        if (plan.replicas === undefined) return;
        assert.ok(plan.replicas >= 0);
        if (plan.action === 'contract') {
          assert.equal(plan.replicas, applied - 1);
          assert.ok(plan.replicas >= input.desired);
          assert.ok(rolledOut(input.set) && input.templateConverged);
        } else {
          assert.equal(plan.action, 'grow');
          assert.ok(plan.replicas > applied && plan.replicas <= input.desired);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never grows into a foreign claim; otherwise grows to the target in one write', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const plan = planScale(input);
        if (plan.action !== 'grow') return;
        const foreign = input.claims.filter((c) => !c.ours && c.ordinal < input.desired);
        if (foreign.length > 0) {
          assert.equal(plan.block?.reason, 'StorageIdentityConflict');
          assert.equal(plan.replicas, undefined);
          return;
        }
        assert.equal(plan.replicas, input.desired);
      }),
      { numRuns: 2000 },
    );
  });

  it('converges to the target when the cluster settles after every write', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX }),
        fc.integer({ min: 0, max: MAX }),
        fc.array(fc.integer({ min: 0, max: MAX }), { maxLength: MAX }),
        (start, desired, keptOrdinals) => {
          const claims = keptOrdinals.map((ordinal) => ({
            ordinal,
            ours: true,
            terminating: false,
          }));
          let applied = start;
          let steps = 0;
          while (applied !== desired) {
            const set: StatefulSetFacts = {
              specReplicas: applied,
              generation: 1,
              observedGeneration: 1,
              replicas: applied,
              readyReplicas: applied,
              updatedReplicas: applied,
              currentRevision: 'a',
              updateRevision: 'a',
            };
            const plan = planScale({ setName: 'f', desired, set, templateConverged: true, claims });
            assert.notEqual(plan.replicas, undefined, JSON.stringify(plan));
            applied = plan.replicas ?? applied;
            steps++;
            assert.ok(steps <= 2 * MAX);
          }
          // Contraction takes exactly one write per member.
          if (start > desired) assert.equal(steps, start - desired);
        },
      ),
    );
  });
});
