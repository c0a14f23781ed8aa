/**
 * `releasedPod`, the body of a release: the disk-placement gate removed (other gates kept), the
 * planned exclusions added to the required node affinity, nothing else changed.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { SCHEDULING_GATE_DISK_PLACEMENT } from '../render/metadata.js';
import { releasedPod } from './member-release.js';

const affinity = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        {
          matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }],
        },
      ],
    },
  },
};

function pod(gates: string[]): KubeObject {
  return {
    metadata: { name: 'orders-3', resourceVersion: '41' },
    spec: { affinity, schedulingGates: gates.map((name) => ({ name })), containers: [] },
  };
}

describe('releasedPod', () => {
  it('removes the gate and keeps the rest of the spec and the resourceVersion (the fence)', () => {
    const out = releasedPod(pod([SCHEDULING_GATE_DISK_PLACEMENT]), {
      ordinal: 3,
      excludeNodes: [],
    });
    assert.deepEqual(out.spec, { affinity, containers: [] });
    assert.equal(out.metadata?.resourceVersion, '41');
    assert.equal(out.kind, 'Pod');
    assert.equal(out.apiVersion, 'v1');
  });
  it('keeps another controller’s gate', () => {
    const out = releasedPod(pod([SCHEDULING_GATE_DISK_PLACEMENT, 'example.com/quota']), {
      ordinal: 3,
      excludeNodes: [],
    });
    assert.deepEqual((out.spec as { schedulingGates?: unknown }).schedulingGates, [
      { name: 'example.com/quota' },
    ]);
  });
  it('adds the exclusions to every required term', () => {
    const out = releasedPod(pod([SCHEDULING_GATE_DISK_PLACEMENT]), {
      ordinal: 3,
      excludeNodes: ['node-4'],
    });
    const terms = (
      (out.spec as { affinity: typeof affinity }).affinity.nodeAffinity
        .requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms as Record<
        string,
        unknown
      >[]
    )[0];
    assert.deepEqual(terms?.matchFields, [
      { key: 'metadata.name', operator: 'NotIn', values: ['node-4'] },
    ]);
    assert.deepEqual(
      terms?.matchExpressions,
      affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        ?.matchExpressions,
    );
  });
});
