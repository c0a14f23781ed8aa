/**
 * Tests of the stale `DisruptionTarget` cleanup decision (upstream
 * `nonTerminatingPodHasStaleDisruptionCondition`, `syncStalePodDisruption`).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind, type Pod } from '../../api/model/index.js';
import {
  resetDisruptionTarget,
  STALE_POD_DISRUPTION_TIMEOUT_MS,
  staleDisruption,
} from './stale-disruption.js';
import { iso, NOW, pod } from './testing/fixtures.js';

function withTarget(p: Pod, at: number, reason = 'EvictionByEvictionAPI', status = 'True'): Pod {
  const s = p.status ?? {};
  const target = { type: 'DisruptionTarget', status, reason, lastTransitionTime: iso(at) };
  return { ...p, status: { ...s, conditions: [...(s.conditions ?? []), target] } };
}

describe('staleDisruption', () => {
  const cases: { name: string; pod: Pod; want: ReturnType<typeof staleDisruption> }[] = [
    { name: 'no condition', pod: pod('p'), want: { stale: false } },
    {
      name: 'fresh condition: wait for the rest of the 2 min',
      pod: withTarget(pod('p'), NOW - 30_000),
      want: { stale: true, waitMs: STALE_POD_DISRUPTION_TIMEOUT_MS - 30_000 },
    },
    {
      name: 'expired condition: reset now',
      pod: withTarget(pod('p'), NOW - STALE_POD_DISRUPTION_TIMEOUT_MS - 1),
      want: { stale: true, waitMs: 0 },
    },
    {
      name: 'deleting pod: not stale',
      pod: withTarget(pod('p', { deleting: true }), NOW - 600_000),
      want: { stale: false },
    },
    {
      name: 'terminal pod: not stale',
      pod: withTarget(pod('p', { phase: 'Failed' }), NOW - 600_000),
      want: { stale: false },
    },
    {
      name: 'the kubelet’s own condition is never stale',
      pod: withTarget(pod('p'), NOW - 600_000, 'TerminationByKubelet'),
      want: { stale: false },
    },
    {
      name: 'already False: nothing to do',
      pod: withTarget(pod('p'), NOW - 600_000, 'EvictionByEvictionAPI', 'False'),
      want: { stale: false },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(staleDisruption(c.pod, NOW), c.want));
});

describe('resetDisruptionTarget', () => {
  it('sets False now, clears reason and message, keeps the other conditions', () => {
    const next = resetDisruptionTarget(withTarget(pod('p'), NOW - 600_000), NOW);
    assert.deepEqual(next, [
      { type: 'Ready', status: 'True' },
      {
        type: 'DisruptionTarget',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: iso(NOW),
      },
    ]);
  });
  it('no change once it was reset', () => {
    const p = withTarget(pod('p'), NOW - 600_000);
    const once = resetDisruptionTarget(p, NOW);
    assert.ok(once);
    const again = asKind({ ...p, status: { ...p.status, conditions: once } }, 'Pod');
    assert.equal(resetDisruptionTarget(again, NOW + 1000), undefined);
  });
});
