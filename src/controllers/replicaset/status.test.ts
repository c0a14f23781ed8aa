/**
 * Tests for ReplicaSet status computation (upstream calculateStatus semantics), the skip-write rule
 * and the availability recheck delay.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type Pod, type ReplicaSet } from '../../api/model/index.js';
import {
  availabilityRecheckSeconds,
  isPodActive,
  isPodAvailable,
  replicaSetStatus,
  replicaSetStatusChanged,
} from './status.js';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function rs(
  opts: {
    replicas?: number;
    minReady?: number;
    generation?: number;
    status?: Record<string, unknown>;
  } = {},
): ReplicaSet {
  return asKind(
    {
      metadata: { name: 'rs', generation: opts.generation ?? 2 },
      spec: {
        replicas: opts.replicas ?? 3,
        minReadySeconds: opts.minReady ?? 0,
        template: { metadata: { labels: { app: 'web', tier: 'fe' } } },
      },
      status: opts.status ?? {},
    },
    'ReplicaSet',
  );
}

function pod(labels: Record<string, string>, readyAgoSec?: number, phase = 'Running'): Pod {
  return asKind(
    {
      metadata: { name: 'p', labels },
      status: {
        phase,
        conditions:
          readyAgoSec === undefined
            ? [{ type: 'Ready', status: 'False' }]
            : [
                {
                  type: 'Ready',
                  status: 'True',
                  lastTransitionTime: iso(NOW - readyAgoSec * 1000),
                },
              ],
      },
    },
    'Pod',
  );
}

const FULL = { app: 'web', tier: 'fe' };

describe('replicaSetStatus counters', () => {
  const cases: Array<{
    name: string;
    minReady: number;
    pods: Pod[];
    want: [number, number, number, number];
  }> = [
    { name: 'no pods', minReady: 0, pods: [], want: [0, 0, 0, 0] },
    {
      name: 'fully labeled means template labels ⊆ pod labels',
      minReady: 0,
      pods: [pod({ ...FULL, extra: 'x' }), pod({ app: 'web' }), pod({ app: 'web', tier: 'other' })],
      want: [3, 1, 0, 0],
    },
    {
      name: 'ready pods are available when minReadySeconds is 0',
      minReady: 0,
      pods: [pod(FULL, 0), pod(FULL, 100), pod(FULL)],
      want: [3, 3, 2, 2],
    },
    {
      name: 'minReadySeconds: available only when ready strictly longer',
      minReady: 10,
      pods: [pod(FULL, 10), pod(FULL, 11), pod(FULL, 9), pod(FULL)],
      want: [4, 4, 3, 1],
    },
    {
      name: 'phase is not consulted for readiness',
      minReady: 0,
      pods: [pod(FULL, 5, 'Pending')],
      want: [1, 1, 1, 1],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = replicaSetStatus(rs({ minReady: c.minReady }), c.pods, NOW);
      assert.deepEqual(
        [s.replicas, s.fullyLabeledReplicas, s.readyReplicas, s.availableReplicas],
        c.want,
      );
      assert.equal(s.observedGeneration, 2);
      assert.equal('conditions' in s, false);
      assert.equal('terminatingReplicas' in s, false);
    });
  }

  it('fills terminatingReplicas only when terminating pods are given', () => {
    const s = replicaSetStatus(rs(), [pod(FULL, 1)], NOW, undefined, [pod(FULL), pod(FULL)]);
    assert.equal(s.terminatingReplicas, 2);
  });

  it('a ready pod without a transition time is not available with minReadySeconds', () => {
    const p: Pod = {
      metadata: {},
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    assert.equal(isPodAvailable(p, 5, NOW), false);
    assert.equal(isPodAvailable(p, 0, NOW), true);
  });
});

describe('ReplicaFailure condition', () => {
  const other = { type: 'Custom', status: 'True', reason: 'Kept' };
  const failure = {
    type: 'ReplicaFailure',
    status: 'True',
    reason: 'FailedCreate',
    message: 'old',
  };

  it('is added with FailedCreate when short of pods', () => {
    const s = replicaSetStatus(
      rs({ status: { conditions: [other] } }),
      [pod(FULL)],
      NOW,
      new Error('quota exceeded'),
    );
    assert.deepEqual(s.conditions, [
      other,
      {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: '2024-06-01T12:00:00Z',
        reason: 'FailedCreate',
        message: 'quota exceeded',
      },
    ]);
  });

  it('uses FailedDelete when over, empty reason when even', () => {
    const four = [pod(FULL), pod(FULL), pod(FULL), pod(FULL)];
    const over = replicaSetStatus(rs(), four, NOW, 'boom').conditions as Array<
      Record<string, unknown>
    >;
    assert.equal(over[0]?.reason, 'FailedDelete');
    const even = replicaSetStatus(rs(), four.slice(1), NOW, 'boom').conditions as Array<
      Record<string, unknown>
    >;
    assert.equal(even[0]?.reason, '');
  });

  it('is left unchanged when already present and the error persists', () => {
    const s = replicaSetStatus(rs({ status: { conditions: [failure] } }), [], NOW, 'new text');
    assert.deepEqual(s.conditions, [failure]);
  });

  it('is removed when the error clears, keeping others; an empty list is dropped', () => {
    const kept = replicaSetStatus(rs({ status: { conditions: [failure, other] } }), [], NOW);
    assert.deepEqual(kept.conditions, [other]);
    const gone = replicaSetStatus(rs({ status: { conditions: [failure] } }), [], NOW);
    assert.equal('conditions' in gone, false);
  });
});

describe('replicaSetStatusChanged', () => {
  const current = {
    replicas: 3,
    fullyLabeledReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    observedGeneration: 2,
  };
  const cases: Array<[string, ReplicaSet, boolean]> = [
    ['everything equal', rs({ status: current }), false],
    ['generation moved on', rs({ generation: 3, status: current }), true],
    ['counter differs', rs({ status: { ...current, readyReplicas: 2 } }), true],
    [
      'unknown condition is preserved',
      rs({ status: { ...current, conditions: [{ type: 'X' }] } }),
      false,
    ],
    [
      'failure condition cleared',
      rs({ status: { ...current, conditions: [{ type: 'ReplicaFailure' }] } }),
      true,
    ],
  ];
  const pods = [pod(FULL, 1), pod(FULL, 1), pod(FULL, 1)];
  for (const [name, set, want] of cases) {
    it(name, () => {
      const next = replicaSetStatus(set, pods, NOW);
      next.observedGeneration = 2; // compare the stored status, as upstream does before bumping
      assert.equal(replicaSetStatusChanged(set, next), want);
    });
  }
});

describe('availabilityRecheckSeconds', () => {
  it('requeues when all ready but not all available', () => {
    const set = rs({ minReady: 10 });
    const s = replicaSetStatus(set, [pod(FULL, 1), pod(FULL, 1), pod(FULL, 20)], NOW);
    assert.equal(availabilityRecheckSeconds(set, s), 10);
    assert.equal(availabilityRecheckSeconds(set, s, 'err'), undefined);
  });
  it('does not requeue when all available or minReadySeconds is 0', () => {
    const set = rs({ minReady: 10 });
    const all = replicaSetStatus(set, [pod(FULL, 20), pod(FULL, 20), pod(FULL, 20)], NOW);
    assert.equal(availabilityRecheckSeconds(set, all), undefined);
    const zero = rs();
    assert.equal(
      availabilityRecheckSeconds(zero, replicaSetStatus(zero, [pod(FULL, 1)], NOW)),
      undefined,
    );
  });
});

describe('isPodActive', () => {
  it('excludes terminal and terminating pods', () => {
    assert.equal(isPodActive(pod(FULL, 1)), true);
    assert.equal(isPodActive(pod(FULL, 1, 'Succeeded')), false);
    assert.equal(isPodActive(pod(FULL, 1, 'Failed')), false);
    assert.equal(isPodActive({ metadata: { deletionTimestamp: iso(NOW) } }), false);
  });
});

describe('status properties', () => {
  it('available ≤ ready ≤ replicas and fullyLabeled ≤ replicas', () => {
    const arbPod = fc
      .record({
        labelled: fc.boolean(),
        readyAgo: fc.option(fc.integer({ min: -5, max: 60 }), { nil: undefined }),
      })
      .map((r) => pod(r.labelled ? FULL : { app: 'web' }, r.readyAgo));
    fc.assert(
      fc.property(fc.array(arbPod, { maxLength: 10 }), fc.nat(30), (pods, minReady) => {
        const s = replicaSetStatus(rs({ minReady }), pods, NOW);
        const [r, f, rd, a] = [
          s.replicas,
          s.fullyLabeledReplicas,
          s.readyReplicas,
          s.availableReplicas,
        ] as number[];
        assert.equal(r, pods.length);
        assert.ok((f ?? 0) <= (r ?? 0) && (a ?? 0) <= (rd ?? 0) && (rd ?? 0) <= (r ?? 0));
      }),
    );
  });
});
