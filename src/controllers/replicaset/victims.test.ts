/**
 * Tests for ReplicaSet victim ranking: the upstream `TestSortingActivePodsWithRanks` table,
 * deletion-cost parsing, log buckets, `podsToDelete`, and total-order properties.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type Pod } from '../../api/model/index.js';
import {
  colocationRanks,
  comparePodsForDeletion,
  logBucket,
  parsePodDeletionCost,
  podDeletionCost,
  podsToDelete,
  rankPodsForDeletion,
} from './victims.js';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();

interface PodOptions {
  name: string;
  node?: string;
  phase?: string;
  ready?: boolean;
  restarts?: number;
  readySince?: number;
  created?: number;
  cost?: string;
  uid?: string;
}

function pod(p: PodOptions): Pod {
  return asKind(
    {
      metadata: {
        name: p.name,
        namespace: 'default',
        uid: p.uid ?? '',
        creationTimestamp: p.created === undefined ? null : iso(p.created),
        annotations:
          p.cost === undefined ? null : { 'controller.kubernetes.io/pod-deletion-cost': p.cost },
      },
      spec: { nodeName: p.node ?? '' },
      status: {
        phase: p.phase ?? 'Running',
        conditions: p.ready
          ? [
              {
                type: 'Ready',
                status: 'True',
                lastTransitionTime: p.readySince === undefined ? null : iso(p.readySince),
              },
            ]
          : [],
        containerStatuses: p.ready ? [{ name: 'c', restartCount: p.restarts ?? 0 }] : [],
      },
    },
    'Pod',
  );
}

// The fixtures of upstream TestSortingActivePodsWithRanks (then1Month ≈ 30 days).
const MONTH = NOW - 30 * 24 * HOUR;
const P = {
  unscheduled: pod({ name: 'unscheduled', phase: 'Pending' }),
  pending: pod({ name: 'pending', node: 'node', phase: 'Pending' }),
  unknown: pod({ name: 'unknown-phase', node: 'node', phase: 'Unknown' }),
  notReady: pod({ name: 'not-ready', node: 'node' }),
  readyNoLTT: pod({ name: 'ready-no-ltt', node: 'node', ready: true }),
  readyNow: pod({ name: 'ready-now', node: 'node', ready: true, readySince: NOW, created: NOW }),
  readyThen: pod({
    name: 'ready-then',
    node: 'node',
    ready: true,
    readySince: MONTH,
    created: MONTH,
  }),
  highRestarts: pod({
    name: 'high-restarts',
    node: 'node',
    ready: true,
    restarts: 9001,
    readySince: NOW,
    created: NOW,
  }),
  nowCreatedThen: pod({
    name: 'now-created-then',
    node: 'node',
    ready: true,
    readySince: NOW,
    created: MONTH,
  }),
  lowCost: pod({
    name: 'low-cost',
    node: 'node',
    ready: true,
    readySince: NOW,
    created: MONTH,
    cost: '10',
  }),
  highCost: pod({
    name: 'high-cost',
    node: 'node',
    ready: true,
    readySince: NOW,
    created: MONTH,
    cost: '100',
  }),
  unscheduled5h: pod({
    name: 'u5',
    phase: 'Pending',
    readySince: NOW - 5 * HOUR,
    created: NOW - 5 * HOUR,
  }),
  unscheduled8h: pod({
    name: 'u8',
    phase: 'Pending',
    readySince: NOW - 8 * HOUR,
    created: NOW - 8 * HOUR,
  }),
  ready2h: pod({ name: 'r2', ready: true, readySince: NOW - 2 * HOUR, created: MONTH }),
  ready5h: pod({ name: 'r5', ready: true, readySince: NOW - 5 * HOUR, created: MONTH }),
  ready8h: pod({ name: 'r8', ready: true, readySince: NOW - 8 * HOUR, created: MONTH }),
};

describe('comparePodsForDeletion (upstream TestSortingActivePodsWithRanks)', () => {
  const inequalities: Array<[string, Pod, number, Pod, number]> = [
    ['unscheduled < scheduled, rank ignored', P.unscheduled, 1, P.pending, 2],
    ['unscheduled < scheduled, higher rank', P.unscheduled, 2, P.pending, 1],
    ['Pending < Unknown', P.pending, 1, P.unknown, 2],
    ['Unknown < Running', P.unknown, 1, P.notReady, 2],
    ['not ready < ready', P.notReady, 1, P.readyNoLTT, 1],
    ['zero ready time first', P.readyNoLTT, 1, P.readyNow, 1],
    ['higher rank first', P.readyNow, 2, P.readyNoLTT, 1],
    ['recently ready first', P.readyNow, 1, P.readyThen, 1],
    ['rank beats ready time', P.readyNow, 2, P.readyThen, 1],
    ['more restarts first', P.highRestarts, 1, P.readyNow, 1],
    ['rank beats restarts', P.readyNow, 2, P.highRestarts, 1],
    ['newer first', P.readyNow, 1, P.nowCreatedThen, 1],
    ['rank beats creation', P.nowCreatedThen, 2, P.readyNow, 1],
    ['lower deletion cost beats rank', P.lowCost, 2, P.highCost, 1],
    ['different log buckets of ready time', P.ready2h, 1, P.ready5h, 1],
  ];
  for (const [name, lesser, rl, greater, rg] of inequalities) {
    it(name, () => {
      assert.ok(comparePodsForDeletion(lesser, greater, NOW, rl, rg) < 0);
      assert.ok(comparePodsForDeletion(greater, lesser, NOW, rg, rl) > 0);
    });
  }

  const equalities: Array<[string, Pod, Pod]> = [
    ...Object.entries(P).map(([k, p]): [string, Pod, Pod] => [`${k} equals itself`, p, p]),
    ['creation 5h and 8h share a log2 bucket', P.unscheduled5h, P.unscheduled8h],
    ['ready 5h and 8h share a log2 bucket', P.ready5h, P.ready8h],
  ];
  for (const [name, a, b] of equalities) {
    it(name, () => assert.equal(comparePodsForDeletion(a, b, NOW, 1, 1), 0));
  }

  it('same bucket with different UIDs is decided by UID', () => {
    const a = pod({
      name: 'a',
      uid: 'b-uid',
      ready: true,
      readySince: NOW - 5 * HOUR,
      created: MONTH,
    });
    const b = pod({
      name: 'b',
      uid: 'a-uid',
      ready: true,
      readySince: NOW - 8 * HOUR,
      created: MONTH,
    });
    assert.ok(comparePodsForDeletion(b, a, NOW) < 0);
  });

  it('sidecar restarts break a tie of regular restarts', () => {
    const withSidecar = (name: string, n: number): Pod => {
      const p = pod({ name, node: 'n', ready: true, readySince: NOW, created: NOW });
      (p.spec as Record<string, unknown>).initContainers = [
        { name: 'side', restartPolicy: 'Always' },
        { name: 'init' },
      ];
      (p.status as Record<string, unknown>).initContainerStatuses = [
        { name: 'side', restartCount: n },
        { name: 'init', restartCount: 50 },
      ];
      return p;
    };
    assert.ok(comparePodsForDeletion(withSidecar('x', 3), withSidecar('y', 1), NOW) < 0);
    assert.equal(comparePodsForDeletion(withSidecar('x', 2), withSidecar('y', 2), NOW), 0);
  });
});

describe('pod-deletion-cost parsing', () => {
  const cases: Array<[string, number | undefined]> = [
    ['0', 0],
    ['10', 10],
    ['-5', -5],
    ['-0', 0],
    ['-007', -7],
    ['2147483647', 2147483647],
    ['-2147483648', -2147483648],
    ['2147483648', undefined],
    ['+10', undefined],
    ['007', undefined],
    ['', undefined],
    ['-', undefined],
    ['1.5', undefined],
    [' 1', undefined],
    ['abc', undefined],
  ];
  for (const [value, want] of cases) {
    it(JSON.stringify(value), () => assert.equal(parsePodDeletionCost(value), want));
  }
  it('invalid annotation sorts as cost 0', () => {
    assert.equal(podDeletionCost(pod({ name: 'x', cost: '+10' })), 0);
    assert.equal(podDeletionCost(pod({ name: 'x' })), 0);
    assert.equal(podDeletionCost(pod({ name: 'x', cost: '-3' })), -3);
  });
});

describe('logBucket (nanosecond log2 buckets)', () => {
  const cases: Array<[string, number, number]> = [
    ['zero duration', 0, -1],
    ['future time', -1000, -1],
    ['1 ms = 1e6 ns', 1, 19],
    ['1 s = 1e9 ns', 1000, 29],
    ['2 h', 2 * HOUR, 42],
    ['5 h', 5 * HOUR, 44],
    ['8 h', 8 * HOUR, 44],
  ];
  for (const [name, ago, want] of cases) {
    it(name, () => assert.equal(logBucket(NOW - ago, NOW), want));
  }
  it('is exact at powers of two', () => {
    assert.equal(logBucket(0, 1.048576), 20); // exactly 2^20 ns
    assert.equal(logBucket(0, 1.048575), 19);
    assert.equal(logBucket(0, 2 ** 30 / 1e6), 30);
  });
});

describe('colocationRanks and podsToDelete', () => {
  const onNode = (name: string, node: string, extra: Partial<PodOptions> = {}): Pod =>
    pod({ name, node, ready: true, readySince: MONTH, created: MONTH, uid: name, ...extra });

  it('counts only active related pods on the same node', () => {
    const a = onNode('a', 'n1');
    const b = onNode('b', 'n2');
    const failed = onNode('f', 'n1', { phase: 'Failed' });
    const related = [a, b, onNode('c', 'n1'), failed];
    assert.deepEqual(colocationRanks([a, b], related), [2, 1]);
    assert.deepEqual(colocationRanks([a, b], []), [0, 0]);
  });

  it('deletes from the most crowded node first', () => {
    const pods = [onNode('a', 'n1'), onNode('b', 'n2'), onNode('c', 'n2'), onNode('d', 'n3')];
    const victims = podsToDelete(pods, pods, 1, NOW).map((p) => p.metadata?.name);
    assert.equal(victims.length, 1);
    assert.ok(victims[0] === 'b' || victims[0] === 'c');
    assert.deepEqual(
      podsToDelete(pods, pods, 2, NOW).map((p) => p.metadata?.name),
      ['b', 'c'],
    );
  });

  it('prefers the just-adopted unready pod', () => {
    const pods = [onNode('old', 'n1'), pod({ name: 'adopted', node: 'n1', phase: 'Running' })];
    assert.deepEqual(
      podsToDelete(pods, pods, 1, NOW).map((p) => p.metadata?.name),
      ['adopted'],
    );
  });

  it('returns everything in input order when deleting all, nothing for diff ≤ 0', () => {
    const pods = [onNode('z', 'n1'), pod({ name: 'a' })];
    assert.deepEqual(
      podsToDelete(pods, pods, 5, NOW).map((p) => p.metadata?.name),
      ['z', 'a'],
    );
    assert.deepEqual(podsToDelete(pods, pods, 0, NOW), []);
    assert.deepEqual(podsToDelete(pods, pods, -2, NOW), []);
  });
});

const arbPod = fc
  .record({
    node: fc.constantFrom('', 'n1', 'n2'),
    phase: fc.constantFrom('Pending', 'Unknown', 'Running', 'Weird'),
    ready: fc.boolean(),
    restarts: fc.nat(3),
    readyAgo: fc.option(fc.integer({ min: -10, max: 40 * HOUR }), { nil: undefined }),
    createdAgo: fc.option(fc.integer({ min: 0, max: 40 * HOUR }), { nil: undefined }),
    cost: fc.option(fc.constantFrom('0', '5', '-5', '+1', 'x'), { nil: undefined }),
    uid: fc.constantFrom('', 'u1', 'u2', 'u3'),
  })
  .map((r) => r);

const arbPods = fc.array(arbPod, { maxLength: 12 }).map((rs) =>
  rs.map((r, i) =>
    pod({
      name: `p${i}`,
      node: r.node,
      phase: r.phase,
      ready: r.ready,
      restarts: r.restarts,
      readySince: r.readyAgo === undefined ? undefined : NOW - r.readyAgo,
      created: r.createdAgo === undefined ? undefined : NOW - r.createdAgo,
      cost: r.cost,
      uid: r.uid,
    }),
  ),
);

describe('ranking properties', () => {
  it('is a total order: sorted output is pairwise non-decreasing and transitive', () => {
    fc.assert(
      fc.property(arbPods, (pods) => {
        const ranks = colocationRanks(pods, pods);
        const rankOf = new Map(pods.map((p, i) => [p, ranks[i] ?? 0]));
        const out = rankPodsForDeletion(pods, pods, NOW);
        for (let i = 0; i < out.length; i++) {
          for (let j = i + 1; j < out.length; j++) {
            const a = out[i] as Pod;
            const b = out[j] as Pod;
            assert.ok(comparePodsForDeletion(a, b, NOW, rankOf.get(a), rankOf.get(b)) <= 0);
            assert.ok(comparePodsForDeletion(b, a, NOW, rankOf.get(b), rankOf.get(a)) >= 0);
          }
        }
      }),
    );
  });

  it('is stable under permutation of the input', () => {
    fc.assert(
      fc.property(
        arbPods.chain((pods) =>
          fc.tuple(fc.constant(pods), fc.shuffledSubarray(pods, { minLength: pods.length })),
        ),
        ([pods, shuffled]) => {
          const names = (ps: Pod[]) => ps.map((p) => p.metadata?.name);
          assert.deepEqual(
            names(rankPodsForDeletion(shuffled, pods, NOW)),
            names(rankPodsForDeletion(pods, pods, NOW)),
          );
        },
      ),
    );
  });

  it('podsToDelete returns exactly min(diff, n) distinct input pods', () => {
    fc.assert(
      fc.property(arbPods, fc.integer({ min: -2, max: 15 }), (pods, diff) => {
        const out = podsToDelete(pods, pods, diff, NOW);
        assert.equal(out.length, Math.max(0, Math.min(diff, pods.length)));
        assert.equal(new Set(out).size, out.length);
        assert.ok(out.every((p) => pods.includes(p)));
      }),
    );
  });
});
