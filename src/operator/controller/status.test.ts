/**
 * The status funnel, table-driven: `fleetStatus` (the five conditions and `state` per outcome
 * kind, `readyReplicas` held at 0 until the workload controller has seen the current
 * generation, `blockedSince` kept across blocked reconciles and dropped after, member rows
 * from the healing table or from the live pods), `blockedChange` (one event per change of
 * the Blocked condition or its reason), `statusChanged`, and `withRequeue`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import type { CelldFleetStatus } from '../api/types.js';
import type { MemberStatusRow } from '../healing/types.js';
import { type Outcome, type OutcomeKind, outcome, withRequeue } from './outcome.js';
import { blockedChange, fleetStatus, statusChanged } from './status.js';
import { FLEET_UID, fleetObject, observation } from './testing/observation.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const EARLIER = NOW - 3_600_000;
const SPEC = { profile: 'PersistentFleet', replicas: 3 };

type Cond = {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime?: string;
};

function cond(status: CelldFleetStatus, type: string): Cond | undefined {
  return (status.conditions as Cond[] | undefined)?.find((c) => c.type === type);
}

function statefulSet(ready: number, generation = 1, observedGeneration = 1): KubeObject {
  return {
    kind: 'StatefulSet',
    metadata: { name: 'orders', generation, uid: 'set-uid' },
    spec: { replicas: 3 },
    status: { observedGeneration, readyReplicas: ready, replicas: 3 },
  };
}

function pod(
  name: string,
  opts: {
    ready?: boolean;
    uid?: string;
    phase?: string;
    node?: string;
    deleting?: boolean;
    /** The controller's UID; the StatefulSet's by default, `null` for none. */
    owner?: string | null;
  } = {},
): KubeObject {
  const owner = opts.owner === undefined ? 'set-uid' : opts.owner;
  return {
    metadata: {
      name,
      labels: { 'celld.fleetyard.dev/fleet-uid': opts.uid ?? FLEET_UID },
      ...(opts.deleting ? { deletionTimestamp: formatTime(EARLIER) } : {}),
      ...(owner === null
        ? {}
        : {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'StatefulSet',
                name: 'orders',
                uid: owner,
                controller: true,
              },
            ],
          }),
    },
    spec: opts.node ? { nodeName: opts.node } : {},
    status: {
      phase: opts.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  };
}

function statusOf(
  o: Outcome,
  opts: {
    previous?: CelldFleetStatus;
    workload?: KubeObject;
    pods?: KubeObject[];
    deleting?: boolean;
  } = {},
): CelldFleetStatus {
  const fleet = fleetObject(
    SPEC,
    opts.deleting ? { deletionTimestamp: formatTime(EARLIER) } : {},
    opts.previous as Record<string, unknown> | undefined,
  );
  const obs = observation(fleet, {
    ...(opts.workload ? { workload: opts.workload } : {}),
    pods: opts.pods ?? [],
    node: (name) => ({ name, exists: true, ready: true, zone: `zone-of-${name}` }),
  });
  return fleetStatus({ fleet, observation: obs, outcome: o, now: NOW });
}

const OUTCOMES: Record<OutcomeKind, Outcome> = {
  ready: outcome.ready('Workload rolled out and all replicas ready'),
  progress: outcome.progress('Provisioning', 'Waiting for ready replicas'),
  blocked: outcome.blocked('MemberUnschedulable', 'Member orders-2 has not been scheduled'),
  paused: { kind: 'paused', reason: 'MaintenancePaused', message: 'Workload changes suspended' },
  deleting: { kind: 'deleting', reason: 'LifecycleProgress', message: 'Deleting workload' },
};

describe('fleetStatus: conditions per outcome kind', () => {
  const table: {
    kind: OutcomeKind;
    state: string;
    /** Ready, Progressing, Blocked, MaintenancePaused, Deleting. */
    flags: [string, string, string, string, string];
  }[] = [
    { kind: 'ready', state: 'Ready', flags: ['True', 'False', 'False', 'False', 'False'] },
    { kind: 'progress', state: 'Progressing', flags: ['False', 'True', 'False', 'False', 'False'] },
    { kind: 'blocked', state: 'Blocked', flags: ['False', 'False', 'True', 'False', 'False'] },
    { kind: 'paused', state: 'Paused', flags: ['False', 'False', 'False', 'True', 'False'] },
    { kind: 'deleting', state: 'Deleting', flags: ['False', 'False', 'False', 'False', 'True'] },
  ];
  for (const row of table) {
    it(row.kind, () => {
      const allReady = row.kind === 'ready';
      const s = statusOf(OUTCOMES[row.kind], {
        workload: statefulSet(allReady ? 3 : 2),
        deleting: row.kind === 'deleting',
      });
      assert.equal(s.state, row.state);
      const types = ['Ready', 'Progressing', 'Blocked', 'MaintenancePaused', 'Deleting'];
      assert.deepEqual(
        types.map((t) => cond(s, t)?.status),
        row.flags,
      );
      const o = OUTCOMES[row.kind];
      assert.equal(
        cond(s, 'Ready')?.message,
        allReady ? '3 of 3 members ready' : `2 of 3 members ready: ${o.message}`,
      );
      assert.equal(cond(s, 'Ready')?.reason, allReady ? 'Provisioned' : o.reason);
      assert.equal(cond(s, 'Progressing')?.reason, o.reason);
      assert.equal(cond(s, 'Blocked')?.message, o.message);
      assert.equal(s.blockedSince, row.kind === 'blocked' ? formatTime(NOW) : undefined);
      assert.equal(s.observedGeneration, 1);
      assert.equal(
        s.labelSelector,
        `celld.fleetyard.dev/fleet=orders,celld.fleetyard.dev/fleet-uid=${FLEET_UID}`,
      );
    });
  }
});

describe('fleetStatus: readyReplicas', () => {
  const table: { name: string; workload?: KubeObject; want: number }[] = [
    { name: 'no workload', want: 0 },
    { name: 'observed', workload: statefulSet(3, 4, 4), want: 3 },
    { name: 'observedGeneration behind', workload: statefulSet(3, 5, 4), want: 0 },
    { name: 'observedGeneration ahead (a racing cache)', workload: statefulSet(2, 4, 5), want: 2 },
  ];
  for (const row of table) {
    it(row.name, () => {
      const s = statusOf(OUTCOMES.progress, row.workload ? { workload: row.workload } : {});
      assert.equal(s.readyReplicas, row.want);
    });
  }
  it('a not-yet-observed workload never reports Ready, even with every replica ready', () => {
    const s = statusOf(OUTCOMES.ready, { workload: statefulSet(3, 2, 1) });
    assert.equal(cond(s, 'Ready')?.status, 'False');
  });
});

describe('fleetStatus: blockedSince', () => {
  const blockedBefore = statusOf(OUTCOMES.blocked);
  const since = formatTime(EARLIER);
  const table: { name: string; previous?: CelldFleetStatus; o: Outcome; want?: string }[] = [
    { name: 'first blocked reconcile stamps now', o: OUTCOMES.blocked, want: formatTime(NOW) },
    {
      name: 'kept across blocked reconciles',
      previous: { ...blockedBefore, blockedSince: since },
      o: OUTCOMES.blocked,
      want: since,
    },
    {
      name: 'kept when the blocked reason changes',
      previous: { ...blockedBefore, blockedSince: since },
      o: outcome.blocked('ServiceAccountMissing', 'gone'),
      want: since,
    },
    {
      name: 'cleared once no longer blocked',
      previous: { ...blockedBefore, blockedSince: since },
      o: OUTCOMES.progress,
    },
    {
      name: 'a stale blockedSince under Blocked=False is not reused',
      previous: { ...statusOf(OUTCOMES.progress), blockedSince: since },
      o: OUTCOMES.blocked,
      want: formatTime(NOW),
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const s = statusOf(row.o, row.previous ? { previous: row.previous } : {});
      assert.equal(s.blockedSince, row.want);
    });
  }

  it('keeps a condition transition time while its status holds', () => {
    const previous = statusOf(OUTCOMES.blocked);
    const fleet = fleetObject(SPEC, {}, previous);
    const later = fleetStatus({
      fleet,
      observation: observation(fleet),
      outcome: OUTCOMES.blocked,
      now: NOW + 60_000,
    });
    assert.equal(cond(later, 'Blocked')?.lastTransitionTime, formatTime(NOW));
  });
});

describe('fleetStatus: member rows', () => {
  const full: MemberStatusRow = {
    ordinal: 1,
    pod: 'orders-1',
    ready: false,
    node: 'n1',
    zone: 'local-a',
    claim: 'data-orders-1',
    claimPhase: 'Bound',
    downSince: formatTime(EARLIER),
    replacementDue: formatTime(NOW),
    note: 'member orders-1 is down',
  };
  const empty: MemberStatusRow = {
    ordinal: 2,
    pod: null,
    ready: false,
    node: null,
    zone: null,
    claim: null,
    claimPhase: 'Released',
    downSince: null,
    replacementDue: null,
  };

  it('compacts the healing table: nulls and unknown claim phases dropped, pod name defaulted', () => {
    const s = statusOf({ ...OUTCOMES.progress, members: [full, empty] });
    assert.deepEqual(s.members, [
      {
        pod: 'orders-1',
        ready: false,
        ordinal: 1,
        node: 'n1',
        zone: 'local-a',
        claim: 'data-orders-1',
        claimPhase: 'Bound',
        downSince: formatTime(EARLIER),
        replacementDue: formatTime(NOW),
        note: 'member orders-1 is down',
      },
      { pod: 'orders-2', ready: false, ordinal: 2 },
    ]);
  });

  it('without a table: one row per member pod of this incarnation, by name', () => {
    const pods = [
      pod('orders-1', { node: 'n2' }),
      pod('orders-0', { ready: false }),
      pod('orders-2', { deleting: true, node: 'n3' }),
      pod('orders-9', { phase: 'Succeeded' }),
      pod('orders-7', { uid: 'an-older-fleet' }),
      pod('orders-debug', { owner: null, node: 'n1' }),
      pod('orders-5', { owner: 'another-set', node: 'n1' }),
    ];
    const s = statusOf(OUTCOMES.progress, { pods, workload: statefulSet(2) });
    assert.deepEqual(s.members, [
      { pod: 'orders-0', ready: false },
      { pod: 'orders-1', ready: true, node: 'n2', zone: 'zone-of-n2' },
      { pod: 'orders-2', ready: false, node: 'n3', zone: 'zone-of-n3' },
    ]);
    assert.equal(
      s.replicas,
      3,
      'terminating members count; finished, older-incarnation and stray pods do not',
    );
  });

  it('no pods and no table: no members field', () => {
    assert.equal(statusOf(OUTCOMES.progress).members, undefined);
  });

  it('at most 100 rows', () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ ...empty, ordinal: i }));
    assert.equal(statusOf({ ...OUTCOMES.progress, members: rows }).members?.length, 100);
  });
});

describe('statusChanged', () => {
  it('false for the same status, true for any difference', () => {
    const s = statusOf(OUTCOMES.progress);
    const fleet = fleetObject(SPEC, {}, s);
    assert.equal(statusChanged(fleet, structuredClone(s)), false);
    assert.equal(statusChanged(fleet, { ...s, readyReplicas: 1 }), true);
    assert.equal(statusChanged(fleetObject(SPEC), s), true);
  });
});

describe('blockedChange', () => {
  const blockedA = statusOf(outcome.blocked('MemberUnschedulable', 'member 2 unplaceable'));
  const blockedB = statusOf(outcome.blocked('ServiceAccountMissing', 'no account'));
  const progress = statusOf(OUTCOMES.progress);
  const table: {
    name: string;
    before: CelldFleetStatus | undefined;
    after: CelldFleetStatus;
    want: ReturnType<typeof blockedChange>;
  }[] = [
    {
      name: 'first status, blocked',
      before: undefined,
      after: blockedA,
      want: { blocked: true, reason: 'MemberUnschedulable', message: 'member 2 unplaceable' },
    },
    { name: 'first status, not blocked', before: undefined, after: progress, want: undefined },
    { name: 'still blocked, same reason', before: blockedA, after: blockedA, want: undefined },
    {
      name: 'still blocked, new reason',
      before: blockedA,
      after: blockedB,
      want: { blocked: true, reason: 'ServiceAccountMissing', message: 'no account' },
    },
    {
      name: 'cleared',
      before: blockedA,
      after: progress,
      want: { blocked: false, reason: 'Provisioning', message: 'Waiting for ready replicas' },
    },
    { name: 'still not blocked', before: progress, after: progress, want: undefined },
    { name: 'no Blocked condition after', before: blockedA, after: {}, want: undefined },
  ];
  for (const row of table) {
    it(row.name, () => assert.deepEqual(blockedChange(row.before, row.after), row.want));
  }
});

describe('withRequeue', () => {
  const base = OUTCOMES.progress;
  const table: { name: string; o: Outcome; ms: number | undefined; want: number | undefined }[] = [
    { name: 'nothing to add', o: base, ms: undefined, want: undefined },
    { name: 'first due time', o: base, ms: 5_000, want: 5_000 },
    {
      name: 'the earlier wins (new)',
      o: { ...base, requeueAfterMs: 9_000 },
      ms: 5_000,
      want: 5_000,
    },
    {
      name: 'the earlier wins (kept)',
      o: { ...base, requeueAfterMs: 2_000 },
      ms: 5_000,
      want: 2_000,
    },
    { name: 'a due time now becomes 1 ms', o: base, ms: 0, want: 1 },
    { name: 'a past due time becomes 1 ms', o: base, ms: -500, want: 1 },
  ];
  for (const row of table) {
    it(row.name, () => {
      const got = withRequeue(row.o, row.ms);
      assert.equal(got.requeueAfterMs, row.want);
      assert.equal(got.message, row.o.message, 'the outcome itself is unchanged');
    });
  }
  it('returns the same object when there is nothing to add', () => {
    assert.equal(withRequeue(base, undefined), base);
  });
});
