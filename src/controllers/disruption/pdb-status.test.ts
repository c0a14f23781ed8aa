/**
 * Tests of the PDB status planner, tables after upstream disruption_test.go (TestNoSelector,
 * TestUnavailable, TestIntegerMaxUnavailable*, TestPercentageMaxUnavailableWithScaling,
 * TestReplicaSet, TestReplicationController, TestStatefulSetController, TestTwoControllers,
 * TestUpdateDisruptedPods, TestInvalidSelectors, TestStatusForUnmanagedPod), plus properties.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type Pod, type PodDisruptionBudget } from '../../api/model/index.js';
import { DELETION_TIMEOUT_MS, type PdbStatus } from '../../api/policy/pdb-status.js';
import { type ControllerScaleLookup, controllerScaleFromObjects } from './controller-scale.js';
import { countHealthyPods, type PdbStatusResult, pdbStatus } from './pdb-status.js';
import { iso, NOW, pdb, pod, refTo, workload } from './testing/fixtures.js';

const noControllers: ControllerScaleLookup = () => undefined;

function okStatus(r: PdbStatusResult): PdbStatus {
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.status;
}

/** upstream VerifyPdbStatus(disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods). */
function counts(s: PdbStatus): [number, number, number, number] {
  return [s.disruptionsAllowed, s.currentHealthy, s.desiredHealthy, s.expectedPods];
}

const rs10 = workload('ReplicaSet', 'rs', 10);
const rc3 = workload('ReplicationController', 'rc', 3);
const ss3 = workload('StatefulSet', 'ss', 3);
const rs7 = workload('ReplicaSet', 'rs', 7);
const dep11 = workload('Deployment', 'dep', 11);
const depRs = workload('ReplicaSet', 'dep-rs', 11, refTo(dep11));
const rc11 = workload('ReplicationController', 'rc', 11);
const depRs2 = workload('ReplicaSet', 'dep-rs2', 0, refTo(dep11));
const lookup = controllerScaleFromObjects({
  replicaSets: [rs10, depRs],
  replicationControllers: [rc3],
  statefulSets: [ss3],
  deployments: [dep11],
});

function pods(n: number, o: Parameters<typeof pod>[1] = {}, prefix = 'p'): Pod[] {
  return Array.from({ length: n }, (_, i) => pod(`${prefix}${i}`, o));
}

describe('pdbStatus counts (upstream disruption_test.go)', () => {
  const cases: {
    name: string;
    pdb: PodDisruptionBudget;
    pods: Pod[];
    lookup?: ControllerScaleLookup;
    want: [number, number, number, number];
  }[] = [
    {
      name: 'TestNoSelector: empty selector selects every pod (policy/v1)',
      pdb: pdb({ minAvailable: 3, selector: {} }),
      pods: [pod('p0', { labels: { other: 'x' } })],
      want: [0, 1, 3, 1],
    },
    {
      name: 'missing selector selects nothing',
      pdb: pdb({ minAvailable: 3, selector: null }),
      pods: pods(4),
      want: [0, 0, 3, 0],
    },
    {
      name: 'TestUnavailable: minAvailable 3, four ready pods',
      pdb: pdb({ minAvailable: 3 }),
      pods: pods(4),
      want: [1, 4, 3, 4],
    },
    {
      name: 'TestUnavailable: one of four becomes unready',
      pdb: pdb({ minAvailable: 3 }),
      pods: [...pods(3), pod('p3', { ready: false })],
      want: [0, 3, 3, 4],
    },
    {
      name: 'deleting pods are not healthy but still expected',
      pdb: pdb({ minAvailable: 1 }),
      pods: [...pods(2), pod('p2', { deleting: true })],
      want: [1, 2, 1, 3],
    },
    {
      name: 'TestIntegerMaxUnavailable: unmanaged pods give expected 0, so nothing allowed',
      pdb: pdb({ maxUnavailable: 1 }),
      pods: pods(1),
      want: [0, 1, 0, 0],
    },
    {
      name: 'TestIntegerMaxUnavailableWithScaling: RS of 7, maxUnavailable 2',
      pdb: pdb({ maxUnavailable: 2 }),
      pods: pods(1, { owner: refTo(rs7) }),
      lookup: controllerScaleFromObjects({ replicaSets: [rs7] }),
      want: [0, 1, 5, 7],
    },
    {
      name: 'TestIntegerMaxUnavailableWithScaling: RS scaled to 5 … 4 ready pods',
      pdb: pdb({ maxUnavailable: 2 }),
      pods: pods(4, { owner: refTo(rs7) }),
      lookup: controllerScaleFromObjects({
        replicaSets: [asKind({ ...rs7, spec: { replicas: 5 } }, 'ReplicaSet')],
      }),
      want: [1, 4, 3, 5],
    },
    {
      name: 'TestPercentageMaxUnavailableWithScaling: 30% of 7 rounds up to 3',
      pdb: pdb({ maxUnavailable: '30%' }),
      pods: pods(5, { owner: refTo(rs7) }),
      lookup: controllerScaleFromObjects({ replicaSets: [rs7] }),
      want: [1, 5, 4, 7],
    },
    {
      name: 'maxUnavailable larger than the scale clamps desired at 0',
      pdb: pdb({ maxUnavailable: 20 }),
      pods: pods(2, { owner: refTo(rs7) }),
      lookup: controllerScaleFromObjects({ replicaSets: [rs7] }),
      want: [2, 2, 0, 7],
    },
    {
      name: 'maxUnavailable wins over minAvailable',
      pdb: pdb({ maxUnavailable: 1, minAvailable: 100 }),
      pods: pods(7, { owner: refTo(rs7) }),
      lookup: controllerScaleFromObjects({ replicaSets: [rs7] }),
      want: [1, 7, 6, 7],
    },
    {
      name: 'TestReplicaSet: minAvailable 20% of 10',
      pdb: pdb({ minAvailable: '20%' }),
      pods: pods(1, { owner: refTo(rs10) }),
      want: [0, 1, 2, 10],
    },
    {
      name: 'TestReplicationController: 34% of 3 rounds up to 2, three ready pods',
      pdb: pdb({ minAvailable: '34%' }),
      pods: pods(3, { owner: refTo(rc3) }),
      want: [1, 3, 2, 3],
    },
    {
      name: 'TestStatefulSetController: 34% of 3, one ready pod',
      pdb: pdb({ minAvailable: '34%' }),
      pods: pods(1, { owner: refTo(ss3) }),
      want: [0, 1, 2, 3],
    },
    {
      name: 'TestTwoControllers: RC 11 + Deployment 11, 28% → 7 of 22',
      pdb: pdb({ minAvailable: '28%' }),
      pods: [...pods(8, { owner: refTo(rc11) }, 'rc'), ...pods(3, { owner: refTo(depRs) }, 'd')],
      lookup: controllerScaleFromObjects({
        replicationControllers: [rc11],
        replicaSets: [depRs],
        deployments: [dep11],
      }),
      want: [4, 11, 7, 22],
    },
    {
      name: 'two ReplicaSets of one Deployment count the Deployment once',
      pdb: pdb({ minAvailable: '50%' }),
      pods: [pod('a', { owner: refTo(depRs) }), pod('b', { owner: refTo(depRs2) })],
      lookup: controllerScaleFromObjects({ replicaSets: [depRs, depRs2], deployments: [dep11] }),
      want: [0, 2, 6, 11],
    },
    {
      name: 'no minAvailable and no maxUnavailable: all zero',
      pdb: pdb({}),
      pods: pods(2),
      want: [0, 2, 0, 0],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = okStatus(pdbStatus(c.pdb, c.pods, c.lookup ?? lookup, NOW));
      assert.deepEqual(counts(s), c.want);
    });
  }
});

describe('pdbStatus fields and conditions', () => {
  it('writes observedGeneration and a SufficientPods condition with empty message', () => {
    const r = pdbStatus(pdb({ minAvailable: 1, generation: 3 }), pods(2), noControllers, NOW);
    assert.ok(r.ok);
    assert.equal(r.changed, true);
    assert.deepEqual(r.status, {
      observedGeneration: 3,
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          observedGeneration: 3,
          lastTransitionTime: iso(NOW),
          reason: 'SufficientPods',
          message: '',
        },
      ],
    });
  });

  it('flips to InsufficientPods with a new transition time', () => {
    const first = okStatus(pdbStatus(pdb({ minAvailable: 1 }), pods(2), noControllers, NOW));
    const later = NOW + 60_000;
    const r = pdbStatus(
      pdb({ minAvailable: 1, status: first as never }),
      pods(1),
      noControllers,
      later,
    );
    assert.ok(r.ok);
    assert.equal(r.changed, true);
    assert.deepEqual(r.status.conditions?.[0], {
      type: 'DisruptionAllowed',
      status: 'False',
      observedGeneration: 1,
      lastTransitionTime: iso(later),
      reason: 'InsufficientPods',
      message: '',
    });
  });

  it('reports changed: false when nothing moved (no write that changes nothing)', () => {
    const first = okStatus(pdbStatus(pdb({ minAvailable: 1 }), pods(2), noControllers, NOW));
    const r = pdbStatus(
      pdb({ minAvailable: 1, status: first as never }),
      pods(2),
      noControllers,
      NOW + 1,
    );
    assert.ok(r.ok);
    assert.equal(r.changed, false);
    assert.deepEqual(r.status, first);
  });

  it('a new generation forces a write even if the counts are equal', () => {
    const first = okStatus(pdbStatus(pdb({ minAvailable: 1 }), pods(2), noControllers, NOW));
    const r = pdbStatus(
      pdb({ minAvailable: 1, generation: 2, status: first as never }),
      pods(2),
      noControllers,
      NOW,
    );
    assert.ok(r.ok);
    assert.equal(r.changed, true);
    assert.equal(r.status.observedGeneration, 2);
  });

  it('TestUpdateDisruptedPods: drops deleting, expired and missing pods; recheck at expiry', () => {
    const p3At = NOW - 60_000;
    const p = pdb({
      minAvailable: 1,
      status: {
        disruptedPods: {
          p1: iso(NOW), // pod deletion started → removed
          p2: iso(NOW - 3 * 60_000), // expired → removed
          p3: iso(p3At), // untouched → kept
          notthere: iso(NOW), // pod gone → removed
        },
      },
    });
    const r = pdbStatus(
      p,
      [pod('p1', { deleting: true }), pod('p2'), pod('p3')],
      noControllers,
      NOW,
    );
    assert.ok(r.ok);
    assert.deepEqual(counts(r.status), [0, 1, 1, 3]);
    assert.deepEqual(r.status.disruptedPods, { p3: iso(p3At) });
    assert.equal(r.recheckAt, p3At + DELETION_TIMEOUT_MS);
    assert.deepEqual(
      r.events.filter((e) => e.reason === 'NotDeleted').map((e) => [e.pod, e.message]),
      [['p2', "Pod was expected by PDB default/default to be deleted but it wasn't"]],
    );
  });

  it('countHealthyPods: an entry exactly at its expiry no longer hides the pod', () => {
    const at = NOW - DELETION_TIMEOUT_MS;
    assert.equal(countHealthyPods([pod('a')], { a: iso(at) }, NOW), 1);
    assert.equal(countHealthyPods([pod('a')], { a: iso(at + 1000) }, NOW), 0);
  });

  it('TestStatusForUnmanagedPod: unmanaged pods are reported with an UnmanagedPods event', () => {
    const r = pdbStatus(pdb({ minAvailable: '50%' }), [pod('unmanaged')], lookup, NOW);
    assert.ok(r.ok);
    assert.deepEqual(r.unmanagedPods, ['unmanaged']);
    assert.deepEqual(
      r.events.map((e) => e.reason),
      ['UnmanagedPods'],
    );
  });

  it('emits NoPods when the selector matches nothing', () => {
    const r = pdbStatus(pdb({ minAvailable: 1 }), [], noControllers, NOW);
    assert.ok(r.ok);
    assert.deepEqual(r.events, [
      { type: 'Normal', reason: 'NoPods', message: 'No matching pods found' },
    ]);
  });
});

describe('pdbStatus failures (failSafe)', () => {
  const stored = {
    observedGeneration: 1,
    disruptionsAllowed: 2,
    currentHealthy: 3,
    desiredHealthy: 1,
    expectedPods: 3,
  };
  const cases: {
    name: string;
    pdb: PodDisruptionBudget;
    pods: Pod[];
    error: string | RegExp;
    events?: unknown;
  }[] = [
    {
      name: 'controller reference that resolves to nothing',
      pdb: pdb({ minAvailable: '50%', status: stored }),
      pods: [pod('orphan', { owner: refTo(workload('ReplicaSet', 'gone', 1)) })],
      error: 'found no controllers for pod "orphan"',
      events: [
        {
          type: 'Warning',
          reason: 'NoControllers',
          message: 'found no controllers for pod "orphan"',
        },
        {
          type: 'Warning',
          reason: 'CalculateExpectedPodCountFailed',
          message:
            'Failed to calculate the number of expected pods: found no controllers for pod "orphan"',
        },
      ],
    },
    {
      name: 'percentage that does not parse',
      pdb: pdb({ maxUnavailable: 'ten%', status: stored }),
      pods: pods(1, { owner: refTo(rs10) }),
      error:
        'invalid value for IntOrString: invalid value "ten%": strconv.Atoi: parsing "ten": invalid syntax',
    },
    {
      name: 'TestInvalidSelectors: illegal operator',
      pdb: pdb({
        minAvailable: 1,
        status: stored,
        selector: { matchExpressions: [{ key: 'foo', operator: 'illegal', values: ['bar'] }] },
      }),
      pods: pods(1),
      error: /illegal/,
    },
    {
      name: 'TestInvalidSelectors: illegal key',
      pdb: pdb({
        minAvailable: 1,
        status: stored,
        selector: { matchLabels: { 'k8s.io/too/many/slashes': 'value' } },
      }),
      pods: pods(1),
      error: /too\/many\/slashes/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = pdbStatus(c.pdb, c.pods, lookup, NOW);
      assert.equal(r.ok, false);
      if (r.ok) return;
      if (c.events) assert.deepEqual(r.events, c.events);
      if (typeof c.error === 'string') assert.equal(r.error, c.error);
      else assert.match(r.error, c.error);
      assert.deepEqual(r.status, {
        ...stored,
        disruptionsAllowed: 0,
        conditions: [
          {
            type: 'DisruptionAllowed',
            status: 'False',
            observedGeneration: 1,
            lastTransitionTime: iso(NOW),
            reason: 'SyncFailed',
            message: r.error,
          },
        ],
      });
    });
  }
});

describe('pdbStatus properties', () => {
  const intOrPercent = fc.oneof(
    fc.integer({ min: 0, max: 12 }),
    fc.integer({ min: 0, max: 150 }).map((n) => `${n}%`),
  );
  const podArb = fc.record({
    ready: fc.boolean(),
    deleting: fc.boolean(),
    disrupted: fc.option(fc.integer({ min: -5 * 60_000, max: 0 }), { nil: undefined }),
  });
  const arb = fc.record({
    spec: fc.oneof(
      fc.record({ minAvailable: intOrPercent }),
      fc.record({ maxUnavailable: intOrPercent }),
    ),
    replicas: fc.integer({ min: 0, max: 12 }),
    pods: fc.array(podArb, { maxLength: 12 }),
  });

  it('disruptionsAllowed is never negative and never exceeds currentHealthy', () => {
    fc.assert(
      fc.property(arb, ({ spec, replicas, pods: ps }) => {
        const rs = workload('ReplicaSet', 'rs', replicas);
        const disruptedPods: Record<string, string> = {};
        const objs = ps.map((p, i) => {
          if (p.disrupted !== undefined) disruptedPods[`p${i}`] = iso(NOW + p.disrupted);
          return pod(`p${i}`, { ready: p.ready, deleting: p.deleting, owner: refTo(rs) });
        });
        const r = pdbStatus(
          pdb({ ...spec, status: { disruptedPods } }),
          objs,
          controllerScaleFromObjects({ replicaSets: [rs] }),
          NOW,
        );
        assert.ok(r.status.disruptionsAllowed >= 0);
        if (!r.ok) return;
        assert.ok(r.status.disruptionsAllowed <= r.status.currentHealthy);
        assert.ok(r.status.desiredHealthy >= 0);
        if (r.status.disruptionsAllowed > 0) {
          assert.equal(
            r.status.disruptionsAllowed,
            r.status.currentHealthy - r.status.desiredHealthy,
          );
        }
      }),
    );
  });
});
