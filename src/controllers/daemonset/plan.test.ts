import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DaemonSet, Node, Pod } from '../../api/model/index.js';
import { type Plan, planDaemonSet } from './plan.js';
import { daemonSetCounts, nextStatus } from './status.js';
import { makeDaemonSet, makeNode, makePod, NOW } from './testing/fixtures.js';

const three = [makeNode('n1'), makeNode('n2'), makeNode('n3')];
const old = (name: string, node: string, more = {}) => makePod(name, node, { hash: 'h1', ...more });
const cur = (name: string, node: string, more = {}) => makePod(name, node, { hash: 'h2', ...more });
const rolling = (maxUnavailable: number | string, maxSurge: number | string) =>
  makeDaemonSet({
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge } },
  });

interface Case {
  readonly name: string;
  readonly ds?: DaemonSet;
  readonly nodes?: Node[];
  readonly pods?: Pod[];
  readonly hash?: string;
  readonly inBackoff?: boolean;
  readonly want: Partial<Pick<Plan, 'createNodes' | 'deletePods' | 'step' | 'waitingNodes'>> & {
    readonly reasons?: string[];
  };
}

const cases: Case[] = [
  {
    name: 'a new DaemonSet gets one pod per node',
    want: { createNodes: ['n1', 'n2', 'n3'], deletePods: [], step: 'manage' },
  },
  {
    name: 'nodeSelector and required node affinity choose the nodes',
    ds: makeDaemonSet({
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          nodeSelector: { disk: 'ssd' },
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
                ],
              },
            },
          },
          containers: [{ name: 'agent', image: 'agent:v1' }],
        },
      },
    }),
    nodes: [
      makeNode('n1', { disk: 'ssd', zone: 'a' }),
      makeNode('n2', { disk: 'ssd', zone: 'b' }),
      makeNode('n3', { zone: 'a' }),
    ],
    want: { createNodes: ['n1'], step: 'manage' },
  },
  {
    name: "taints the daemon tolerates (not-ready, unreachable, unschedulable) don't keep it off",
    nodes: [
      makeNode('n1', {}, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]),
      makeNode('n2', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]),
      makeNode('n3', {}, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }]),
    ],
    want: { createNodes: ['n1', 'n2', 'n3'] },
  },
  {
    name: 'an untolerated NoSchedule taint: no new pod, the running one stays',
    nodes: [
      makeNode('n1', {}, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]),
      makeNode('n2'),
    ],
    pods: [old('p1', 'n1')],
    hash: 'h1',
    want: { createNodes: ['n2'], deletePods: [] },
  },
  {
    name: 'an untolerated NoExecute taint: the pod goes',
    nodes: [makeNode('n1', {}, [{ key: 'dedicated', effect: 'NoExecute' }])],
    pods: [old('p1', 'n1')],
    hash: 'h1',
    want: { createNodes: [], deletePods: ['p1'], step: 'manage' },
  },
  {
    name: 'two pods on a node without surge: all but the oldest go',
    nodes: [makeNode('n1')],
    pods: [
      old('young', 'n1', { createdAt: NOW - 10_000 }),
      old('elder', 'n1', { createdAt: NOW - 90_000 }),
    ],
    hash: 'h1',
    want: { createNodes: [], deletePods: ['young'] },
  },
  {
    name: 'a failed pod is deleted with a FailedDaemonPod Warning, a succeeded one with SucceededDaemonPod',
    nodes: [makeNode('n1'), makeNode('n2')],
    pods: [old('f', 'n1', { phase: 'Failed' }), old('s', 'n2', { phase: 'Succeeded' })],
    hash: 'h1',
    want: {
      createNodes: [],
      deletePods: ['f', 's'],
      reasons: ['FailedDaemonPod', 'SucceededDaemonPod'],
    },
  },
  {
    name: 'a failed pod in backoff waits',
    nodes: [makeNode('n1')],
    pods: [old('f', 'n1', { phase: 'Failed' })],
    hash: 'h1',
    inBackoff: true,
    want: { createNodes: [], deletePods: [], waitingNodes: ['n1'], step: 'none' },
  },
  {
    name: 'an unbound pod pinned to a node that is gone is deleted; a bound one is left to PodGC',
    nodes: [makeNode('n1')],
    pods: [old('p1', 'n1'), old('pending', 'gone', { bound: false }), old('bound', 'gone2')],
    hash: 'h1',
    want: { createNodes: [], deletePods: ['pending'] },
  },
  {
    name: 'a terminating pod blocks the replacement on its node (no surge)',
    nodes: [makeNode('n1')],
    pods: [old('p1', 'n1', { deleting: true })],
    hash: 'h1',
    want: { createNodes: [], deletePods: [], step: 'none' },
  },
  {
    name: 'rolling update, maxUnavailable 1: one old pod at a time',
    pods: [old('a', 'n1'), old('b', 'n2'), old('c', 'n3')],
    want: { createNodes: [], deletePods: ['a'], step: 'rollingUpdate' },
  },
  {
    name: 'rolling update, maxUnavailable 2 with one new pod not yet available: one more',
    ds: rolling(2, 0),
    pods: [cur('a', 'n1', { ready: false }), old('b', 'n2'), old('c', 'n3')],
    want: { deletePods: ['b'], step: 'rollingUpdate' },
  },
  {
    name: 'rolling update: an unavailable old pod is replaced whatever the budget',
    pods: [cur('a', 'n1', { ready: false }), old('b', 'n2', { ready: false }), old('c', 'n3')],
    want: { deletePods: ['b'], step: 'rollingUpdate' },
  },
  {
    name: 'rolling update, maxUnavailable 34%: rounds up to 2 of 3',
    ds: rolling('34%', 0),
    pods: [old('a', 'n1'), old('b', 'n2'), old('c', 'n3')],
    want: { deletePods: ['a', 'b'] },
  },
  {
    name: 'surge 1: a new pod beside one old pod',
    ds: rolling(0, 1),
    pods: [old('a', 'n1'), old('b', 'n2'), old('c', 'n3')],
    want: { createNodes: ['n1'], deletePods: [], step: 'rollingUpdate' },
  },
  {
    name: 'surge: the old pod goes once the new one beside it is available',
    ds: rolling(0, 1),
    pods: [old('a', 'n1'), cur('a2', 'n1'), old('b', 'n2'), old('c', 'n3')],
    want: { createNodes: [], deletePods: ['a'], step: 'manage' },
  },
  {
    name: 'surge: while the new pod is not available, nothing more',
    ds: rolling(0, 1),
    pods: [old('a', 'n1'), cur('a2', 'n1', { ready: false }), old('b', 'n2'), old('c', 'n3')],
    want: { createNodes: [], deletePods: [], step: 'none' },
  },
  {
    name: 'OnDelete: old pods stay',
    ds: makeDaemonSet({ updateStrategy: { type: 'OnDelete' } }),
    pods: [old('a', 'n1'), old('b', 'n2'), old('c', 'n3')],
    want: { createNodes: [], deletePods: [], step: 'none' },
  },
  {
    name: 'OnDelete: a deleted pod comes back at the new revision (created by manage)',
    ds: makeDaemonSet({ updateStrategy: { type: 'OnDelete' } }),
    pods: [old('b', 'n2'), old('c', 'n3')],
    want: { createNodes: ['n1'], deletePods: [], step: 'manage' },
  },
];

describe('planDaemonSet', () => {
  for (const c of cases) {
    it(c.name, () => {
      const plan = planDaemonSet({
        ds: c.ds ?? makeDaemonSet(),
        nodes: c.nodes ?? three,
        pods: c.pods ?? [],
        hash: c.hash ?? 'h2',
        now: NOW,
        inBackoff: () => c.inBackoff === true,
      });
      const { reasons, ...want } = c.want;
      for (const [k, v] of Object.entries(want)) {
        assert.deepEqual(plan[k as keyof Plan], v, k);
      }
      if (reasons !== undefined)
        assert.deepEqual(
          plan.events.map((e) => e.reason),
          reasons,
        );
    });
  }
});

describe('daemonSetCounts', () => {
  it('counts per eligible node from its oldest pod; misscheduled off the eligible nodes', () => {
    const nodes = [
      makeNode('n1'),
      makeNode('n2'),
      makeNode('n3'),
      makeNode('n4', {}, [{ key: 'gone', effect: 'NoSchedule' }]),
    ];
    const pods = [
      cur('a', 'n1'),
      old('b', 'n2', { ready: false }),
      cur('b2', 'n2', { createdAt: NOW - 1000 }),
      old('d', 'n4'),
    ];
    const ds = makeDaemonSet({ minReadySeconds: 10 });
    assert.deepEqual(daemonSetCounts(ds, nodes, pods, 'h2', NOW), {
      desiredNumberScheduled: 3,
      currentNumberScheduled: 2,
      numberMisscheduled: 1,
      numberReady: 1,
      updatedNumberScheduled: 1,
      numberAvailable: 1,
      numberUnavailable: 2,
    });
  });
});

describe('nextStatus', () => {
  it('skips a write that changes nothing; omits zero omitempty counts', () => {
    const ds = makeDaemonSet();
    const counts = daemonSetCounts(ds, three, [], 'h2', NOW);
    const first = nextStatus(ds, counts, true);
    assert.deepEqual(first, {
      desiredNumberScheduled: 3,
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
      observedGeneration: 1,
      numberUnavailable: 3,
    });
    assert.equal(nextStatus({ ...ds, status: first }, counts, true), undefined);
    // Pending expectations: counts move, observedGeneration does not (and alone is no write).
    const bumped = { ...ds, metadata: { ...ds.metadata, generation: 2 }, status: first };
    assert.equal(nextStatus(bumped, counts, false), undefined);
    const moved = daemonSetCounts(ds, three, [makePod('a', 'n1')], 'h2', NOW);
    assert.equal(nextStatus(bumped, moved, false)?.observedGeneration, 1);
    assert.equal(nextStatus(bumped, moved, true)?.observedGeneration, 2);
  });
});
