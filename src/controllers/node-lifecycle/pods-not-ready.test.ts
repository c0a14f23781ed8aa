/**
 * Tests for `podsToMarkNotReady` (upstream `controllerutil.MarkPodsNotReady`).
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/model/index.js';
import { podsToMarkNotReady } from './pods-not-ready.js';

describe('podsToMarkNotReady', () => {
  const NOW = Date.parse('2024-06-01T12:00:00Z');
  const p = (name: string, node: string, ready?: string): Pod => ({
    metadata: { name },
    spec: { containers: [], nodeName: node },
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
