/**
 * Tests of the pod helpers shared by eviction and the disruption controller: readiness and
 * `podutil.UpdatePodCondition` with the eviction's DisruptionTarget condition.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evictionDisruptionTarget, isPodReady, updatePodCondition } from './pod-conditions.js';
import { iso, NOW, pod } from './testing/fixtures.js';

describe('isPodReady', () => {
  const cases = [
    { name: 'Ready=True', pod: pod('p'), want: true },
    { name: 'Ready=False', pod: pod('p', { ready: false }), want: false },
    { name: 'no status', pod: { metadata: { name: 'p' } }, want: false },
    {
      name: 'phase is not consulted',
      pod: pod('p', { phase: 'Succeeded' }),
      want: true,
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isPodReady(c.pod), c.want));
});

describe('updatePodCondition (DisruptionTarget)', () => {
  it('appends the condition', () => {
    const r = updatePodCondition(
      [{ type: 'Ready', status: 'True' }],
      evictionDisruptionTarget(NOW),
    );
    assert.equal(r.changed, true);
    assert.deepEqual(
      r.conditions.map((c) => c.type),
      ['Ready', 'DisruptionTarget'],
    );
  });
  it('keeps the old transition time and reports no change on a repeat', () => {
    const first = updatePodCondition([], evictionDisruptionTarget(NOW)).conditions;
    const again = updatePodCondition(first, evictionDisruptionTarget(NOW + 5000));
    assert.equal(again.changed, false);
    assert.equal(again.conditions[0]?.lastTransitionTime, iso(NOW));
  });
  it('moves the transition time when the status flips', () => {
    const r = updatePodCondition(
      [{ type: 'DisruptionTarget', status: 'False', lastTransitionTime: iso(NOW - 1000) }],
      evictionDisruptionTarget(NOW),
    );
    assert.equal(r.changed, true);
    assert.equal(r.conditions[0]?.lastTransitionTime, iso(NOW));
  });
});
