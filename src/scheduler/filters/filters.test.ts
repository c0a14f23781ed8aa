import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, NodeSelectorTerm, Pod } from '../../api/model/index.js';
import { buildNodeInfos } from '../node-info.js';
import { schedulingContext } from '../schedule.js';
import { makeNode, makePod } from '../testing/fixtures.js';
import type { FilterPlugin, FilterStatus } from '../types.js';
import { interPodAffinityFilter } from './inter-pod-affinity.js';
import { nodeAffinityFilter } from './node-affinity.js';
import { nodeNameFilter } from './node-name.js';
import { nodePortsFilter } from './node-ports.js';
import { nodeResourcesFitFilter } from './node-resources-fit.js';
import { nodeUnschedulableFilter } from './node-unschedulable.js';
import { podTopologySpreadFilter } from './pod-topology-spread.js';
import { taintTolerationFilter } from './taint-toleration.js';

interface Case {
  name: string;
  pod: Pod;
  nodes: Node[];
  bound?: Pod[];
  /** Expected status per node name (null = fits). */
  want: Record<string, FilterStatus | null>;
}

function run(plugin: FilterPlugin, cases: Case[]): void {
  describe(plugin.name, () => {
    for (const c of cases) {
      it(c.name, () => {
        const infos = buildNodeInfos(c.nodes, c.bound ?? []);
        const check = plugin.prepare(schedulingContext(c.pod, infos));
        const got = Object.fromEntries(infos.map((n) => [n.name, check(n)]));
        assert.deepEqual(got, c.want);
      });
    }
  });
}

const unres = (r: string): FilterStatus => ({ code: 'UnschedulableAndUnresolvable', reasons: [r] });
const unsch = (...r: string[]): FilterStatus => ({ code: 'Unschedulable', reasons: r });

run(nodeNameFilter, [
  {
    name: 'no nodeName fits everywhere',
    pod: makePod('p'),
    nodes: [makeNode('a')],
    want: { a: null },
  },
  {
    name: 'nodeName matches only that node',
    pod: makePod('p', { node: 'b' }),
    nodes: [makeNode('a'), makeNode('b')],
    want: { a: unres("node(s) didn't match the requested node name"), b: null },
  },
]);

run(nodeUnschedulableFilter, [
  {
    name: 'cordoned node rejects, uncordoned fits',
    pod: makePod('p'),
    nodes: [makeNode('a', { unschedulable: true }), makeNode('b')],
    want: { a: unres('node(s) were unschedulable'), b: null },
  },
  {
    name: 'toleration of the unschedulable taint',
    pod: makePod('p', {
      spec: {
        tolerations: [
          { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
        ],
      },
    }),
    nodes: [makeNode('a', { unschedulable: true })],
    want: { a: null },
  },
  {
    name: 'NoExecute-only toleration does not count',
    pod: makePod('p', {
      spec: {
        tolerations: [
          { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' },
        ],
      },
    }),
    nodes: [makeNode('a', { unschedulable: true })],
    want: { a: unres('node(s) were unschedulable') },
  },
]);

const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
run(taintTolerationFilter, [
  {
    name: 'untolerated NoExecute and NoSchedule taints; PreferNoSchedule ignored',
    pod: makePod('p'),
    nodes: [
      makeNode('a', { taints: [unreachable] }),
      makeNode('b', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      makeNode('c', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }),
    ],
    want: {
      a: unres('node(s) had untolerated taint {node.kubernetes.io/unreachable: }'),
      b: unres('node(s) had untolerated taint {dedicated: gpu}'),
      c: null,
    },
  },
  {
    name: 'Equal needs the value; Exists with empty key tolerates everything',
    pod: makePod('p', { spec: { tolerations: [{ key: 'dedicated', value: 'gpu' }] } }),
    nodes: [
      makeNode('a', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
      makeNode('b', { taints: [{ key: 'dedicated', value: 'cpu', effect: 'NoSchedule' }] }),
    ],
    want: { a: null, b: unres('node(s) had untolerated taint {dedicated: cpu}') },
  },
  {
    name: 'wildcard toleration',
    pod: makePod('p', { spec: { tolerations: [{ operator: 'Exists' }] } }),
    nodes: [makeNode('a', { taints: [unreachable] })],
    want: { a: null },
  },
  {
    name: 'effect mismatch does not tolerate',
    pod: makePod('p', {
      spec: { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute' }] },
    }),
    nodes: [makeNode('a', { taints: [{ key: 'k', effect: 'NoSchedule' }] })],
    want: { a: unres('node(s) had untolerated taint {k: }') },
  },
]);

const NA = "node(s) didn't match Pod's node affinity/selector";
const required = (terms: NodeSelectorTerm[]) => ({
  affinity: {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  },
});
run(nodeAffinityFilter, [
  {
    name: 'nodeSelector',
    pod: makePod('p', { spec: { nodeSelector: { disk: 'ssd' } } }),
    nodes: [makeNode('a', { labels: { disk: 'ssd' } }), makeNode('b')],
    want: { a: null, b: unres(NA) },
  },
  {
    name: 'In / NotIn / Exists / DoesNotExist / Gt / Lt',
    pod: makePod('p', {
      spec: required([
        {
          matchExpressions: [
            { key: 'zone', operator: 'In', values: ['z1', 'z2'] },
            { key: 'tier', operator: 'NotIn', values: ['bad'] },
            { key: 'gpu', operator: 'Exists' },
            { key: 'old', operator: 'DoesNotExist' },
            { key: 'cores', operator: 'Gt', values: ['4'] },
            { key: 'cores', operator: 'Lt', values: ['64'] },
          ],
        },
      ]),
    }),
    nodes: [
      makeNode('ok', { labels: { zone: 'z1', gpu: '', cores: '8' } }),
      makeNode('zone', { labels: { zone: 'z3', gpu: '', cores: '8' } }),
      makeNode('tier', { labels: { zone: 'z1', tier: 'bad', gpu: '', cores: '8' } }),
      makeNode('nogpu', { labels: { zone: 'z2', cores: '8' } }),
      makeNode('old', { labels: { zone: 'z2', gpu: '', old: 'x', cores: '8' } }),
      makeNode('small', { labels: { zone: 'z2', gpu: '', cores: '4' } }),
      makeNode('nonint', { labels: { zone: 'z2', gpu: '', cores: 'eight' } }),
    ],
    want: {
      ok: null,
      zone: unres(NA),
      tier: unres(NA),
      nogpu: unres(NA),
      old: unres(NA),
      small: unres(NA),
      nonint: unres(NA),
    },
  },
  {
    name: 'terms are ORed; matchFields metadata.name; empty term matches nothing',
    pod: makePod('p', {
      spec: required([
        {},
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }] },
      ]),
    }),
    nodes: [makeNode('a'), makeNode('b')],
    want: { a: unres(NA), b: null },
  },
  {
    name: 'empty nodeSelectorTerms matches nothing',
    pod: makePod('p', { spec: required([]) }),
    nodes: [makeNode('a')],
    want: { a: unres(NA) },
  },
]);

run(nodePortsFilter, [
  {
    name: 'hostPort conflicts on same protocol and wildcard IP',
    pod: makePod('p', {
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }] }] },
    }),
    nodes: [makeNode('a'), makeNode('b')],
    bound: [
      makePod('x', {
        node: 'a',
        spec: {
          containers: [
            { name: 'c', ports: [{ containerPort: 80, hostPort: 8080, hostIP: '10.0.0.1' }] },
          ],
        },
      }),
      makePod('y', {
        node: 'b',
        spec: {
          containers: [
            { name: 'c', ports: [{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }] },
          ],
        },
      }),
    ],
    want: { a: unsch("node(s) didn't have free ports for the requested pod ports"), b: null },
  },
  {
    name: "a sidecar's hostPort is held too (restartable init containers)",
    pod: makePod('p', {
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 9090 }] }] },
    }),
    nodes: [makeNode('a')],
    bound: [
      makePod('x', {
        node: 'a',
        spec: {
          containers: [{ name: 'c' }],
          initContainers: [
            { name: 's', restartPolicy: 'Always', ports: [{ containerPort: 90, hostPort: 9090 }] },
          ],
        },
      }),
    ],
    want: { a: unsch("node(s) didn't have free ports for the requested pod ports") },
  },
]);

run(nodeResourcesFitFilter, [
  {
    name: 'cpu and memory against allocatable minus bound pods',
    pod: makePod('p', { cpu: '1', memory: '1Gi' }),
    nodes: [
      makeNode('a', { cpu: '2' }),
      makeNode('b', { cpu: '2', memory: '2Gi' }),
      makeNode('c', { cpu: '1500m' }),
    ],
    bound: [
      makePod('x', { node: 'a', cpu: '1' }),
      makePod('y', { node: 'b', cpu: '1500m', memory: '1536Mi' }),
      makePod('done', { node: 'c', cpu: '1', phase: 'Succeeded' }),
    ],
    want: { a: null, b: unsch('Insufficient cpu', 'Insufficient memory'), c: null },
  },
  {
    name: 'pods count, also for a pod requesting nothing',
    pod: makePod('p'),
    nodes: [makeNode('a', { pods: '1' }), makeNode('b', { pods: '2' })],
    bound: [makePod('x', { node: 'a' }), makePod('y', { node: 'b' })],
    want: { a: unsch('Too many pods'), b: null },
  },
  {
    name: 'init containers take the max, sidecars add, overhead adds',
    pod: makePod('p', {
      spec: {
        containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }],
        initContainers: [
          { name: 's', restartPolicy: 'Always', resources: { requests: { cpu: '500m' } } },
          { name: 'i', resources: { requests: { cpu: '2' } } },
        ],
        overhead: { cpu: '250m' },
      },
    }),
    // max(1 + 0.5, 2 + 0.5) + 0.25 = 2.75
    nodes: [makeNode('a', { cpu: '2750m' }), makeNode('b', { cpu: '2700m' })],
    want: { a: null, b: unsch('Insufficient cpu') },
  },
  {
    name: 'only what the pod requests is checked: no cpu request on an overcommitted node',
    pod: makePod('p', { memory: '1Gi' }),
    nodes: [makeNode('a', { cpu: '1', memory: '4Gi' })],
    // A kubelet's static pods may overcommit a node; the scheduler still fits a memory-only pod.
    bound: [makePod('x', { node: 'a', cpu: '2' })],
    want: { a: null },
  },
  {
    name: 'extended resources and limits-only requests',
    pod: makePod('p', {
      spec: {
        containers: [{ name: 'c', resources: { limits: { 'example.com/gpu': '1', cpu: '3' } } }],
      },
    }),
    nodes: [makeNode('a', { extra: { 'example.com/gpu': '1' } }), makeNode('b', { cpu: '8' })],
    want: { a: null, b: unsch('Insufficient example.com/gpu') },
  },
]);

const hostnameAnti = (labels: Record<string, string>, key = 'kubernetes.io/hostname') => ({
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: labels }, topologyKey: key },
      ],
    },
  },
});
const zoneNodes = () => [
  makeNode('a1', { labels: { zone: 'a' } }),
  makeNode('a2', { labels: { zone: 'a' } }),
  makeNode('b1', { labels: { zone: 'b' } }),
  makeNode('n', {}),
];
const ANTI = "node(s) didn't match pod anti-affinity rules";
const EXISTING = "node(s) didn't satisfy existing pods anti-affinity rules";
const AFF = "node(s) didn't match pod affinity rules";
run(interPodAffinityFilter, [
  {
    name: 'required anti-affinity on hostname',
    pod: makePod('p', { labels: { app: 'web' }, spec: hostnameAnti({ app: 'web' }) }),
    nodes: zoneNodes(),
    bound: [makePod('x', { node: 'a1', labels: { app: 'web' } })],
    want: { a1: unsch(ANTI), a2: null, b1: null, n: null },
  },
  {
    name: 'required anti-affinity on zone; other namespaces do not count',
    pod: makePod('p', { labels: { app: 'web' }, spec: hostnameAnti({ app: 'web' }, 'zone') }),
    nodes: zoneNodes(),
    bound: [
      makePod('x', { node: 'a1', labels: { app: 'web' } }),
      makePod('y', { node: 'b1', labels: { app: 'web' }, ns: 'other' }),
    ],
    want: { a1: unsch(ANTI), a2: unsch(ANTI), b1: null, n: null },
  },
  {
    name: "existing pod's anti-affinity repels the incoming pod",
    pod: makePod('p', { labels: { app: 'web' } }),
    nodes: zoneNodes(),
    bound: [
      makePod('x', {
        node: 'b1',
        labels: { app: 'db' },
        spec: hostnameAnti({ app: 'web' }, 'zone'),
      }),
    ],
    want: { a1: null, a2: null, b1: unsch(EXISTING), n: null },
  },
  {
    name: 'required affinity to a zone holding a matching pod; missing label fails',
    pod: makePod('p', {
      spec: {
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'zone' },
            ],
          },
        },
      },
    }),
    nodes: zoneNodes(),
    bound: [makePod('x', { node: 'a2', labels: { app: 'db' } })],
    want: { a1: null, a2: null, b1: unres(AFF), n: unres(AFF) },
  },
  {
    name: 'first pod of a self-affine group may go anywhere with the label',
    pod: makePod('p', {
      labels: { app: 'db' },
      spec: {
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'zone' },
            ],
          },
        },
      },
    }),
    nodes: zoneNodes(),
    want: { a1: null, a2: null, b1: null, n: unres(AFF) },
  },
  {
    name: 'namespaceSelector selects namespaces by label',
    pod: makePod('p', {
      spec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: 'web' } },
                namespaceSelector: {},
                topologyKey: 'zone',
              },
            ],
          },
        },
      },
    }),
    nodes: zoneNodes(),
    bound: [makePod('y', { node: 'b1', labels: { app: 'web' }, ns: 'other' })],
    want: { a1: null, a2: null, b1: unsch(ANTI), n: null },
  },
]);

const SPREAD = "node(s) didn't match pod topology spread constraints";
const spread = (extra: Record<string, unknown> = {}) => ({
  topologySpreadConstraints: [
    {
      maxSkew: 1,
      topologyKey: 'zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'web' } },
      ...extra,
    },
  ],
});
const webOn = (node: string, i: number) => makePod(`w${i}`, { node, labels: { app: 'web' } });
run(podTopologySpreadFilter, [
  {
    name: 'maxSkew 1 over zones; node without the key is unresolvable',
    pod: makePod('p', { labels: { app: 'web' }, spec: spread() }),
    nodes: zoneNodes(),
    bound: [webOn('a1', 1)],
    want: {
      a1: unsch(SPREAD),
      a2: unsch(SPREAD),
      b1: null,
      n: unres(`${SPREAD} (missing required label)`),
    },
  },
  {
    name: 'terminating pods and other namespaces are not counted',
    pod: makePod('p', { labels: { app: 'web' }, spec: spread() }),
    nodes: zoneNodes(),
    bound: [
      {
        ...webOn('a1', 1),
        metadata: {
          name: 'w1',
          namespace: 'default',
          labels: { app: 'web' },
          deletionTimestamp: '2024-01-01T00:00:00Z',
        },
      },
      makePod('o', { node: 'a1', labels: { app: 'web' }, ns: 'other' }),
    ],
    want: { a1: null, a2: null, b1: null, n: unres(`${SPREAD} (missing required label)`) },
  },
  {
    name: 'minDomains above the domain count makes the minimum 0',
    pod: makePod('p', { labels: { app: 'web' }, spec: spread({ minDomains: 3 }) }),
    nodes: zoneNodes().slice(0, 3),
    bound: [webOn('a1', 1), webOn('b1', 2)],
    want: { a1: unsch(SPREAD), a2: unsch(SPREAD), b1: unsch(SPREAD) },
  },
  {
    name: 'nodeAffinityPolicy Honor: domains outside the nodeSelector do not lower the minimum',
    pod: makePod('p', {
      labels: { app: 'web' },
      spec: { ...spread(), nodeSelector: { zone: 'a' } },
    }),
    nodes: zoneNodes().slice(0, 3),
    bound: [webOn('a1', 1)],
    want: { a1: null, a2: null, b1: null },
  },
  {
    name: 'nodeAffinityPolicy Ignore: the empty zone b holds the minimum',
    pod: makePod('p', {
      labels: { app: 'web' },
      spec: { ...spread({ nodeAffinityPolicy: 'Ignore' }), nodeSelector: { zone: 'a' } },
    }),
    nodes: zoneNodes().slice(0, 3),
    bound: [webOn('a1', 1)],
    want: { a1: unsch(SPREAD), a2: unsch(SPREAD), b1: null },
  },
  {
    name: 'nodeTaintsPolicy Honor: a tainted zone is not a domain',
    pod: makePod('p', { labels: { app: 'web' }, spec: spread({ nodeTaintsPolicy: 'Honor' }) }),
    nodes: [
      makeNode('a1', { labels: { zone: 'a' } }),
      makeNode('b1', { labels: { zone: 'b' }, taints: [{ key: 'x', effect: 'NoSchedule' }] }),
    ],
    bound: [webOn('a1', 1)],
    want: { a1: null, b1: null },
  },
  {
    name: 'matchLabelKeys narrows the selector to the pod revision',
    pod: makePod('p', {
      labels: { app: 'web', rev: '2' },
      spec: spread({ matchLabelKeys: ['rev'] }),
    }),
    nodes: zoneNodes().slice(0, 3),
    bound: [makePod('old', { node: 'a1', labels: { app: 'web', rev: '1' } })],
    want: { a1: null, a2: null, b1: null },
  },
]);
