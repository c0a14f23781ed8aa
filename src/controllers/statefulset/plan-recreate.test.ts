/**
 * The Recreate update strategy (gate StatefulSetRecreateStrategy, docs/design/statefulset.md §8.5) in the planner:
 * all old pods go at once, new ones come only when none is left; with the gate off the type is
 * read as RollingUpdate.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatefulSet } from '../../api/model/index.js';
import { type PlanAction, planStatefulSet, statusOf } from './plan.js';
import { makePod, makeSet, NOW, type PodState } from './testing/plan-fixtures.js';

function recreateSet(replicas: number, policy: 'OrderedReady' | 'Parallel'): StatefulSet {
  const set = makeSet({ replicas, policy });
  if (set.spec === undefined) return set;
  return { ...set, spec: { ...set.spec, updateStrategy: { type: 'Recreate' } } };
}

function show(a: PlanAction): string {
  if (a.type === 'deletePod') return `delete ${a.podName}`;
  if (a.type === 'createPod') {
    return `create ${a.pod.metadata?.name}@${a.pod.metadata?.labels?.['controller-revision-hash']}`;
  }
  return a.type;
}

interface Case {
  name: string;
  gate: boolean;
  policy: 'OrderedReady' | 'Parallel';
  replicas: number;
  pods: [number, string, PodState][];
  want: string[];
}

const cases: Case[] = [
  {
    name: 'gate on: every old pod, condemned included, is deleted at once',
    gate: true,
    policy: 'OrderedReady',
    replicas: 2,
    pods: [
      [0, 'r1', 'Ready'],
      [1, 'r1', 'Ready'],
      [2, 'r1', 'Ready'],
    ],
    want: ['delete web-0', 'delete web-1', 'delete web-2'],
  },
  {
    name: 'gate on: nothing is created while an old pod terminates',
    gate: true,
    policy: 'Parallel',
    replicas: 2,
    pods: [[1, 'r1', 'Terminating']],
    want: [],
  },
  {
    name: 'gate on: once all are gone, new pods follow podManagementPolicy (Parallel)',
    gate: true,
    policy: 'Parallel',
    replicas: 2,
    pods: [],
    want: ['create web-0@r2', 'create web-1@r2'],
  },
  {
    name: 'gate on: OrderedReady recreates one at a time at the update revision',
    gate: true,
    policy: 'OrderedReady',
    replicas: 2,
    pods: [],
    want: ['create web-0@r2'],
  },
  {
    name: 'gate off: Recreate is a RollingUpdate (highest ordinal only)',
    gate: false,
    policy: 'OrderedReady',
    replicas: 2,
    pods: [
      [0, 'r1', 'Ready'],
      [1, 'r1', 'Ready'],
    ],
    want: ['delete web-1'],
  },
];

describe('planStatefulSet: Recreate', () => {
  for (const c of cases) {
    it(c.name, () => {
      const set = recreateSet(c.replicas, c.policy);
      const input = {
        set,
        pods: c.pods.map(([ord, rev, state]) => makePod(set, ord, rev, state)),
        currentRevision: 'r1',
        updateRevision: 'r2',
        claims: [],
        now: NOW,
        gates: { statefulSetRecreateStrategy: c.gate },
      };
      const plan = planStatefulSet(input);
      assert.deepEqual(plan.actions.map(show), c.want);
      // Status validation: counts never go negative, even with every old pod deleted.
      assert.ok(statusOf(input, plan).currentReplicas >= 0);
    });
  }

  it('completes: all new pods ready → currentRevision is the update revision', () => {
    const set = recreateSet(2, 'Parallel');
    const input = {
      set,
      pods: [makePod(set, 0, 'r2', 'Ready'), makePod(set, 1, 'r2', 'Ready')],
      currentRevision: 'r1',
      updateRevision: 'r2',
      claims: [],
      now: NOW,
      gates: { statefulSetRecreateStrategy: true },
    };
    const plan = planStatefulSet(input);
    assert.deepEqual(plan.actions, []);
    assert.equal(statusOf(input, plan).currentRevision, 'r2');
  });
});
