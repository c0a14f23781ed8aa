/**
 * Tests for PodGC planning, after upstream `gc_controller_test.go` (`TestGCTerminated`,
 * `TestGCOrphaned`, `TestGCUnscheduledTerminating`, `TestGCTerminating`), plus properties.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Node, Pod } from '../../api/model/index.js';
import { podGarbage } from './pod-gc.js';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

interface P {
  name: string;
  phase?: string;
  reason?: string;
  node?: string;
  created?: number;
  terminating?: boolean;
}
function pod(p: P): Pod {
  return {
    metadata: {
      name: p.name,
      namespace: 'default',
      creationTimestamp: iso(p.created ?? NOW - 3_600_000),
      ...(p.terminating ? { deletionTimestamp: iso(NOW) } : {}),
    },
    spec: { containers: [], ...(p.node === undefined ? {} : { nodeName: p.node }) },
    status: { ...(p.phase ? { phase: p.phase } : {}), ...(p.reason ? { reason: p.reason } : {}) },
  };
}
function node(name: string, ready = 'True', outOfService = false): Node {
  return {
    metadata: { name },
    spec: outOfService
      ? {
          taints: [
            {
              key: 'node.kubernetes.io/out-of-service',
              value: 'nodeshutdown',
              effect: 'NoExecute',
            },
          ],
        }
      : {},
    status: { conditions: [{ type: 'Ready', status: ready }] },
  };
}
const deleted = (plan: ReturnType<typeof podGarbage>) =>
  plan.deletions.map((d) => `${d.pod.metadata?.name}:${d.reason}`);

describe('podGarbage: terminated pods over the threshold (TestGCTerminated)', () => {
  const cases: Array<{ name: string; pods: P[]; threshold: number; want: string[] }> = [
    {
      name: 'oldest go first, running pods never count',
      pods: [
        { name: 'a', phase: 'Failed', node: 'n', created: NOW - 3000 },
        { name: 'b', phase: 'Succeeded', node: 'n', created: NOW - 1000 },
        { name: 'c', phase: 'Failed', node: 'n', created: NOW - 2000 },
        { name: 'r', phase: 'Running', node: 'n', created: NOW - 9000 },
      ],
      threshold: 1,
      want: ['a:terminated', 'c:terminated'],
    },
    {
      name: 'evicted pods go before older ones',
      pods: [
        { name: 'old', phase: 'Failed', node: 'n', created: NOW - 9000 },
        { name: 'evicted', phase: 'Failed', reason: 'Evicted', node: 'n', created: NOW - 1000 },
      ],
      threshold: 1,
      want: ['evicted:terminated'],
    },
    {
      name: 'equal creation → by name',
      pods: [
        { name: 'b', phase: 'Failed', node: 'n', created: NOW },
        { name: 'a', phase: 'Failed', node: 'n', created: NOW },
      ],
      threshold: 1,
      want: ['a:terminated'],
    },
    {
      name: 'at the threshold → nothing',
      pods: [{ name: 'a', phase: 'Failed', node: 'n' }],
      threshold: 1,
      want: [],
    },
    {
      name: 'threshold 0 disables',
      pods: [{ name: 'a', phase: 'Failed', node: 'n' }],
      threshold: 0,
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = podGarbage(c.pods.map(pod), [node('n')], NOW, {
        terminatedPodGCThreshold: c.threshold,
      });
      assert.deepEqual(deleted(plan), c.want);
      for (const d of plan.deletions) assert.equal(d.markFailed, false);
    });
  }
});

describe('podGarbage: orphaned pods (TestGCOrphaned)', () => {
  it('quarantines a missing node for 40 s, then force-deletes its pods as Failed with DeletionByPodGC', () => {
    const pods = [
      pod({ name: 'a', phase: 'Running', node: 'gone' }),
      pod({ name: 'b', phase: 'Running', node: 'n' }),
    ];
    const first = podGarbage(pods, [node('n')], NOW);
    assert.deepEqual(deleted(first), []);
    assert.deepEqual([...first.missingNodesSince], [['gone', NOW]]);
    assert.equal(first.recheckAt, NOW + 40_000);

    const early = podGarbage(pods, [node('n')], NOW + 39_999, {
      missingNodesSince: first.missingNodesSince,
    });
    assert.deepEqual(deleted(early), []);

    const later = podGarbage(pods, [node('n')], NOW + 40_000, {
      missingNodesSince: first.missingNodesSince,
    });
    assert.deepEqual(deleted(later), ['a:orphaned']);
    const d = later.deletions[0];
    assert.equal(d?.markFailed, true);
    assert.equal(d?.gracePeriodSeconds, 0);
    assert.equal(d?.condition?.reason, 'DeletionByPodGC');
    assert.equal(d?.condition?.message, 'PodGC: node no longer exists');
    assert.equal(later.recheckAt, undefined);
  });

  it('a node that comes back leaves quarantine', () => {
    const pods = [pod({ name: 'a', phase: 'Running', node: 'x' })];
    const plan = podGarbage(pods, [node('x')], NOW + 60_000, {
      missingNodesSince: new Map([['x', NOW]]),
    });
    assert.deepEqual(deleted(plan), []);
    assert.equal(plan.missingNodesSince.size, 0);
  });

  it('an already terminal orphan is deleted without a status patch', () => {
    const pods = [pod({ name: 'a', phase: 'Succeeded', node: 'gone' })];
    const plan = podGarbage(pods, [], NOW, {
      missingNodesSince: new Map([['gone', NOW - 40_000]]),
      terminatedPodGCThreshold: 5,
    });
    assert.deepEqual(deleted(plan), ['a:orphaned']);
    assert.equal(plan.deletions[0]?.markFailed, false);
    assert.equal(plan.deletions[0]?.condition, undefined);
  });
});

describe('podGarbage: terminating pods', () => {
  const cases: Array<{ name: string; pods: P[]; nodes: Node[]; want: string[] }> = [
    {
      name: 'unscheduled terminating pod → force-deleted (TestGCUnscheduledTerminating)',
      pods: [
        { name: 'u', phase: 'Pending', terminating: true },
        { name: 'p', phase: 'Pending' },
      ],
      nodes: [],
      want: ['u:terminating-unscheduled'],
    },
    {
      name: 'terminating on an unreachable node stays (only the user can force it)',
      pods: [{ name: 't', phase: 'Running', node: 'n', terminating: true }],
      nodes: [node('n', 'Unknown')],
      want: [],
    },
    {
      name: 'terminating on a not-ready out-of-service node → force-deleted (TestGCTerminating)',
      pods: [
        { name: 't', phase: 'Running', node: 'n', terminating: true },
        { name: 'r', phase: 'Running', node: 'n' },
      ],
      nodes: [node('n', 'False', true)],
      want: ['t:terminating-out-of-service'],
    },
    {
      name: 'out-of-service taint on a Ready node does nothing',
      pods: [{ name: 't', phase: 'Running', node: 'n', terminating: true }],
      nodes: [node('n', 'True', true)],
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(deleted(podGarbage(c.pods.map(pod), c.nodes, NOW)), c.want));
  }
});

describe('podGarbage: properties', () => {
  const arbPod = fc.record({
    phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'),
    node: fc.constantFrom(undefined, 'n1', 'n2', 'gone'),
    terminating: fc.boolean(),
    created: fc.integer({ min: 0, max: 100 }),
  });
  it('each pod at most once; terminating pods on existing healthy-or-unreachable nodes without out-of-service stay', () => {
    fc.assert(
      fc.property(
        fc.array(arbPod, { maxLength: 20 }),
        fc.integer({ min: 0, max: 5 }),
        (specs, threshold) => {
          const pods = specs.map((s, i) =>
            pod({ name: `p${i}`, ...s, created: NOW - s.created * 1000 }),
          );
          const nodes = [node('n1', 'Unknown'), node('n2', 'True')];
          const plan = podGarbage(pods, nodes, NOW, {
            terminatedPodGCThreshold: threshold,
            missingNodesSince: new Map([['gone', 0]]),
          });
          const victims = plan.deletions.map((d) => d.pod);
          assert.equal(new Set(victims).size, victims.length);
          for (const d of plan.deletions) {
            if (d.reason !== 'terminated') continue;
            assert.ok(
              ['Succeeded', 'Failed'].includes(String((d.pod.status as { phase: string }).phase)),
            );
          }
          const terminated = pods.filter((p) =>
            ['Succeeded', 'Failed'].includes(String((p.status as { phase: string }).phase)),
          );
          const gcTerminated = plan.deletions.filter((d) => d.reason === 'terminated').length;
          assert.equal(
            gcTerminated,
            threshold > 0 ? Math.max(0, terminated.length - threshold) : 0,
          );
        },
      ),
    );
  });
});
