/**
 * Tests for the DefaultTolerationSeconds admission logic, after upstream `admission_test.go`, and
 * for `podsToMarkNotReady`.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { defaultTolerations } from './default-tolerations.js';
import { podsToMarkNotReady } from './pods-not-ready.js';
import type { Toleration } from './taints.js';

const NR = 'node.kubernetes.io/not-ready';
const UR = 'node.kubernetes.io/unreachable';
const def = (key: string, seconds = 300): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});
const pod = (tolerations?: Toleration[]): KubeObject => ({
  metadata: { name: 'p' },
  spec: tolerations ? { tolerations } : {},
});

describe('defaultTolerations', () => {
  const cases: Array<[string, Toleration[] | undefined, Toleration[]]> = [
    ['no tolerations → both added, not-ready first', undefined, [def(NR), def(UR)]],
    [
      'unrelated toleration → both added',
      [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
      [def(NR), def(UR)],
    ],
    [
      'not-ready NoExecute present (any seconds) → only unreachable',
      [{ key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 700 }],
      [def(UR)],
    ],
    [
      'unreachable with empty effect → only not-ready',
      [{ key: UR, operator: 'Exists' }],
      [def(NR)],
    ],
    [
      'not-ready NoSchedule does not count',
      [{ key: NR, operator: 'Exists', effect: 'NoSchedule' }],
      [def(NR), def(UR)],
    ],
    ['empty key + NoExecute covers both', [{ operator: 'Exists', effect: 'NoExecute' }], []],
    ['empty key + empty effect covers both', [{ operator: 'Exists' }], []],
    ['both present → nothing', [def(NR, 10), def(UR, 20)], []],
  ];
  for (const [name, tols, want] of cases)
    it(name, () => assert.deepEqual(defaultTolerations(pod(tols)), want));

  it('honours the configured seconds', () => {
    assert.deepEqual(
      defaultTolerations(pod(), {
        notReadyTolerationSeconds: 60,
        unreachableTolerationSeconds: 90,
      }),
      [def(NR, 60), def(UR, 90)],
    );
  });
});

describe('podsToMarkNotReady', () => {
  const NOW = Date.parse('2024-06-01T12:00:00Z');
  const p = (name: string, node: string, ready?: string): KubeObject => ({
    metadata: { name },
    spec: { nodeName: node },
    status: {
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        ...(ready
          ? [
              {
                type: 'Ready',
                status: ready,
                reason: 'R',
                lastTransitionTime: '2024-01-01T00:00:00Z',
              },
            ]
          : []),
      ],
    },
  });
  it('flips Ready to False on the node only, keeping reason, stamping the transition', () => {
    const updates = podsToMarkNotReady(
      'n',
      [p('a', 'n', 'True'), p('b', 'n', 'False'), p('c', 'other', 'True'), p('d', 'n')],
      NOW,
    );
    assert.deepEqual(
      updates.map((u) => u.pod.metadata?.name),
      ['a'],
    );
    assert.deepEqual(updates[0]?.conditions, [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'R', lastTransitionTime: '2024-06-01T12:00:00Z' },
    ]);
  });
});
