import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod } from '../api/model/index.js';
import { buildNodeInfos } from './node-info.js';
import { schedule, schedulingContext } from './schedule.js';
import { interPodAffinityScore } from './scores/inter-pod-affinity.js';
import { nodeAffinityScore } from './scores/node-affinity.js';
import { podTopologySpreadScore } from './scores/pod-topology-spread.js';
import { balancedAllocationScore, leastAllocatedScore } from './scores/resource-allocation.js';
import { taintTolerationScore } from './scores/taint-toleration.js';
import { makeNode, makePod } from './testing/fixtures.js';
import type { ScorePlugin } from './types.js';
import type { VolumeBindingHook } from './volume-binding-hook.js';

const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };

describe('schedule: unschedulable messages', () => {
  const cases: {
    name: string;
    pod: Pod;
    nodes: Node[];
    bound?: Pod[];
    hook?: VolumeBindingHook;
    message: string;
    reasons: Record<string, number>;
  }[] = [
    {
      name: 'taint plus insufficient cpu (upstream example shape)',
      pod: makePod('p', { cpu: '3' }),
      nodes: [
        makeNode('a', { taints: [unreachable] }),
        makeNode('b', { cpu: '2' }),
        makeNode('c', { cpu: '2' }),
      ],
      message:
        '0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
      reasons: {
        'node(s) had untolerated taint {node.kubernetes.io/unreachable: }': 1,
        'Insufficient cpu': 2,
      },
    },
    {
      name: 'several reasons per node are each counted; sorted as strings',
      pod: makePod('p', { cpu: '3', memory: '9Gi' }),
      nodes: Array.from({ length: 11 }, (_, i) =>
        makeNode(`n${i}`, { cpu: '2', unschedulable: i === 0 }),
      ),
      message:
        '0/11 nodes are available: 1 node(s) were unschedulable, 10 Insufficient cpu, 10 Insufficient memory. ' +
        'preemption: 0/11 nodes are available: 1 Preemption is not helpful for scheduling, 10 No preemption victims found for incoming pod.',
      reasons: {
        'node(s) were unschedulable': 1,
        'Insufficient cpu': 10,
        'Insufficient memory': 10,
      },
    },
    {
      name: 'preemptionPolicy Never',
      pod: makePod('p', { spec: { nodeSelector: { x: 'y' }, preemptionPolicy: 'Never' } }),
      nodes: [makeNode('a')],
      message:
        "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. preemption: not eligible due to preemptionPolicy=Never.",
      reasons: { "node(s) didn't match Pod's node affinity/selector": 1 },
    },
    {
      name: 'volume PreFilter rejection replaces per-node reasons',
      pod: makePod('p'),
      nodes: [makeNode('a'), makeNode('b')],
      hook: {
        preFilter: () => ({
          code: 'UnschedulableAndUnresolvable',
          reasons: ['pod has unbound immediate PersistentVolumeClaims'],
        }),
        filter: () => null,
      },
      message:
        '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      reasons: { 'pod has unbound immediate PersistentVolumeClaims': 2 },
    },
    {
      name: 'volume filter runs after resources fit',
      pod: makePod('p', { cpu: '3' }),
      nodes: [
        makeNode('a', { labels: { zone: 'z1' } }),
        makeNode('b', { cpu: '1', labels: { zone: 'z1' } }),
        makeNode('c', { labels: { zone: 'z2' } }),
      ],
      hook: {
        filter: (_pod, node) =>
          node.metadata?.labels?.zone === 'z1'
            ? {
                code: 'UnschedulableAndUnresolvable',
                reasons: ['node(s) had volume node affinity conflict'],
              }
            : {
                code: 'Unschedulable',
                reasons: [
                  'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod',
                ],
              },
      },
      message:
        '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had volume node affinity conflict, 1 node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
      reasons: {
        'Insufficient cpu': 1,
        'node(s) had volume node affinity conflict': 1,
        'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod': 1,
      },
    },
    {
      name: 'no nodes at all',
      pod: makePod('p'),
      nodes: [],
      message: 'no nodes available to schedule pods',
      reasons: {},
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = schedule(c.pod, c.nodes, c.bound ?? [], { volumeBinding: c.hook });
      assert.deepEqual(r, { unschedulable: { message: c.message, reasons: c.reasons } });
    });
  }
});

describe('schedule: decisions', () => {
  it('gated pods are not scheduled', () => {
    const r = schedule(
      makePod('p', { spec: { schedulingGates: [{ name: 'g' }] } }),
      [makeNode('a')],
      [],
    );
    assert.deepEqual(r, {
      gated: {
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    });
  });
  it('prefers the least allocated node', () => {
    const r = schedule(
      makePod('p', { cpu: '1' }),
      [makeNode('a'), makeNode('b')],
      [makePod('x', { node: 'a', cpu: '2' })],
    );
    assert.deepEqual(r, { node: 'b' });
  });
  it('ties are broken by random over name order', () => {
    const nodes = [makeNode('c'), makeNode('a'), makeNode('b')];
    assert.deepEqual(schedule(makePod('p'), nodes, [], { random: () => 0 }), { node: 'a' });
    assert.deepEqual(schedule(makePod('p'), nodes, [], { random: () => 0.5 }), { node: 'b' });
    assert.deepEqual(schedule(makePod('p'), nodes, [], { random: () => 0.99 }), { node: 'c' });
  });
  it('spreads replicas over zones with ScheduleAnyway', () => {
    const pod = makePod('p', {
      labels: { app: 'web' },
      spec: {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'zone',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: { app: 'web' } },
          },
        ],
      },
    });
    const nodes = [
      makeNode('a1', { labels: { zone: 'a' } }),
      makeNode('b1', { labels: { zone: 'b' } }),
    ];
    const bound = [makePod('w', { node: 'a1', labels: { app: 'web' } })];
    assert.deepEqual(schedule(pod, nodes, bound), { node: 'b1' });
  });
});

describe('scores', () => {
  const nodes = [
    makeNode('a', {
      labels: { zone: 'a', disk: 'ssd' },
      taints: [{ key: 's', effect: 'PreferNoSchedule' }],
    }),
    makeNode('b', { labels: { zone: 'b' }, cpu: '2', memory: '4Gi' }),
    makeNode('c', { labels: {} }),
  ];
  const bound = [
    makePod('x', { node: 'a', cpu: '2', memory: '2Gi', labels: { app: 'db' } }),
    makePod('y', { node: 'b', cpu: '1', memory: '1Gi', labels: { app: 'web' } }),
  ];
  const cases: { plugin: ScorePlugin; pod: Pod; want: Record<string, number> | null }[] = [
    { plugin: taintTolerationScore, pod: makePod('p'), want: { a: 0, b: 100, c: 100 } },
    {
      plugin: taintTolerationScore,
      pod: makePod('p', { spec: { tolerations: [{ key: 's', operator: 'Exists' }] } }),
      want: { a: 100, b: 100, c: 100 },
    },
    {
      plugin: nodeAffinityScore,
      pod: makePod('p', {
        spec: {
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 2,
                  preference: {
                    matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }],
                  },
                },
                {
                  weight: 1,
                  preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] },
                },
              ],
            },
          },
        },
      }),
      want: { a: 100, b: 33, c: 0 },
    },
    { plugin: nodeAffinityScore, pod: makePod('p'), want: null },
    // a: cpu (4000-2000-100)/4000 → 47, mem (8Gi-2Gi-200Mi)/8Gi → 72 → 59; b: cpu 45, mem 70 → 57;
    // c: cpu 97, mem 97 → 97.
    { plugin: leastAllocatedScore, pod: makePod('p'), want: { a: 59, b: 57, c: 97 } },
    // a: cpu 3/4, mem 3Gi/8Gi → (1 - |0.75-0.375|/2)*100 = 81; b: 1, 0.5 → 75; c: 0.25, 0.125 → 93.
    {
      plugin: balancedAllocationScore,
      pod: makePod('p', { cpu: '1', memory: '1Gi' }),
      want: { a: 81, b: 75, c: 93 },
    },
    { plugin: balancedAllocationScore, pod: makePod('p'), want: null },
    {
      plugin: interPodAffinityScore,
      pod: makePod('p', {
        spec: {
          affinity: {
            podAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 10,
                  podAffinityTerm: {
                    labelSelector: { matchLabels: { app: 'db' } },
                    topologyKey: 'zone',
                  },
                },
              ],
            },
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 5,
                  podAffinityTerm: {
                    labelSelector: { matchLabels: { app: 'web' } },
                    topologyKey: 'zone',
                  },
                },
              ],
            },
          },
        },
      }),
      // raw a=10, b=-5, c=0 → (s+5)*100/15
      want: { a: 100, b: 0, c: 33 },
    },
    { plugin: interPodAffinityScore, pod: makePod('p'), want: null },
    {
      plugin: podTopologySpreadScore,
      pod: makePod('p', {
        labels: { app: 'web' },
        spec: {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'zone',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          ],
        },
      }),
      // domains a, b (c has no zone: ignored → 0); raw a=0, b=round(1*ln 4)=1 → a: 100*(1+0-0)/1, b: 0
      want: { a: 100, b: 0, c: 0 },
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(`${c.plugin.name} #${i}`, () => {
      const infos = buildNodeInfos(nodes, bound);
      const got = c.plugin.score(schedulingContext(c.pod, infos), infos);
      assert.deepEqual(got === null ? null : Object.fromEntries(got), c.want);
    });
  }
});
