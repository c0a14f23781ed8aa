/**
 * Tests of the eviction decision, tables after upstream eviction_test.go (TestEviction,
 * TestEvictionIgnorePDB, TestEvictionDryRun, TestEvictionPDBStatus, the unhealthy-pod-eviction
 * policy cases) with upstream's exact texts. The budget-safety property against the controller's
 * recomputation lives in `src/controllers/disruption/eviction-budget.test.ts`.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import {
  type EvictionDecision,
  evictionConflictError,
  evictionDecision,
} from './eviction-decision.js';
import { iso, NOW, pdb, pod } from './testing/fixtures.js';

const VIOLATES = "Cannot evict pod as it would violate the pod's disruption budget.";
const matching = { matchLabels: { foo: 'bar' } };

function status(allowed: number, current: number, desired: number, extra = {}) {
  return {
    observedGeneration: 1,
    disruptionsAllowed: allowed,
    currentHealthy: current,
    desiredHealthy: desired,
    expectedPods: current,
    ...extra,
  };
}

function refusal(d: EvictionDecision): [number, string, unknown] {
  assert.equal(d.allow, false);
  if (d.allow) throw new Error('unreachable');
  return [d.status, d.message, d.causes];
}

describe('evictionDecision refusals (exact upstream texts)', () => {
  const cases: {
    name: string;
    pod: KubeObject;
    pdbs: KubeObject[];
    want: [number, string, unknown];
    retryAfter?: number;
  }[] = [
    {
      name: 'matching pdbs with no disruptions allowed',
      pod: pod('p'),
      pdbs: [pdb({ status: status(0, 2, 2) })],
      want: [
        429,
        VIOLATES,
        [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget foo needs 2 healthy pods and has 2 currently',
          },
        ],
      ],
    },
    {
      name: 'stale observedGeneration: still being processed, retry after 10s',
      pod: pod('p'),
      pdbs: [pdb({ generation: 2, status: status(5, 5, 0) })],
      want: [
        429,
        VIOLATES,
        [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget foo is still being processed by the server.',
          },
        ],
      ],
      retryAfter: 10,
    },
    {
      name: 'PDB never processed (no status) counts as stale',
      pod: pod('p'),
      pdbs: [pdb({})],
      want: [
        429,
        VIOLATES,
        [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget foo is still being processed by the server.',
          },
        ],
      ],
      retryAfter: 10,
    },
    {
      name: 'more than one matching PDB',
      pod: pod('p'),
      pdbs: [
        pdb({ status: status(1, 2, 1) }),
        pdb({
          name: 'bar',
          selector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] },
          status: status(1, 2, 1),
        }),
      ],
      want: [
        500,
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
        [],
      ],
    },
    {
      name: 'negative disruptionsAllowed is forbidden',
      pod: pod('p'),
      pdbs: [pdb({ status: status(-1, 2, 1) })],
      want: [
        403,
        'poddisruptionbudget.policy "foo" is forbidden: pdb disruptions allowed is negative',
        [],
      ],
    },
    {
      name: 'too many unconfirmed evictions is forbidden',
      pod: pod('p'),
      pdbs: [
        pdb({
          status: status(1, 2, 1, {
            disruptedPods: Object.fromEntries(
              Array.from({ length: 2001 }, (_, i) => [`x${i}`, iso(NOW)]),
            ),
          }),
        }),
      ],
      want: [
        403,
        'poddisruptionbudget.policy "foo" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller',
        [],
      ],
    },
    {
      name: 'IfHealthyBudget: unready pod while the budget is already short',
      pod: pod('p', { ready: false }),
      pdbs: [pdb({ unhealthyPodEvictionPolicy: 'IfHealthyBudget', status: status(0, 1, 2) })],
      want: [
        429,
        VIOLATES,
        [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget foo needs 2 healthy pods and has 1 currently',
          },
        ],
      ],
    },
    {
      name: 'default policy: unready pod and desiredHealthy 0 goes through the budget',
      pod: pod('p', { ready: false }),
      pdbs: [pdb({ status: status(0, 0, 0) })],
      want: [
        429,
        VIOLATES,
        [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget foo needs 0 healthy pods and has 0 currently',
          },
        ],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = evictionDecision(c.pod, c.pdbs, NOW);
      assert.deepEqual(refusal(d), c.want);
      if (d.allow) return;
      assert.equal(d.error.code, c.want[0]);
      assert.equal(d.error.status.details?.retryAfterSeconds, c.retryAfter);
    });
  }

  it('the 500 has no reason, like an unclassified upstream Status', () => {
    const d = evictionDecision(
      pod('p'),
      [pdb({ status: status(1, 2, 1) }), pdb({ name: 'b', status: status(1, 2, 1) })],
      NOW,
    );
    assert.ok(!d.allow);
    assert.equal(d.error.status.reason, undefined);
    assert.equal(d.error.status.code, 500);
  });

  it('evictionConflictError is the 429 of a conflicted conditioned delete', () => {
    const e = evictionConflictError('foo');
    assert.equal(e.code, 429);
    assert.equal(e.status.reason, 'TooManyRequests');
    assert.equal(e.status.message, VIOLATES);
  });
});

describe('evictionDecision allowances', () => {
  const cases: {
    name: string;
    pod: KubeObject;
    pdbs: KubeObject[];
    via: string;
    deleteResourceVersion?: string;
    conflictIsTooManyRequests?: boolean;
    decrement?: boolean;
    options?: Parameters<typeof evictionDecision>[3];
  }[] = [
    { name: 'no PDBs at all', pod: pod('p'), pdbs: [], via: 'noPdb' },
    {
      name: 'non-matching pdbs',
      pod: pod('p'),
      pdbs: [pdb({ selector: { matchLabels: { other: 'x' } }, status: status(0, 0, 1) })],
      via: 'noPdb',
    },
    {
      name: 'PDB in another namespace does not apply',
      pod: pod('p', { namespace: 'elsewhere' }),
      pdbs: [pdb({ status: status(0, 0, 1) })],
      via: 'noPdb',
    },
    {
      name: 'empty selector matches nothing for eviction',
      pod: pod('p'),
      pdbs: [pdb({ selector: {}, status: status(0, 0, 1) })],
      via: 'noPdb',
    },
    {
      name: 'invalid selector matches nothing',
      pod: pod('p'),
      pdbs: [
        pdb({
          selector: { matchExpressions: [{ key: 'foo', operator: 'bad' }] },
          status: status(0, 0, 1),
        }),
      ],
      via: 'noPdb',
    },
    {
      name: 'a selector of the wrong shape matches nothing',
      pod: pod('p'),
      pdbs: [
        pdb({ selector: { matchExpressions: [{ operator: 'Exists' }] }, status: status(0, 0, 1) }),
      ],
      via: 'noPdb',
    },
    {
      name: 'matching pdbs with disruptions allowed',
      pod: pod('p'),
      pdbs: [pdb({ selector: matching, status: status(1, 3, 2) })],
      via: 'budget',
      decrement: true,
    },
    ...['Succeeded', 'Failed'].map((phase) => ({
      name: `pod ${phase}: budget ignored, no resourceVersion precondition`,
      pod: pod('p', { phase, ready: false }),
      pdbs: [pdb({ status: status(0, 0, 2) })],
      via: 'ignoredPdb',
    })),
    {
      name: 'pod pending: budget ignored, delete conditioned on the pod resourceVersion',
      pod: pod('p', { phase: 'Pending', ready: false, resourceVersion: '42' }),
      pdbs: [pdb({ status: status(0, 0, 2) })],
      via: 'ignoredPdb',
      deleteResourceVersion: '42',
    },
    {
      name: 'pod pending with a caller precondition: the caller’s stays',
      pod: pod('p', { phase: 'Pending', ready: false }),
      pdbs: [pdb({ status: status(0, 0, 2) })],
      via: 'ignoredPdb',
      options: { preconditions: { resourceVersion: '3' } },
    },
    {
      name: 'pod terminating: budget ignored',
      pod: pod('p', { deleting: true }),
      pdbs: [pdb({ status: status(0, 2, 2) })],
      via: 'ignoredPdb',
    },
    {
      name: 'IfHealthyBudget: unready pod while healthy ≥ desired > 0, no decrement',
      pod: pod('p', { ready: false, resourceVersion: '9' }),
      pdbs: [pdb({ status: status(0, 2, 2) })],
      via: 'unhealthyPod',
      deleteResourceVersion: '9',
      conflictIsTooManyRequests: true,
    },
    {
      name: 'unhealthy path overrides a caller precondition; its Conflict stays a Conflict',
      pod: pod('p', { ready: false, resourceVersion: '9' }),
      pdbs: [pdb({ status: status(0, 2, 2) })],
      via: 'unhealthyPod',
      deleteResourceVersion: '9',
      conflictIsTooManyRequests: false,
      options: { preconditions: { resourceVersion: '5' } },
    },
    {
      name: 'AlwaysAllow: unready pod even when the budget is short (and stale)',
      pod: pod('p', { ready: false, resourceVersion: '9' }),
      pdbs: [
        pdb({ generation: 4, unhealthyPodEvictionPolicy: 'AlwaysAllow', status: status(0, 1, 2) }),
      ],
      via: 'unhealthyPod',
      deleteResourceVersion: '9',
      conflictIsTooManyRequests: true,
    },
    {
      name: 'AlwaysAllow does not help a ready pod',
      pod: pod('p'),
      pdbs: [pdb({ unhealthyPodEvictionPolicy: 'AlwaysAllow', status: status(1, 3, 2) })],
      via: 'budget',
      decrement: true,
    },
    {
      name: 'IfHealthyBudget: unready pod with budget short but disruptions allowed decrements',
      pod: pod('p', { ready: false }),
      pdbs: [pdb({ status: status(1, 1, 0) })],
      via: 'budget',
      decrement: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = evictionDecision(c.pod, c.pdbs, NOW, c.options);
      assert.ok(d.allow, d.allow ? '' : d.message);
      assert.equal(d.via, c.via);
      assert.equal(d.deleteResourceVersion, c.deleteResourceVersion);
      assert.equal(d.conflictIsTooManyRequests, c.conflictIsTooManyRequests ?? false);
      assert.equal(d.pdbUpdate !== undefined, c.decrement ?? false);
      const covered = d.via === 'budget' || d.via === 'unhealthyPod';
      assert.equal(d.pdbName, covered ? 'foo' : undefined);
      assert.deepEqual(d.podCondition, {
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: iso(NOW),
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
      });
    });
  }
});

describe('evictionDecision PDB status update (TestEvictionPDBStatus)', () => {
  const sufficient = {
    type: 'DisruptionAllowed',
    status: 'True',
    observedGeneration: 1,
    lastTransitionTime: iso(NOW - 3_600_000),
    reason: 'SufficientPods',
    message: '',
  };

  it('last allowed disruption: 0 left, InsufficientPods, pod recorded in disruptedPods', () => {
    const d = evictionDecision(
      pod('p'),
      [pdb({ status: status(1, 3, 2, { conditions: [sufficient] }) })],
      NOW,
    );
    assert.ok(d.allow);
    assert.deepEqual(d.pdbUpdate, {
      name: 'foo',
      resourceVersion: '',
      status: {
        observedGeneration: 1,
        disruptedPods: { p: iso(NOW) },
        disruptionsAllowed: 0,
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
        conditions: [
          {
            ...sufficient,
            status: 'False',
            reason: 'InsufficientPods',
            lastTransitionTime: iso(NOW),
          },
        ],
      },
    });
  });

  it('disruptions left: only the count and the map change, condition untouched', () => {
    const d = evictionDecision(
      pod('p'),
      [
        pdb({
          status: status(2, 4, 2, {
            conditions: [sufficient],
            disruptedPods: { q: iso(NOW - 1000) },
          }),
        }),
      ],
      NOW,
    );
    assert.ok(d.allow);
    assert.equal(d.pdbUpdate?.status.disruptionsAllowed, 1);
    assert.deepEqual(d.pdbUpdate?.status.disruptedPods, { q: iso(NOW - 1000), p: iso(NOW) });
    assert.deepEqual(d.pdbUpdate?.status.conditions, [sufficient]);
  });

  it('TestEvictionDryRun: allowed, but no PDB write and no pod condition', () => {
    const d = evictionDecision(pod('p'), [pdb({ status: status(1, 3, 2) })], NOW, {
      dryRun: ['All'],
    });
    assert.ok(d.allow);
    assert.equal(d.pdbUpdate, undefined);
    assert.equal(d.podCondition, undefined);
  });

  it('dry run still refuses what a real eviction would refuse', () => {
    const d = evictionDecision(pod('p'), [pdb({ status: status(0, 2, 2) })], NOW, {
      dryRun: ['All'],
    });
    assert.equal(d.allow, false);
  });
});

describe('evictionDecision properties', () => {
  it('the decremented status is never negative and is recorded before the pod goes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        (allowed, desired) => {
          const d = evictionDecision(
            pod('p'),
            [pdb({ status: status(allowed, desired + allowed, desired) })],
            NOW,
          );
          assert.equal(d.allow, allowed > 0);
          if (d.allow) {
            assert.equal(d.pdbUpdate?.status.disruptionsAllowed, allowed - 1);
            assert.equal(d.pdbUpdate?.status.disruptedPods?.p, iso(NOW));
          }
        },
      ),
    );
  });
});
