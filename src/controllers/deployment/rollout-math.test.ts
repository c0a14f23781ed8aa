/**
 * Tests for rollout arithmetic: upstream TestResolveFenceposts, TestMaxUnavailable,
 * TestNewRSNewReplicas, the examples of docs/design/replicaset-deployment.md §7.2–§7.3, and fencepost properties.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type Deployment, type ReplicaSet } from '../../api/model/index.js';
import {
  type IntOrString,
  maxSurge,
  maxUnavailable,
  newReplicaSetTarget,
  newRsNewReplicas,
  planOldReplicaSetsScaleDown,
  resolveFenceposts,
  scaledValueFromIntOrPercent,
} from './rollout-math.js';

function deployment(
  replicas: number,
  surge?: IntOrString,
  unavailable?: IntOrString,
  type: string = 'RollingUpdate',
): Deployment {
  const rollingUpdate: Record<string, unknown> = {};
  if (surge !== undefined) rollingUpdate.maxSurge = surge;
  if (unavailable !== undefined) rollingUpdate.maxUnavailable = unavailable;
  return asKind(
    { metadata: { name: 'd' }, spec: { replicas, strategy: { type, rollingUpdate } } },
    'Deployment',
  );
}

function rs(
  name: string,
  replicas: number,
  available = 0,
  created = '2024-01-01T00:00:00Z',
): ReplicaSet {
  return asKind(
    {
      metadata: { name, namespace: 'default', creationTimestamp: created },
      spec: { replicas },
      status: { availableReplicas: available },
    },
    'ReplicaSet',
  );
}

describe('resolveFenceposts (upstream TestResolveFenceposts)', () => {
  const cases: Array<[IntOrString | undefined, IntOrString | undefined, number, number, number]> = [
    ['0%', '0%', 0, 0, 1],
    ['39%', '39%', 10, 4, 3],
    [undefined, '39%', 10, 0, 3],
    ['39%', undefined, 10, 4, 0],
    [undefined, undefined, 10, 0, 1],
    [1, 1, 2, 1, 1],
    ['25%', '25%', 8, 2, 2],
    ['25%', '25%', 10, 3, 2],
    ['25%', '25%', 1, 1, 0],
    ['25%', '25%', 3, 1, 0],
    ['25%', '25%', 4, 1, 1],
    [0, 0, 5, 0, 1],
    ['0%', '30%', 10, 0, 3],
  ];
  for (const [s, u, desired, ws, wu] of cases) {
    it(`${String(s)}/${String(u)} of ${desired}`, () => {
      assert.deepEqual(resolveFenceposts(s, u, desired), { maxSurge: ws, maxUnavailable: wu });
    });
  }

  const errors: Array<[IntOrString, IntOrString, string]> = [
    ['oops', '39%', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    ['55%', 'urg', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    [
      'x%',
      '1',
      'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax',
    ],
  ];
  for (const [s, u, message] of errors) {
    it(`rejects ${s}/${u}`, () => assert.throws(() => resolveFenceposts(s, u, 10), { message }));
  }
});

describe('scaledValueFromIntOrPercent', () => {
  it('rounds with the float expression value × total / 100', () => {
    assert.equal(scaledValueFromIntOrPercent('33%', 3, true), 1);
    assert.equal(scaledValueFromIntOrPercent('33%', 3, false), 0);
    assert.equal(scaledValueFromIntOrPercent('50%', 7, true), 4);
    assert.equal(scaledValueFromIntOrPercent('50%', 7, false), 3);
    assert.equal(scaledValueFromIntOrPercent(7, 100, false), 7);
    assert.equal(scaledValueFromIntOrPercent('+10%', 10, false), 1);
  });
});

describe('maxUnavailable / maxSurge (upstream TestMaxUnavailable)', () => {
  const cases: Array<[string, Deployment, number]> = [
    ['less than replicas', deployment(10, 1, 5), 5],
    ['equal replicas', deployment(10, 1, 10), 10],
    ['greater than replicas', deployment(5, 1, 10), 5],
    ['replicas is 0', deployment(0, 1, 10), 0],
    ['Recreate', deployment(10, 1, 5, 'Recreate'), 0],
    ['percent less', deployment(10, 1, '50%'), 5],
    ['percent equal', deployment(10, 1, '100%'), 10],
    ['percent greater', deployment(5, 1, '100%'), 5],
    ['absent values use the 25% defaults', deployment(10), 2],
  ];
  for (const [name, d, want] of cases) it(name, () => assert.equal(maxUnavailable(d), want));

  it('maxSurge is 0 for Recreate and resolved otherwise', () => {
    assert.equal(maxSurge(deployment(10, 3, 0, 'Recreate')), 0);
    assert.equal(maxSurge(deployment(10)), 3);
    assert.equal(maxSurge(deployment(10, '39%', 0)), 4);
  });
});

describe('newRsNewReplicas (upstream TestNewRSNewReplicas)', () => {
  const rs5 = rs('rs5', 5);
  const cases: Array<[string, string, number, number, number, number]> = [
    ['cannot scale up: stays at newRS size', 'RollingUpdate', 1, 5, 1, 5],
    ['scale up to deployment replicas', 'RollingUpdate', 6, 2, 10, 6],
    ['recreate goes straight to replicas', 'Recreate', 3, 1, 1, 3],
  ];
  for (const [name, type, depReplicas, newReplicas, surge, want] of cases) {
    it(name, () => {
      const d = deployment(depReplicas, surge, 1, type);
      assert.equal(newRsNewReplicas(d, [rs5], rs('new', newReplicas)), want);
    });
  }
  it('grows only by the surge room left', () => {
    // replicas 10, surge 3: old 10 + new 0 → new 3 (13 total).
    assert.equal(
      newRsNewReplicas(deployment(10, 3, 2), [rs('old', 10), rs('new', 0)], rs('new', 0)),
      3,
    );
  });
  it('rejects unknown strategy types', () => {
    assert.throws(() => newRsNewReplicas(deployment(1, 1, 1, 'Canary'), [], rs('n', 0)), {
      message: "deployment type Canary isn't supported",
    });
  });
  it('newReplicaSetTarget scales a too-large newRS down to replicas', () => {
    assert.equal(newReplicaSetTarget(deployment(3, 1, 1), [rs('n', 5)], rs('n', 5)), 3);
    assert.equal(newReplicaSetTarget(deployment(3, 1, 1), [rs('n', 3)], rs('n', 3)), 3);
  });
});

describe('planOldReplicaSetsScaleDown', () => {
  it('docs/design/replicaset-deployment.md §7.3 worked example: old 10 → 8 when new pods never become ready', () => {
    const d = deployment(10, 3, 2);
    const oldRS = rs('old', 10, 10);
    const newRS = rs('new', 3, 0, '2024-02-01T00:00:00Z');
    const plan = planOldReplicaSetsScaleDown(d, [oldRS, newRS], [oldRS], newRS);
    assert.equal(plan.maxScaledDown, 2); // all 13 − minAvailable 8 − new unavailable 3
    assert.deepEqual(plan.cleanup, []);
    assert.deepEqual(plan.scaleDown, [{ name: 'old', from: 10, to: 8 }]);
    // Next sync: new grows to 5 (8 + 5 = 13), then nothing more can go.
    const newRS5 = rs('new', 5, 0, '2024-02-01T00:00:00Z');
    const old8 = rs('old', 8, 8);
    assert.equal(newRsNewReplicas(d, [old8, newRS], newRS), 5);
    const stuck = planOldReplicaSetsScaleDown(d, [old8, newRS5], [old8], newRS5);
    assert.equal(stuck.maxScaledDown, 0);
    assert.deepEqual([...stuck.cleanup, ...stuck.scaleDown], []);
  });

  it('cleans up unhealthy replicas oldest first, bounded by maxScaledDown', () => {
    const d = deployment(10, 3, 2);
    const older = rs('a', 4, 1, '2024-01-01T00:00:00Z');
    const old = rs('b', 4, 2, '2024-01-02T00:00:00Z');
    const newRS = rs('c', 5, 5, '2024-01-03T00:00:00Z');
    // all 13, minAvailable 8, new unavailable 0 → maxScaledDown 5: a loses 3, b loses 2.
    const plan = planOldReplicaSetsScaleDown(d, [older, old, newRS], [old, older], newRS);
    assert.equal(plan.maxScaledDown, 5);
    assert.deepEqual(plan.cleanup, [
      { name: 'a', from: 4, to: 1 },
      { name: 'b', from: 4, to: 2 },
    ]);
    // available 1 + 2 + 5 = 8 = minAvailable → no further scale-down.
    assert.deepEqual(plan.scaleDown, []);
  });

  it('does nothing without active old replica sets', () => {
    const d = deployment(3, 1, 1);
    const plan = planOldReplicaSetsScaleDown(
      d,
      [rs('o', 0, 2), rs('n', 3, 3)],
      [rs('o', 0, 2)],
      rs('n', 3, 3),
    );
    assert.deepEqual(plan, { maxScaledDown: 0, cleanup: [], scaleDown: [] });
  });
});

describe('fencepost properties', () => {
  const arbValue = fc.oneof(
    fc.nat(50),
    fc.nat(100).map((n) => `${n}%`),
  );
  it('never both zero, never negative, surge ≥ floor-equivalent', () => {
    fc.assert(
      fc.property(arbValue, arbValue, fc.nat(1000), (s, u, desired) => {
        const f = resolveFenceposts(s, u, desired);
        assert.ok(f.maxSurge > 0 || f.maxUnavailable > 0);
        assert.ok(f.maxSurge >= 0 && f.maxUnavailable >= 0);
        if (typeof s === 'string')
          assert.ok(f.maxSurge >= scaledValueFromIntOrPercent(s, desired, false));
      }),
    );
  });
  it('maxUnavailable never exceeds replicas', () => {
    fc.assert(
      fc.property(arbValue, arbValue, fc.nat(1000), (s, u, replicas) => {
        assert.ok(maxUnavailable(deployment(replicas, s, u)) <= replicas);
      }),
    );
  });
});
