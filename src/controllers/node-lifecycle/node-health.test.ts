/**
 * Tests for node health planning: cases from upstream `TestMonitorNodeHealthUpdateStatus` and
 * `TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease`, the NoExecute/NoSchedule taint passes,
 * and properties (no duplicate taints, idempotent plans).
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Lease, Node, NodeCondition } from '../../api/model/index.js';
import { applyNodeHealthPlan, nodeConditions, nodeHealth } from './node-health.js';
import { nodeTaints, type Taint } from './taints.js';

const CREATED = '2012-01-01T00:00:00Z';
const NOW_TEXT = '2015-01-01T12:00:00Z';
const NOW = Date.parse(NOW_TEXT);
const HOUR = 3_600_000;
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

function node(opts: {
  created?: string;
  conditions?: NodeCondition[];
  taints?: Taint[];
  unschedulable?: boolean;
}) {
  const n: Node = {
    metadata: { name: 'node0', creationTimestamp: opts.created ?? CREATED },
    spec: {
      ...(opts.taints ? { taints: opts.taints } : {}),
      ...(opts.unschedulable ? { unschedulable: true } : {}),
    },
    status: opts.conditions ? { conditions: opts.conditions } : {},
  };
  return n;
}

function lease(renewMs: number): Lease {
  return {
    metadata: { name: 'node0', namespace: 'kube-node-lease' },
    spec: { renewTime: new Date(renewMs).toISOString() },
  };
}

const ready = (status: string, heartbeat: string, transition = heartbeat): NodeCondition => ({
  type: 'Ready',
  status,
  lastHeartbeatTime: heartbeat,
  lastTransitionTime: transition,
});

const neverUpdated = (type: string, now: string): NodeCondition => ({
  type,
  status: 'Unknown',
  reason: 'NodeStatusNeverUpdated',
  message: 'Kubelet never posted node status.',
  lastHeartbeatTime: CREATED,
  lastTransitionTime: now,
});

const UNREACHABLE_EXEC = {
  key: 'node.kubernetes.io/unreachable',
  effect: 'NoExecute',
  timeAdded: NOW_TEXT,
};
const UNREACHABLE_SCHED = {
  key: 'node.kubernetes.io/unreachable',
  effect: 'NoSchedule',
  timeAdded: NOW_TEXT,
};

describe('nodeHealth: conditions (upstream TestMonitorNodeHealth*)', () => {
  const cases: Array<{
    name: string;
    node: Node;
    lease?: Lease;
    now: number;
    conditions?: NodeCondition[];
  }> = [
    {
      name: 'created long ago, never posted status → Unknown/NodeStatusNeverUpdated for all four',
      node: node({}),
      now: NOW,
      conditions: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((t) =>
        neverUpdated(t, NOW_TEXT),
      ),
    },
    {
      name: 'created just now, never posted → within startup grace',
      node: node({ created: NOW_TEXT }),
      now: NOW,
    },
    {
      name: 'created 60 s ago exactly → still within startup grace (strictly after)',
      node: node({ created: iso(NOW - 60_000) }),
      now: NOW,
    },
    {
      name: 'status 1 h old → Ready Unknown/NodeStatusUnknown, missing pressures NeverUpdated',
      node: node({ conditions: [ready('True', NOW_TEXT)] }),
      now: NOW + HOUR,
      conditions: [
        {
          ...ready('True', NOW_TEXT),
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastTransitionTime: iso(NOW + HOUR),
        },
        ...['MemoryPressure', 'DiskPressure', 'PIDPressure'].map((t) =>
          neverUpdated(t, iso(NOW + HOUR)),
        ),
      ],
    },
    {
      name: 'status just posted → nothing',
      node: node({ conditions: [ready('True', NOW_TEXT)] }),
      now: NOW,
    },
    {
      name: 'status 50 s old exactly → nothing (default grace 50 s)',
      node: node({ conditions: [ready('True', NOW_TEXT)] }),
      now: NOW + 50_000,
    },
    {
      name: 'never posted, lease renewed recently → within grace',
      node: node({ created: NOW_TEXT }),
      lease: lease(NOW),
      now: NOW + 30_000,
    },
    {
      name: 'created long ago, never posted, lease renewed 1 h later → no action',
      node: node({}),
      lease: lease(NOW + HOUR),
      now: NOW + HOUR,
    },
    {
      name: 'status stale but lease fresh → no action',
      node: node({ conditions: [ready('True', NOW_TEXT)] }),
      lease: lease(NOW + HOUR - 1000),
      now: NOW + HOUR,
    },
    {
      name: 'status and lease stale → Unknown',
      node: node({
        conditions: [
          ready('True', NOW_TEXT),
          {
            type: 'MemoryPressure',
            status: 'False',
            lastHeartbeatTime: NOW_TEXT,
            lastTransitionTime: NOW_TEXT,
          },
          {
            type: 'DiskPressure',
            status: 'False',
            lastHeartbeatTime: NOW_TEXT,
            lastTransitionTime: NOW_TEXT,
          },
          {
            type: 'PIDPressure',
            status: 'Unknown',
            lastHeartbeatTime: NOW_TEXT,
            lastTransitionTime: NOW_TEXT,
          },
          {
            type: 'NetworkUnavailable',
            status: 'False',
            lastHeartbeatTime: NOW_TEXT,
            lastTransitionTime: NOW_TEXT,
          },
        ],
      }),
      lease: lease(NOW),
      now: NOW + HOUR,
      conditions: [
        ...['Ready', 'MemoryPressure', 'DiskPressure'].map((type) => ({
          type,
          status: 'Unknown',
          lastHeartbeatTime: NOW_TEXT,
          lastTransitionTime: iso(NOW + HOUR),
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
        })),
        // Already Unknown: untouched. NetworkUnavailable is a control-plane condition: untouched.
        {
          type: 'PIDPressure',
          status: 'Unknown',
          lastHeartbeatTime: NOW_TEXT,
          lastTransitionTime: NOW_TEXT,
        },
        {
          type: 'NetworkUnavailable',
          status: 'False',
          lastHeartbeatTime: NOW_TEXT,
          lastTransitionTime: NOW_TEXT,
        },
      ],
    },
    {
      name: '45 s of silence is within the default 50 s grace',
      node: node({ conditions: [ready('True', NOW_TEXT)] }),
      now: NOW + 45_000,
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const plan = nodeHealth(c.node, c.lease, c.now);
      assert.deepEqual(plan?.conditions, c.conditions);
    });
  }

  it('honours nodeMonitorGracePeriodMs', () => {
    const n = node({ conditions: [ready('True', NOW_TEXT)] });
    assert.equal(nodeHealth(n, undefined, NOW + 45_000), undefined);
    const plan = nodeHealth(n, undefined, NOW + 45_000, { nodeMonitorGracePeriodMs: 40_000 });
    assert.equal(plan?.conditions?.[0]?.status, 'Unknown');
  });

  it('leaves a node already Ready=Unknown alone, even with a stale pressure condition', () => {
    const n = node({
      conditions: [
        ready('Unknown', NOW_TEXT),
        {
          type: 'MemoryPressure',
          status: 'True',
          lastHeartbeatTime: NOW_TEXT,
          lastTransitionTime: NOW_TEXT,
        },
      ],
      taints: [
        UNREACHABLE_EXEC,
        UNREACHABLE_SCHED,
        { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
      ],
    });
    assert.equal(nodeHealth(n, undefined, NOW + HOUR), undefined);
  });
});

describe('nodeHealth: taints', () => {
  const t = (key: string, effect: string): Taint => ({ key: `node.kubernetes.io/${key}`, effect });
  const cases: Array<{
    name: string;
    node: Node;
    now?: number;
    add: Taint[];
    remove: Taint[];
  }> = [
    {
      name: 'stale node gets unreachable NoExecute and NoSchedule, stamped now',
      node: node({ conditions: [ready('True', iso(NOW - HOUR))] }),
      add: [UNREACHABLE_EXEC, UNREACHABLE_SCHED],
      remove: [],
    },
    {
      name: 'Ready=False (fresh) → not-ready taints',
      node: node({ conditions: [ready('False', NOW_TEXT)] }),
      add: [
        { ...t('not-ready', 'NoExecute'), timeAdded: NOW_TEXT },
        { ...t('not-ready', 'NoSchedule'), timeAdded: NOW_TEXT },
      ],
      remove: [],
    },
    {
      name: 'Ready=False with unreachable taints → swapped',
      node: node({
        conditions: [ready('False', NOW_TEXT)],
        taints: [UNREACHABLE_EXEC, UNREACHABLE_SCHED],
      }),
      add: [
        { ...t('not-ready', 'NoExecute'), timeAdded: NOW_TEXT },
        { ...t('not-ready', 'NoSchedule'), timeAdded: NOW_TEXT },
      ],
      remove: [t('unreachable', 'NoExecute'), t('unreachable', 'NoSchedule')],
    },
    {
      name: 'Ready=True again → controller taints removed, user taints kept',
      node: node({
        conditions: [ready('True', NOW_TEXT)],
        taints: [
          UNREACHABLE_EXEC,
          UNREACHABLE_SCHED,
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        ],
      }),
      add: [],
      remove: [t('unreachable', 'NoExecute'), t('unreachable', 'NoSchedule')],
    },
    {
      name: 'pressure conditions and unschedulable → NoSchedule taints',
      node: node({
        unschedulable: true,
        conditions: [
          ready('True', NOW_TEXT),
          { type: 'MemoryPressure', status: 'True' },
          { type: 'DiskPressure', status: 'False' },
          { type: 'NetworkUnavailable', status: 'True' },
          { type: 'PIDPressure', status: 'True' },
        ],
        taints: [t('disk-pressure', 'NoSchedule')],
      }),
      add: [
        { ...t('memory-pressure', 'NoSchedule'), timeAdded: NOW_TEXT },
        { ...t('network-unavailable', 'NoSchedule'), timeAdded: NOW_TEXT },
        { ...t('pid-pressure', 'NoSchedule'), timeAdded: NOW_TEXT },
        { ...t('unschedulable', 'NoSchedule'), timeAdded: NOW_TEXT },
      ],
      remove: [t('disk-pressure', 'NoSchedule')],
    },
    {
      name: 'no Ready condition within startup grace → no NoExecute action',
      node: node({ created: NOW_TEXT }),
      add: [],
      remove: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = nodeHealth(c.node, undefined, c.now ?? NOW);
      assert.deepEqual(plan?.taintsToAdd ?? [], c.add);
      assert.deepEqual(plan?.taintsToRemove ?? [], c.remove);
    });
  }
});

describe('nodeHealth: properties', () => {
  const KEYS = [
    'not-ready',
    'unreachable',
    'memory-pressure',
    'disk-pressure',
    'pid-pressure',
    'unschedulable',
    'user',
  ]
    .map((k) => `node.kubernetes.io/${k}`)
    .concat(['dedicated']);
  const arbTaints = fc.uniqueArray(
    fc.record({
      key: fc.constantFrom(...KEYS),
      effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
    }),
    { selector: (t) => `${t.key}:${t.effect}`, maxLength: 8 },
  );
  const arbStatus = fc.constantFrom('True', 'False', 'Unknown');
  const arbCondition = (type: string) =>
    fc.option(
      fc.record({
        type: fc.constant(type),
        status: arbStatus,
        lastHeartbeatTime: fc.integer({ min: -200, max: 0 }),
      }),
      { nil: undefined },
    );
  const arbNode = fc
    .record({
      taints: arbTaints,
      unschedulable: fc.boolean(),
      created: fc.integer({ min: -300, max: 0 }),
      conds: fc.tuple(
        ...['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'].map(
          arbCondition,
        ),
      ),
      lease: fc.option(fc.integer({ min: -200, max: 0 }), { nil: undefined }),
    })
    .map(({ taints, unschedulable, created, conds, lease: renew }) => ({
      node: node({
        taints,
        unschedulable,
        created: iso(NOW + created * 1000),
        conditions: conds
          .filter((c) => c !== undefined)
          .map((c) => ({
            type: c.type,
            status: c.status,
            lastHeartbeatTime: iso(NOW + c.lastHeartbeatTime * 1000),
          })),
      }),
      lease: renew === undefined ? undefined : lease(NOW + renew * 1000),
    }));

  it('applying a plan never duplicates a taint (key, effect)', () => {
    fc.assert(
      fc.property(arbNode, ({ node: n, lease: l }) => {
        const plan = nodeHealth(n, l, NOW);
        const after = plan ? applyNodeHealthPlan(n, plan) : n;
        const ids = nodeTaints(after).map((t) => `${t.key}:${t.effect}`);
        assert.equal(new Set(ids).size, ids.length);
        for (const x of plan?.taintsToAdd ?? [])
          assert.ok(!nodeTaints(n).some((y) => y.key === x.key && y.effect === x.effect));
      }),
    );
  });

  it('plans are idempotent: apply, plan again → nothing', () => {
    fc.assert(
      fc.property(arbNode, ({ node: n, lease: l }) => {
        const plan = nodeHealth(n, l, NOW);
        if (plan === undefined) return;
        const after = applyNodeHealthPlan(n, plan);
        assert.equal(nodeHealth(after, l, NOW), undefined);
      }),
    );
  });

  it('NoExecute not-ready and unreachable never coexist after a plan on a node with a Ready condition', () => {
    fc.assert(
      fc.property(arbNode, ({ node: n, lease: l }) => {
        if (!nodeConditions(n).some((c) => c.type === 'Ready')) return;
        const plan = nodeHealth(n, l, NOW);
        const after = plan ? applyNodeHealthPlan(n, plan) : n;
        const exec = nodeTaints(after).filter(
          (t) => t.effect === 'NoExecute' && /not-ready|unreachable/.test(t.key),
        );
        assert.ok(exec.length <= 1);
      }),
    );
  });
});
