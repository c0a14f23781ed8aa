import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolumeClaim } from '../../api/model/index.js';
import { type PlanAction, type PlanInput, planStatefulSet, statusOf } from './plan.js';
import { maxUnavailableOf } from './plan-update.js';
import {
  makeClaim,
  makePod,
  makeSet,
  NOW,
  type PodState,
  type SetOptions,
} from './testing/plan-fixtures.js';

/** Pods as `ordinal → [revision, state]`. */
type PodsSpec = Record<number, [string, PodState] | [string, PodState, number]>;

interface Case {
  name: string;
  set: SetOptions;
  pods: PodsSpec;
  claims?: PersistentVolumeClaim[];
  update?: string;
  gate?: boolean;
  want: string[];
  waiting?: string;
  errors?: string[];
}

function describeAction(a: PlanAction): string {
  switch (a.type) {
    case 'createClaim':
      return `claim ${a.claim.metadata?.name} for ${a.podName}`;
    case 'createPod':
      return `create ${a.pod.metadata?.name}@${a.pod.metadata?.labels?.['controller-revision-hash']}`;
    case 'deletePod':
      return `delete ${a.podName} (${a.reason})`;
    case 'updatePod':
      return `update ${a.pod.metadata?.name}`;
    case 'updateClaimRetention':
      return `retention ${a.pod.metadata?.name}`;
  }
}

function inputOf(c: Pick<Case, 'set' | 'pods' | 'claims' | 'update' | 'gate'>): PlanInput {
  const set = makeSet(c.set);
  const pods = Object.entries(c.pods).map(([ord, [rev, state, since]]) =>
    makePod(set, Number(ord), rev, state, since),
  );
  return {
    set,
    pods,
    currentRevision: 'r1',
    updateRevision: c.update ?? 'r1',
    claims: c.claims ?? [],
    now: NOW,
    gates: { maxUnavailableStatefulSet: c.gate ?? false },
  };
}

const cases: Case[] = [
  // OrderedReady scale-up, one step per sync.
  {
    name: 'scale up: first pod',
    set: {},
    pods: {},
    want: ['create web-0@r1'],
    waiting: 'web-0 Created',
  },
  {
    name: 'scale up: waits for Pending web-0',
    set: {},
    pods: { 0: ['r1', 'Pending'] },
    want: [],
    waiting: 'web-0 NotRunningAndReady',
  },
  {
    name: 'scale up: Running but unready blocks',
    set: {},
    pods: { 0: ['r1', 'Running'] },
    want: [],
    waiting: 'web-0 NotRunningAndReady',
  },
  {
    name: 'scale up: next after Ready',
    set: {},
    pods: { 0: ['r1', 'Ready'] },
    want: ['create web-1@r1'],
  },
  {
    name: 'scale up: minReadySeconds not elapsed',
    set: { minReadySeconds: 10 },
    pods: { 0: ['r1', 'Ready', NOW - 5_000] },
    want: [],
    waiting: 'web-0 NotAvailable',
  },
  {
    name: 'scale up: minReadySeconds elapsed',
    set: { minReadySeconds: 10 },
    pods: { 0: ['r1', 'Ready', NOW - 11_000] },
    want: ['create web-1@r1'],
  },
  {
    name: 'scale up: unready predecessor blocks the rest',
    set: { replicas: 4 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Running'] },
    want: [],
    waiting: 'web-1 NotRunningAndReady',
  },
  {
    name: 'ordinals.start: first pod is web-2',
    set: { start: 2, replicas: 2 },
    pods: {},
    want: ['create web-2@r1'],
  },
  // Scale-down.
  {
    name: 'scale down: highest first, one at a time',
    set: { replicas: 1 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'] },
    want: ['delete web-2 (Condemned)'],
  },
  {
    name: 'scale down: waits for the terminating successor',
    set: { replicas: 1 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Terminating'] },
    want: [],
    waiting: 'web-2 Terminating',
  },
  {
    name: 'scale down: blocked by an unready in-range pod',
    set: { replicas: 2 },
    pods: { 0: ['r1', 'Running'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'] },
    want: [],
    waiting: 'web-0 NotRunningAndReady',
  },
  {
    name: 'scale down: the first unhealthy condemned pod may go',
    set: { replicas: 1 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Running'] },
    want: ['delete web-1 (Condemned)'],
  },
  {
    name: 'scale down: an unhealthy condemned pod that is not the first unhealthy blocks',
    set: { replicas: 1 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Running'], 2: ['r1', 'Running'] },
    want: [],
    waiting: 'web-2 NotRunningAndReady',
  },
  {
    name: 'ordinals.start moved up: the pods below the range are condemned',
    set: { start: 1, replicas: 2 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'] },
    want: ['delete web-0 (Condemned)'],
  },
  // Parallel.
  {
    name: 'parallel: all at once',
    set: { policy: 'Parallel' },
    pods: {},
    want: ['create web-0@r1', 'create web-1@r1', 'create web-2@r1'],
  },
  {
    name: 'parallel: unready pods do not block',
    set: { policy: 'Parallel', replicas: 3 },
    pods: { 0: ['r1', 'Pending'] },
    want: ['create web-1@r1', 'create web-2@r1'],
  },
  {
    name: 'parallel: scale down all at once',
    set: { policy: 'Parallel', replicas: 0 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Running'], 2: ['r1', 'Terminating'] },
    want: ['delete web-1 (Condemned)', 'delete web-0 (Condemned)'],
  },
  // Failed pods.
  {
    name: 'failed pod is deleted and blocks',
    set: {},
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Failed'] },
    want: ['delete web-1 (Failed)'],
    waiting: 'web-1 FailedPodReplaced',
  },
  {
    name: 'failed pod, once gone, is recreated',
    set: {},
    pods: { 0: ['r1', 'Ready'] },
    want: ['create web-1@r1'],
  },
  {
    name: 'parallel: a failed pod does not stop the others',
    set: { policy: 'Parallel' },
    pods: { 0: ['r1', 'Failed'], 1: ['r1', 'Ready'] },
    want: ['delete web-0 (Failed)', 'create web-2@r1'],
  },
  // Claims.
  {
    name: 'claims are created before their pod',
    set: { claims: ['www', 'logs'] },
    pods: {},
    claims: [makeClaim('logs-web-0')],
    want: ['claim www-web-0 for web-0', 'create web-0@r1'],
  },
  {
    name: 'a missing claim is recreated for a Pending pod',
    set: { claims: ['www'] },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Pending'] },
    claims: [makeClaim('www-web-0')],
    want: ['claim www-web-1 for web-1'],
    waiting: 'web-1 NotRunningAndReady',
  },
  {
    name: 'a claim being deleted stops the creation',
    set: { claims: ['www'] },
    pods: {},
    claims: [makeClaim('www-web-0', { deletionTimestamp: '2026-01-01T00:00:00Z' })],
    want: [],
    errors: ['pvc www-web-0 is being deleted'],
  },
  {
    name: 'whenScaled Delete: a claim still owned by the old pod waits',
    set: { claims: ['www'], whenScaled: 'Delete' },
    pods: {},
    claims: [
      makeClaim('www-web-0', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: 'old' }],
      }),
    ],
    want: [],
    waiting: 'web-0 StaleClaim',
  },
  // RollingUpdate.
  {
    name: 'rolling update: highest first',
    set: {},
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'] },
    update: 'r2',
    want: ['delete web-2 (Update)'],
  },
  {
    name: 'rolling update: recreated at the update revision',
    set: {},
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'] },
    update: 'r2',
    want: ['create web-2@r2'],
  },
  {
    name: 'rolling update: waits for the updated pod',
    set: {},
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r2', 'Running'] },
    update: 'r2',
    want: [],
    waiting: 'web-2 NotRunningAndReady',
  },
  {
    name: 'rolling update: next one after Ready',
    set: {},
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r2', 'Ready'] },
    update: 'r2',
    want: ['delete web-1 (Update)'],
  },
  {
    name: 'rolling update, parallel: waits for an unavailable updated pod above',
    set: { policy: 'Parallel' },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r2', 'Running'] },
    update: 'r2',
    want: [],
  },
  {
    name: 'partition: pods below it are left alone',
    set: { partition: 2 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r2', 'Ready'] },
    update: 'r2',
    want: [],
  },
  {
    name: 'partition: a deleted pod below it comes back at the current revision',
    set: { partition: 2 },
    pods: { 1: ['r1', 'Ready'], 2: ['r2', 'Ready'] },
    update: 'r2',
    want: ['create web-0@r1'],
  },
  {
    name: 'partition > replicas: nothing is updated, new pods are current',
    set: { partition: 5 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'] },
    update: 'r2',
    want: ['create web-2@r1'],
  },
  {
    name: 'rollingUpdate nil: pods below status.currentReplicas are current',
    set: { partition: null, currentReplicas: 2 },
    pods: { 0: ['r1', 'Ready'] },
    update: 'r2',
    want: ['create web-1@r1'],
  },
  {
    name: 'maxUnavailable without the gate: one at a time',
    set: { replicas: 4, maxUnavailable: 2 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'], 3: ['r1', 'Ready'] },
    update: 'r2',
    want: ['delete web-3 (Update)'],
  },
  {
    name: 'maxUnavailable 2 with the gate',
    set: { replicas: 4, maxUnavailable: 2 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'], 3: ['r1', 'Ready'] },
    update: 'r2',
    gate: true,
    want: ['delete web-3 (Update)', 'delete web-2 (Update)'],
  },
  {
    name: 'maxUnavailable 50% with the gate, parallel, one already unavailable',
    set: { replicas: 4, maxUnavailable: '50%', policy: 'Parallel' },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'], 3: ['r2', 'Running'] },
    update: 'r2',
    gate: true,
    want: ['delete web-2 (Update)'],
  },
  {
    name: 'maxUnavailable with the gate respects the partition',
    set: { replicas: 4, maxUnavailable: 3, partition: 3 },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'], 3: ['r1', 'Ready'] },
    update: 'r2',
    gate: true,
    want: ['delete web-3 (Update)'],
  },
  // OnDelete.
  {
    name: 'OnDelete: never deletes for an update',
    set: { strategy: 'OnDelete' },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'] },
    update: 'r2',
    want: [],
  },
  {
    name: 'OnDelete: a deleted pod comes back at the update revision',
    set: { strategy: 'OnDelete' },
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'] },
    update: 'r2',
    want: ['create web-2@r2'],
  },
  // The forced rollback (docs/design/statefulset.md §9): the template was reverted (update = current = r1), but the
  // broken r2 pod never becomes Ready, so OrderedReady never reaches the update step.
  {
    name: 'forced rollback: reverting the template does not delete the broken pod',
    set: {},
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r2', 'Running'] },
    update: 'r1',
    want: [],
    waiting: 'web-2 NotRunningAndReady',
  },
  {
    name: 'forced rollback: once deleted by hand, it is recreated at the reverted revision',
    set: {},
    pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'] },
    update: 'r1',
    want: ['create web-2@r1'],
  },
];

describe('planStatefulSet', () => {
  for (const c of cases) {
    it(c.name, () => {
      const plan = planStatefulSet(inputOf(c));
      assert.deepEqual(plan.actions.map(describeAction), c.want);
      if (c.waiting !== undefined) {
        assert.equal(`${plan.waiting?.podName} ${plan.waiting?.reason}`, c.waiting);
      }
      assert.deepEqual(plan.errors, c.errors ?? []);
    });
  }

  it('repairs a pod whose identity label was removed', () => {
    const input = inputOf({ set: { replicas: 1 }, pods: { 0: ['r1', 'Ready'] } });
    const pod = input.pods[0];
    assert.ok(pod?.metadata?.labels);
    delete pod.metadata.labels['statefulset.kubernetes.io/pod-name'];
    const plan = planStatefulSet(input);
    assert.deepEqual(plan.actions.map(describeAction), ['update web-0']);
    const action = plan.actions[0];
    assert.equal(
      action?.type === 'updatePod' &&
        action.pod.metadata?.labels?.['statefulset.kubernetes.io/pod-name'],
      'web-0',
    );
  });

  it('asks for the retention fix of in-range and condemned pods', () => {
    const input = inputOf({
      set: { replicas: 1 },
      pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'] },
    });
    const plan = planStatefulSet({ ...input, retentionUpToDate: () => false });
    assert.deepEqual(plan.actions.map(describeAction), [
      'retention web-0',
      'retention web-1',
      'delete web-1 (Condemned)',
    ]);
  });

  it('does nothing while the set is being deleted', () => {
    const input = inputOf({ set: {}, pods: {} });
    if (input.set.metadata) input.set.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    assert.deepEqual(planStatefulSet(input).actions, []);
  });
});

describe('maxUnavailableOf', () => {
  const table: Array<[number | string | undefined, number, number]> = [
    [undefined, 5, 1],
    [3, 5, 3],
    ['50%', 5, 2],
    ['10%', 5, 1],
    ['100%', 4, 4],
    ['1%', 0, 1],
  ];
  for (const [value, replicas, want] of table) {
    it(`${value} of ${replicas} → ${want}`, () =>
      assert.equal(maxUnavailableOf(value, replicas), want));
  }
});

describe('statusOf', () => {
  it('counts pods and advances currentRevision when the rollout completes', () => {
    const input = inputOf({
      set: {},
      pods: { 0: ['r2', 'Ready'], 1: ['r2', 'Ready'], 2: ['r2', 'Ready'] },
      update: 'r2',
    });
    const status = statusOf(input, planStatefulSet(input));
    assert.deepEqual(status, {
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'r2',
      updateRevision: 'r2',
      collisionCount: 0,
    });
  });

  it('mid-rollout: the deleted pod leaves currentReplicas', () => {
    const input = inputOf({
      set: { minReadySeconds: 60 },
      pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready', NOW - 1000], 2: ['r1', 'Ready'] },
      update: 'r2',
    });
    const status = statusOf(input, planStatefulSet(input));
    assert.equal(status.currentRevision, 'r1');
    assert.equal(status.replicas, 3);
    assert.equal(status.readyReplicas, 3);
    assert.equal(status.availableReplicas, 2);
    assert.equal(status.updatedReplicas, 0);
    // web-1 is not available yet, so OrderedReady blocks before the update step.
    assert.equal(status.currentReplicas, 3);
    const ready = inputOf({
      set: {},
      pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Ready'], 2: ['r1', 'Ready'] },
      update: 'r2',
    });
    assert.equal(statusOf(ready, planStatefulSet(ready)).currentReplicas, 2);
  });

  it('OnDelete never advances currentRevision', () => {
    const input = inputOf({
      set: { strategy: 'OnDelete' },
      pods: { 0: ['r2', 'Ready'], 1: ['r2', 'Ready'], 2: ['r2', 'Ready'] },
      update: 'r2',
    });
    assert.equal(statusOf(input, planStatefulSet(input)).currentRevision, 'r1');
  });

  it('terminating pods count as replicas but not as current or updated', () => {
    const input = inputOf({
      set: { replicas: 1 },
      pods: { 0: ['r1', 'Ready'], 1: ['r1', 'Terminating'] },
    });
    const status = statusOf(input, planStatefulSet(input));
    assert.deepEqual([status.replicas, status.readyReplicas, status.currentReplicas], [2, 2, 1]);
  });
});
