/**
 * The budget-safety property of the eviction decision against the disruption controller's
 * recomputation: evictions allowed one after another (each followed by a controller sync)
 * never take currentHealthy below desiredHealthy.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { evictionDecision } from '../../api/policy/eviction-decision.js';
import { readPdbStatus } from '../../api/policy/pdb-status.js';
import { controllerScaleFromObjects } from './controller-scale.js';
import { pdbStatus } from './pdb-status.js';
import { NOW, pdb, pod, refTo, workload } from './testing/fixtures.js';

describe('eviction decision with controller syncs', () => {
  const arb = fc.record({
    minAvailable: fc.oneof(
      fc.integer({ min: 0, max: 8 }),
      fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`),
    ),
    replicas: fc.integer({ min: 0, max: 8 }),
    pods: fc.array(
      fc.record({
        ready: fc.boolean(),
        phase: fc.constantFrom('Running', 'Running', 'Pending', 'Succeeded'),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    victim: fc.nat(),
    evictions: fc.integer({ min: 1, max: 4 }),
  });

  it('IfHealthyBudget: allowed evictions never take currentHealthy below desiredHealthy', () => {
    fc.assert(
      fc.property(arb, ({ minAvailable, replicas, pods: ps, victim, evictions }) => {
        const rs = workload('ReplicaSet', 'rs', replicas);
        const lookup = controllerScaleFromObjects({ replicaSets: [rs] });
        // A Pending or terminal pod is never Ready (the kubelet only readies running pods).
        const podObjs = ps.map((p, i) =>
          pod(`p${i}`, {
            ready: p.ready && p.phase === 'Running',
            phase: p.phase,
            owner: refTo(rs),
          }),
        );
        let current = pdb({ minAvailable });
        const first = pdbStatus(current, podObjs, lookup, NOW);
        if (!first.ok) return;
        current = { ...current, status: first.status };
        let alive = podObjs;
        for (let k = 0; k < evictions; k++) {
          const target = alive[(victim + k) % alive.length];
          if (target === undefined) return;
          const before = readPdbStatus(current);
          const d = evictionDecision(target, [current], NOW);
          if (!d.allow) continue;
          if (d.pdbUpdate) current = { ...current, status: d.pdbUpdate.status };
          // The pod is gone; the controller recomputes from what is left.
          alive = alive.filter((p) => p !== target);
          const after = pdbStatus(current, alive, lookup, NOW);
          assert.ok(after.ok);
          assert.ok(after.status.disruptionsAllowed >= 0);
          // Healthy pods only go while there is slack above desiredHealthy.
          assert.ok(
            after.status.currentHealthy >= Math.min(before.currentHealthy, before.desiredHealthy),
            `evicting ${target.metadata?.name} via ${d.via} left ${after.status.currentHealthy} < ${before.desiredHealthy}`,
          );
          current = { ...current, status: after.status };
        }
      }),
    );
  });
});
