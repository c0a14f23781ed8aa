/**
 * Tests for scaling events: the upstream sync_test.go `TestScale` table, the example of docs/design/replicaset-deployment.md §7.5,
 * helpers, and properties of proportional distribution.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type Deployment, type ReplicaSet } from '../../api/model/index.js';
import {
  DESIRED_REPLICAS_ANNOTATION,
  findActiveOrLatest,
  isScalingEvent,
  MAX_REPLICAS_ANNOTATION,
  proportionalScale,
  replicasAnnotation,
  replicasAnnotationsNeedUpdate,
} from './proportional.js';
import { type IntOrString, maxSurge } from './rollout-math.js';

const NEW = '2016-05-20T02:00:00Z';
const OLD = '2016-05-20T01:00:00Z';
const OLDER = '2016-05-20T00:00:00Z';

/** Upstream test helper newDeployment: surge and unavailable default to 0. */
function deployment(
  replicas: number,
  surge: IntOrString = 0,
  unavailable: IntOrString = 0,
): Deployment {
  return asKind(
    {
      metadata: { name: 'foo' },
      spec: {
        replicas,
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable },
        },
      },
    },
    'Deployment',
  );
}

function rs(name: string, replicas: number, created: string, available = 0): ReplicaSet {
  return asKind(
    {
      metadata: { name, creationTimestamp: created },
      spec: { replicas },
      status: { availableReplicas: available },
    },
    'ReplicaSet',
  );
}

/** Stamps the annotations the previous deployment size would have left (as the upstream test does). */
function annotate(set: ReplicaSet, desired: number, max: number): ReplicaSet {
  return asKind(
    {
      ...set,
      metadata: {
        ...set.metadata,
        annotations: {
          [DESIRED_REPLICAS_ANNOTATION]: `${desired}`,
          [MAX_REPLICAS_ANNOTATION]: `${max}`,
        },
      },
    },
    'ReplicaSet',
  );
}

interface ScaleCase {
  name: string;
  d: Deployment;
  old: Deployment;
  newRS?: ReplicaSet;
  oldRSs: ReplicaSet[];
  want: Record<string, number>;
  desiredOverride?: Record<string, number>;
}

const T: ScaleCase[] = [
  {
    name: 'normal scaling event: 10 -> 12',
    d: deployment(12),
    old: deployment(10),
    newRS: rs('foo-v1', 10, NEW),
    oldRSs: [],
    want: { 'foo-v1': 12 },
  },
  {
    name: 'normal scaling event: 10 -> 5',
    d: deployment(5),
    old: deployment(10),
    newRS: rs('foo-v1', 10, NEW),
    oldRSs: [],
    want: { 'foo-v1': 5 },
  },
  {
    name: 'proportional scaling: 5 -> 10',
    d: deployment(10),
    old: deployment(5),
    newRS: rs('foo-v2', 2, NEW),
    oldRSs: [rs('foo-v1', 3, OLD)],
    want: { 'foo-v2': 4, 'foo-v1': 6 },
  },
  {
    name: 'proportional scaling: 5 -> 3',
    d: deployment(3),
    old: deployment(5),
    newRS: rs('foo-v2', 2, NEW),
    oldRSs: [rs('foo-v1', 3, OLD)],
    want: { 'foo-v2': 1, 'foo-v1': 2 },
  },
  {
    name: 'proportional scaling: 9 -> 4',
    d: deployment(4),
    old: deployment(9),
    newRS: rs('foo-v2', 8, NEW),
    oldRSs: [rs('foo-v1', 1, OLD)],
    want: { 'foo-v2': 4, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling: 7 -> 10',
    d: deployment(10),
    old: deployment(7),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 3, OLD), rs('foo-v1', 2, OLDER)],
    want: { 'foo-v3': 3, 'foo-v2': 4, 'foo-v1': 3 },
  },
  {
    name: 'proportional scaling: 13 -> 8',
    d: deployment(8),
    old: deployment(13),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 8, OLD), rs('foo-v1', 3, OLDER)],
    want: { 'foo-v3': 1, 'foo-v2': 5, 'foo-v1': 2 },
  },
  {
    name: 'leftover distribution: 3 -> 4 (newest first)',
    d: deployment(4),
    old: deployment(3),
    newRS: rs('foo-v3', 1, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    want: { 'foo-v3': 2, 'foo-v2': 1, 'foo-v1': 1 },
  },
  {
    name: 'leftover distribution: 3 -> 2 (oldest first)',
    d: deployment(2),
    old: deployment(3),
    newRS: rs('foo-v3', 1, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    want: { 'foo-v3': 1, 'foo-v2': 1, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling (no new rs): 4 -> 5',
    d: deployment(5),
    old: deployment(4),
    oldRSs: [rs('foo-v2', 2, OLD), rs('foo-v1', 2, OLDER)],
    want: { 'foo-v2': 3, 'foo-v1': 2 },
  },
  {
    name: 'proportional scaling: 6 -> 0',
    d: deployment(0),
    old: deployment(6),
    newRS: rs('foo-v3', 3, NEW),
    oldRSs: [rs('foo-v2', 2, OLD), rs('foo-v1', 1, OLDER)],
    want: { 'foo-v3': 0, 'foo-v2': 0, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling: 0 -> 6 (latest gets all)',
    d: deployment(6),
    old: deployment(6),
    newRS: rs('foo-v3', 0, NEW),
    oldRSs: [rs('foo-v2', 0, OLD), rs('foo-v1', 0, OLDER)],
    want: { 'foo-v3': 6, 'foo-v2': 0, 'foo-v1': 0 },
  },
  {
    name: 'stale desired annotation (upstream "failed rs update" sizes)',
    d: deployment(5),
    old: deployment(5),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    desiredOverride: { 'foo-v2': 3 },
    want: { 'foo-v3': 2, 'foo-v2': 2, 'foo-v1': 1 },
  },
  {
    name: 'deployment with surge pods',
    d: deployment(20, 2),
    old: deployment(10, 2),
    newRS: rs('foo-v2', 6, NEW),
    oldRSs: [rs('foo-v1', 6, OLD)],
    want: { 'foo-v2': 11, 'foo-v1': 11 },
  },
  {
    name: 'change both surge and size',
    d: deployment(50, 6),
    old: deployment(10, 3),
    newRS: rs('foo-v2', 5, NEW),
    oldRSs: [rs('foo-v1', 8, OLD)],
    want: { 'foo-v2': 22, 'foo-v1': 34 },
  },
  {
    name: 'change both size and template',
    d: deployment(14),
    old: deployment(10),
    oldRSs: [rs('foo-v2', 7, NEW), rs('foo-v1', 3, OLD)],
    want: { 'foo-v2': 10, 'foo-v1': 4 },
  },
  {
    name: 'saturated but broken new replica set does not affect old pods',
    d: deployment(2, 1, 1),
    old: deployment(2, 1, 1),
    newRS: rs('foo-v2', 2, NEW, 0),
    oldRSs: [rs('foo-v1', 1, OLD)],
    want: { 'foo-v2': 2, 'foo-v1': 1 },
  },
];

function stamp(c: ScaleCase, set: ReplicaSet): ReplicaSet {
  const name = set.metadata?.name ?? '';
  const desired = c.desiredOverride?.[name] ?? c.old.spec?.replicas ?? 0;
  return annotate(set, desired, desired + maxSurge(c.old));
}

function sizesAfter(c: ScaleCase): Record<string, number> {
  const newRS = c.newRS && stamp(c, c.newRS);
  const oldRSs = c.oldRSs.map((s) => stamp(c, s));
  const sizes: Record<string, number> = {};
  for (const s of [...(newRS ? [newRS] : []), ...oldRSs])
    sizes[s.metadata?.name ?? ''] = s.spec?.replicas ?? 0;
  for (const t of proportionalScale(c.d, { newRS, oldRSs }).targets) sizes[t.name] = t.to;
  return sizes;
}

describe('proportionalScale (upstream TestScale)', () => {
  for (const c of T) it(c.name, () => assert.deepEqual(sizesAfter(c), c.want));
});

describe('proportionalScale branches and the e2e example', () => {
  it('docs/design/replicaset-deployment.md §7.5: stuck rollout old 8 / new 5 scaled 10 → 30 gives 20 / 13', () => {
    const d = deployment(30, 3, 2);
    const old = annotate(rs('old', 8, OLD, 8), 10, 13);
    const newRS = annotate(rs('new', 5, NEW, 0), 10, 13);
    const plan = proportionalScale(d, { newRS, oldRSs: [old] });
    assert.equal(plan.kind, 'proportional');
    assert.deepEqual(plan.annotations, { desired: 30, max: 33 });
    assert.deepEqual(plan.targets, [
      { name: 'old', from: 8, to: 20 },
      { name: 'new', from: 5, to: 13 },
    ]);
  });

  it('saturated newRS scales active old RSes to 0', () => {
    const d = deployment(3, 1, 0);
    const newRS = annotate(rs('new', 3, NEW, 3), 3, 4);
    const plan = proportionalScale(d, { newRS, oldRSs: [rs('old', 2, OLD), rs('dead', 0, OLDER)] });
    assert.equal(plan.kind, 'saturated');
    assert.deepEqual(plan.targets, [{ name: 'old', from: 2, to: 0 }]);
  });

  it('single active RS already at size needs no write; Recreate with many active is left alone', () => {
    assert.equal(
      proportionalScale(deployment(3), { newRS: rs('n', 3, NEW), oldRSs: [] }).kind,
      'none',
    );
    const recreate = asKind(
      {
        metadata: { name: 'd' },
        spec: { replicas: 5, strategy: { type: 'Recreate' } },
      },
      'Deployment',
    );
    const plan = proportionalScale(recreate, { newRS: rs('n', 2, NEW), oldRSs: [rs('o', 2, OLD)] });
    assert.deepEqual(plan.targets, []);
  });

  it('findActiveOrLatest returns the newest old RS when nothing is active and there is no newRS', () => {
    assert.equal(
      findActiveOrLatest(undefined, [rs('a', 0, OLDER), rs('b', 0, OLD)])?.metadata?.name,
      'b',
    );
    assert.equal(findActiveOrLatest(undefined, []), undefined);
  });
});

describe('replicas annotation helpers', () => {
  it('parses only non-negative int32 decimals', () => {
    const with_ = (v: string) => ({
      metadata: { annotations: { [DESIRED_REPLICAS_ANNOTATION]: v } },
    });
    assert.equal(replicasAnnotation(with_('12'), DESIRED_REPLICAS_ANNOTATION), 12);
    for (const bad of ['-1', '+1', 'x', '', '2147483648']) {
      assert.equal(replicasAnnotation(with_(bad), DESIRED_REPLICAS_ANNOTATION), undefined, bad);
    }
  });
  it('detects a scaling event from an active RS only', () => {
    const d = deployment(5);
    assert.equal(isScalingEvent(d, [annotate(rs('a', 2, OLD), 4, 4)]), true);
    assert.equal(
      isScalingEvent(d, [annotate(rs('a', 0, OLD), 4, 4), annotate(rs('b', 5, NEW), 5, 5)]),
      false,
    );
    assert.equal(isScalingEvent(d, [rs('a', 2, OLD)]), false);
  });
  it('replicasAnnotationsNeedUpdate compares decimal strings', () => {
    assert.equal(replicasAnnotationsNeedUpdate(annotate(rs('a', 1, OLD), 5, 6), 5, 6), false);
    assert.equal(replicasAnnotationsNeedUpdate(annotate(rs('a', 1, OLD), 5, 6), 5, 7), true);
    assert.equal(replicasAnnotationsNeedUpdate(rs('a', 1, OLD), 5, 6), true);
  });
});

describe('proportional scaling properties', () => {
  // A consistent pre-scale state: every RS carries the previous size's annotations and the RSes
  // together hold at most that previous maximum (what the rollout itself guarantees).
  const arbState = fc
    .record({
      prevReplicas: fc.integer({ min: 1, max: 40 }),
      prevSurge: fc.nat(5),
      replicas: fc.nat(60),
      surge: fc.nat(5),
      weights: fc.array(fc.nat(10), { minLength: 2, maxLength: 5 }),
    })
    .map((s) => {
      const prevMax = s.prevReplicas + s.prevSurge;
      const total = s.weights.reduce((a, b) => a + b, 0) || 1;
      const sizes = s.weights.map((w) => Math.floor((w * prevMax) / total));
      const sets = sizes.map((n, i) =>
        annotate(rs(`rs${i}`, n, `2016-05-20T0${i}:00:00Z`), s.prevReplicas, prevMax),
      );
      return { d: deployment(s.replicas, s.surge), sets };
    });

  it('never produces a negative count, and a proportional plan sums to replicas + surge', () => {
    fc.assert(
      fc.property(arbState, ({ d, sets }) => {
        const [newRS, ...oldRSs] = [...sets].reverse();
        const plan = proportionalScale(d, { newRS, oldRSs });
        const sizes = new Map(sets.map((s) => [s.metadata?.name, s.spec?.replicas ?? 0]));
        for (const t of plan.targets) {
          assert.ok(t.to >= 0);
          sizes.set(t.name, t.to);
        }
        if (plan.kind === 'proportional') {
          const replicas = d.spec?.replicas ?? 0;
          const allowed = replicas > 0 ? replicas + maxSurge(d) : 0;
          const sum = [...sizes.values()].reduce((a, b) => a + b, 0);
          assert.equal(sum, allowed);
        }
      }),
    );
  });
});
