/**
 * Who counts as a member for the numbers a user and an autoscaler read (issue 14 items 10,
 * 11): `status.replicas` (the `/scale` status) counts the pods the fleet's workload controls,
 * not every pod that matches the selector; the Ready condition's "N of M members ready" never
 * reads more than M, names the members still to be removed during a scale-in, and is not
 * True while a kept member is down behind a ready condemned one; the member table has no row
 * for a stray pod. Table tests plus a fast-check property over random member sets.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import type { CelldFleetStatus } from '../api/types.js';
import type { ResolvedFleet } from '../render/fleet-view.js';
import { memberObservations } from './healing-step.js';
import { controlledBy, memberPods } from './members.js';
import type { FleetObservation } from './observe.js';
import { type Outcome, outcome } from './outcome.js';
import { fleetStatus } from './status.js';
import { FLEET_UID, fleetObject, observation } from './testing/observation.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const SET_UID = 'set-uid';
const WAIT = outcome.progress(
  'Provisioning',
  'Waiting for the previous change to roll out before removing a member',
);

type Kind = FleetObservation['workloadKind'];

interface PodOpts {
  ready?: boolean;
  deleting?: boolean;
  phase?: string;
  fleetUid?: string;
  /** Controller reference: kind, name, uid; `null` for none. */
  owner?: { kind: string; name: string; uid?: string } | null;
  hash?: string;
}

function pod(name: string, o: PodOpts = {}): KubeObject {
  const owner =
    o.owner === undefined ? { kind: 'StatefulSet', name: 'orders', uid: SET_UID } : o.owner;
  return {
    metadata: {
      name,
      labels: {
        'celld.fleetyard.dev/fleet': 'orders',
        'celld.fleetyard.dev/fleet-uid': o.fleetUid ?? FLEET_UID,
        ...(o.hash === undefined ? {} : { 'pod-template-hash': o.hash }),
      },
      ...(o.deleting ? { deletionTimestamp: formatTime(NOW - 1000) } : {}),
      ...(owner === null
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                ...owner,
                uid: owner.uid ?? `${owner.name}-uid`,
                controller: true,
              },
            ],
          }),
    },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

function workload(kind: Kind, replicas: number, ready: number): KubeObject {
  return {
    kind,
    metadata: { name: 'orders', uid: SET_UID, generation: 1 },
    spec: { replicas },
    status: { observedGeneration: 1, readyReplicas: ready, replicas },
  };
}

function statusOf(
  desired: number,
  pods: KubeObject[],
  w: KubeObject | undefined,
  o: Outcome = WAIT,
  kind: Kind = 'StatefulSet',
): CelldFleetStatus {
  const fleet = fleetObject({ profile: 'PersistentFleet', replicas: desired });
  const obs = observation(fleet, { pods, workloadKind: kind, ...(w ? { workload: w } : {}) });
  return fleetStatus({ fleet, observation: obs, outcome: o, now: NOW });
}

function ready(s: CelldFleetStatus): { status: string; message: string } | undefined {
  return (s.conditions as { type: string; status: string; message: string }[]).find(
    (c) => c.type === 'Ready',
  );
}

const members = (n: number, o: PodOpts = {}) =>
  Array.from({ length: n }, (_, i) => pod(`orders-${i}`, o));

describe('status.replicas counts members, not what the selector matches', () => {
  const rs = (name: string) => ({ kind: 'ReplicaSet', name, uid: 'rs-uid' });
  const table: {
    name: string;
    kind?: Kind;
    pods: KubeObject[];
    noWorkload?: boolean;
    want: number;
  }[] = [
    { name: 'three members', pods: members(3), want: 3 },
    {
      name: 'a stray pod with the fleet labels and no owner',
      pods: [...members(3), pod('orders-debug', { owner: null })],
      want: 3,
    },
    {
      name: 'a pod another StatefulSet controls',
      pods: [
        ...members(3),
        pod('orders-3', { owner: { kind: 'StatefulSet', name: 'x', uid: 'x' } }),
      ],
      want: 3,
    },
    {
      name: 'a condemned member still running and a terminating one count (upstream StatefulSet)',
      pods: [...members(3), pod('orders-3'), pod('orders-4', { deleting: true })],
      want: 5,
    },
    {
      name: 'finished pods and an older incarnation do not',
      pods: [
        ...members(2),
        pod('orders-2', { phase: 'Failed' }),
        pod('orders-3', { fleetUid: 'older' }),
      ],
      want: 2,
    },
    { name: 'no workload: no members', pods: members(3), noWorkload: true, want: 0 },
    {
      name: 'Deployment: pods of its ReplicaSets (old and new) count, others do not',
      kind: 'Deployment',
      pods: [
        pod('orders-abc-1', { owner: rs('orders-abc'), hash: 'abc' }),
        pod('orders-def-1', { owner: rs('orders-def'), hash: 'def', deleting: true }),
        pod('orders-x', { owner: rs('orders-other'), hash: 'abc' }),
        pod('orders-y', { owner: rs('orders-abc') }),
        pod('orders-z', { owner: null, hash: 'abc' }),
      ],
      want: 2,
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const kind = row.kind ?? 'StatefulSet';
      const s = statusOf(
        3,
        row.pods,
        row.noWorkload ? undefined : workload(kind, 3, 3),
        WAIT,
        kind,
      );
      assert.equal(s.replicas, row.want);
    });
  }

  it('controlledBy needs a controller reference, not any owner', () => {
    const p = pod('orders-0');
    const ref = p.metadata?.ownerReferences?.[0];
    if (ref) ref.controller = false;
    assert.equal(controlledBy(p, workload('StatefulSet', 3, 3), 'StatefulSet'), false);
  });
});

describe('the Ready message during a scale-in', () => {
  const table: {
    name: string;
    desired: number;
    pods: KubeObject[];
    readyReplicas: number;
    kind?: Kind;
    status: string;
    message: string;
  }[] = [
    {
      name: 'steady: N of N, True',
      desired: 3,
      pods: members(3),
      readyReplicas: 3,
      status: 'True',
      message: '3 of 3 members ready',
    },
    {
      name: 'a scale-in 5 → 4 waits with every member ready',
      desired: 4,
      pods: members(5),
      readyReplicas: 5,
      status: 'False',
      message: `4 of 4 members ready, 1 more pending removal: ${WAIT.message}`,
    },
    {
      name: 'a kept member down is not hidden by the ready condemned one',
      desired: 4,
      pods: [...members(5)].map((p, i) => (i === 2 ? pod('orders-2', { ready: false }) : p)),
      readyReplicas: 4,
      status: 'False',
      message: `3 of 4 members ready, 1 more pending removal: ${WAIT.message}`,
    },
    {
      name: 'the condemned member is down, the kept ones ready',
      desired: 4,
      pods: [...members(4), pod('orders-4', { ready: false })],
      readyReplicas: 4,
      status: 'False',
      message: `4 of 4 members ready, 1 more pending removal: ${WAIT.message}`,
    },
    {
      name: 'the condemned member terminating',
      desired: 4,
      pods: [...members(4), pod('orders-4', { deleting: true })],
      readyReplicas: 5,
      status: 'False',
      message: `4 of 4 members ready, 1 more pending removal: ${WAIT.message}`,
    },
    {
      name: 'two members pending removal',
      desired: 3,
      pods: members(5),
      readyReplicas: 5,
      status: 'False',
      message: `3 of 3 members ready, 2 more pending removal: ${WAIT.message}`,
    },
    {
      name: 'a stray ready pod changes nothing',
      desired: 3,
      pods: [...members(3), pod('orders-3', { owner: null })],
      readyReplicas: 3,
      status: 'True',
      message: '3 of 3 members ready',
    },
    {
      name: 'Deployment: an old pod terminating is pending removal',
      desired: 2,
      kind: 'Deployment',
      pods: [
        pod('orders-a-1', { owner: { kind: 'ReplicaSet', name: 'orders-a' }, hash: 'a' }),
        pod('orders-a-2', { owner: { kind: 'ReplicaSet', name: 'orders-a' }, hash: 'a' }),
        pod('orders-b-1', {
          owner: { kind: 'ReplicaSet', name: 'orders-b' },
          hash: 'b',
          deleting: true,
        }),
      ],
      readyReplicas: 2,
      status: 'False',
      message: `2 of 2 members ready, 1 more pending removal: ${WAIT.message}`,
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const kind = row.kind ?? 'StatefulSet';
      const s = statusOf(
        row.desired,
        row.pods,
        workload(kind, row.pods.length, row.readyReplicas),
        WAIT,
        kind,
      );
      assert.deepEqual(
        { status: ready(s)?.status, message: ready(s)?.message },
        { status: row.status, message: row.message },
      );
      assert.equal(s.readyReplicas, row.readyReplicas, 'readyReplicas stays the workload’s');
    });
  }

  it('never reads more ready than wanted, and is True only with every wanted member ready and nothing to remove', () => {
    const memberArb = fc.record({
      ordinal: fc.integer({ min: 0, max: 7 }),
      ready: fc.boolean(),
      deleting: fc.boolean(),
      stray: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.uniqueArray(memberArb, { selector: (m) => m.ordinal, maxLength: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (desired, ms, lag) => {
          const pods = ms.map((m) =>
            pod(`orders-${m.ordinal}`, {
              ready: m.ready,
              deleting: m.deleting,
              ...(m.stray ? { owner: null } : {}),
            }),
          );
          const owned = ms.filter((m) => !m.stray);
          // The workload's count may lag its pods: anything up to the owned pods.
          const readyReplicas = Math.min(lag, owned.length);
          const s = statusOf(desired, pods, workload('StatefulSet', owned.length, readyReplicas));
          const r = ready(s);
          const [n, m] = (/^(\d+) of (\d+) members ready/.exec(r?.message ?? '') ?? [])
            .slice(1)
            .map(Number);
          assert.equal(m, desired);
          assert.ok(n !== undefined && n <= desired && n <= readyReplicas, r?.message);
          assert.equal(s.replicas, owned.length);
          const surplus = owned.filter((x) => x.ordinal >= desired).length;
          if (r?.status === 'True') {
            assert.equal(surplus, 0);
            assert.equal(n, desired);
            assert.equal(r.message, `${desired} of ${desired} members ready`);
          }
          if (surplus > 0)
            assert.match(r?.message ?? '', new RegExp(`, ${surplus} more pending removal: `));
        },
      ),
      { numRuns: 300 },
    );
  });
});

it('memberPods is what status.replicas counts', () => {
  const fleet = fleetObject({ profile: 'PersistentFleet', replicas: 3 });
  const obs = observation(fleet, {
    pods: [...members(3), pod('orders-debug', { owner: null })],
    workload: workload('StatefulSet', 3, 3),
  });
  assert.deepEqual(
    memberPods(obs).map((p) => p.metadata?.name),
    ['orders-0', 'orders-1', 'orders-2'],
  );
});

it('the member table is built from members: a stray pod adds no row and lends no node', () => {
  const fleet = fleetObject({ profile: 'PersistentFleet', replicas: 2 });
  const withNode = (p: KubeObject, node: string): KubeObject => ({
    ...p,
    spec: { nodeName: node },
  });
  const obs = observation(fleet, {
    pods: [
      withNode(pod('orders-0'), 'n0'),
      withNode(pod('orders-1', { owner: null }), 'n-stray'),
      withNode(pod('orders-7', { owner: null }), 'n-stray'),
    ],
    workload: workload('StatefulSet', 2, 1),
    node: (name) => ({ name, exists: true, ready: true }),
  });
  const resolved = { name: 'orders', uid: FLEET_UID } as ResolvedFleet;
  assert.deepEqual(
    memberObservations(resolved, obs).map((m) => [m.ordinal, m.pod?.metadata?.name, m.node?.name]),
    [[0, 'orders-0', 'n0']],
  );
});
