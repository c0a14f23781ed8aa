/**
 * Table tests for the healing planner, one table per rule of docs/design/operator.md §6, with the
 * boundaries (9:59 vs 10:00 down, 4:59 vs 5:00 Ready, deletionTimestamp + 1:59 vs 2:00) and
 * the list of cases.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planHealing } from './plan-healing.js';
import { claim, down, healthy, input, MIN, node, pod, SEC, T0 } from './testing/fixtures.js';
import type { HealingInput, MemberObservation } from './types.js';

interface Row {
  name: string;
  in: HealingInput;
  kind?: string;
  ordinal?: number;
  blocked?: RegExp;
  requeueAfterMs?: number;
}

function check(rows: Row[]): void {
  for (const r of rows) {
    it(r.name, () => {
      const plan = planHealing(r.in);
      assert.equal(plan.action?.kind, r.kind, 'action kind');
      if (r.ordinal !== undefined) assert.equal(plan.action?.ordinal, r.ordinal, 'ordinal');
      if (r.blocked === undefined) assert.equal(plan.blocked, undefined, 'not blocked');
      else assert.match(plan.blocked?.message ?? '', r.blocked);
      if (r.requeueAfterMs !== undefined)
        assert.equal(plan.requeueAfterMs, r.requeueAfterMs, 'requeue');
    });
  }
}

const fleet = (...ms: MemberObservation[]) => ms;

describe('rule: one member down past the replacement delay', () => {
  check([
    {
      name: 'down 9:59 is not replaced; wakes 1 s later',
      in: input(fleet(healthy(0), down(1, T0 - 10 * MIN + SEC), healthy(2))),
      requeueAfterMs: SEC,
    },
    {
      name: 'down 10:00 is replaced',
      in: input(fleet(healthy(0), down(1, T0 - 10 * MIN), healthy(2))),
      kind: 'replaceMember',
      ordinal: 1,
    },
    {
      name: 'others Ready 4:59 waits; wakes 1 s later',
      in: input(fleet(healthy(0, T0 - 5 * MIN + SEC), down(1, T0 - 30 * MIN), healthy(2))),
      requeueAfterMs: SEC,
    },
    {
      name: 'others Ready 5:00 replaces',
      in: input(fleet(healthy(0, T0 - 5 * MIN), down(1, T0 - 30 * MIN), healthy(2))),
      kind: 'replaceMember',
      ordinal: 1,
    },
    {
      name: 'a custom delay of 3 min applies',
      in: input(fleet(healthy(0), down(1, T0 - 3 * MIN), healthy(2)), { delayMs: 3 * MIN }),
      kind: 'replaceMember',
    },
    {
      name: 'a delay under 1 min is raised to 1 min',
      in: input(fleet(healthy(0), down(1, T0 - 30 * SEC), healthy(2)), { delayMs: 10 * SEC }),
      requeueAfterMs: 30 * SEC,
    },
    {
      name: 'no Ready condition yet: down since creation',
      in: input(
        fleet(
          healthy(0),
          down(1, 0, { noReadyCondition: true, createdAt: T0 - 10 * MIN }),
          healthy(2),
        ),
      ),
      kind: 'replaceMember',
    },
    {
      name: 'two down replace nothing',
      in: input(fleet(healthy(0), down(1, T0 - 60 * MIN), down(2, T0 - 60 * MIN))),
    },
    {
      name: 'missing pod is down but not replaced',
      in: input(fleet(healthy(0), { ordinal: 1, claim: claim(1) }, healthy(2))),
    },
    {
      name: 'a pod another controller owns counts as missing',
      in: input(
        fleet(
          healthy(0),
          {
            ordinal: 1,
            pod: pod(1, { ready: false, since: T0 - 60 * MIN, owner: 'other' }),
            claim: claim(1),
          },
          healthy(2),
        ),
      ),
    },
    {
      name: 'claim not Bound is not replaced',
      in: input(
        fleet(
          healthy(0),
          { ...down(1, T0 - 60 * MIN), claim: claim(1, { phase: 'Pending' }) },
          healthy(2),
        ),
      ),
    },
    {
      name: 'a Ready pod on a NotReady node is down from the node time',
      in: input(
        fleet(
          healthy(0),
          { ...healthy(1), node: node(1, { ready: false, notReadySince: T0 - 10 * MIN }) },
          healthy(2),
        ),
      ),
      kind: 'replaceMember',
      ordinal: 1,
    },
    {
      name: 'unsettled workload: due but waits',
      in: input(fleet(healthy(0), down(1, T0 - 60 * MIN), healthy(2)), { settled: false }),
    },
  ]);
});

describe('rule: never a member waiting on image or configuration', () => {
  const waiting = (reason: string, init = false) =>
    input(
      fleet(
        healthy(0),
        down(1, T0 - 60 * MIN, init ? { initWaitingReason: reason } : { waitingReason: reason }),
        healthy(2),
      ),
    );
  check([
    { name: 'ErrImagePull', in: waiting('ErrImagePull') },
    { name: 'ImagePullBackOff (unpullable image)', in: waiting('ImagePullBackOff') },
    { name: 'InvalidImageName', in: waiting('InvalidImageName') },
    { name: 'ErrImageNeverPull', in: waiting('ErrImageNeverPull') },
    { name: 'CreateContainerConfigError', in: waiting('CreateContainerConfigError') },
    { name: 'init container ImagePullBackOff', in: waiting('ImagePullBackOff', true) },
    {
      name: 'CrashLoopBackOff is replaceable',
      in: waiting('CrashLoopBackOff'),
      kind: 'replaceMember',
    },
  ]);
});

describe('rule: never a member whose disk was made for its current pod', () => {
  const withDisk = (claimAge: number) =>
    input(
      fleet(
        healthy(0),
        {
          ...down(1, T0 - 60 * MIN, { createdAt: T0 - 61 * MIN }),
          claim: claim(1, { createdAt: T0 - 61 * MIN - claimAge }),
        },
        healthy(2),
      ),
    );
  check([
    { name: 'claim 59 s older than pod: made for it', in: withDisk(59 * SEC) },
    { name: 'claim 60 s older than pod: made for it', in: withDisk(60 * SEC) },
    {
      name: 'claim 61 s older than pod: replaceable',
      in: withDisk(61 * SEC),
      kind: 'replaceMember',
    },
    { name: 'claim newer than pod: made for it', in: withDisk(-5 * SEC) },
  ]);
  it('unknown claim age counts as made for the pod', () => {
    const m = down(1, T0 - 60 * MIN);
    const c = claim(1);
    if (c.metadata) delete c.metadata.creationTimestamp;
    assert.equal(
      planHealing(input(fleet(healthy(0), { ...m, claim: c }, healthy(2)))).action,
      undefined,
    );
  });
});

describe('rule: stuck terminating pod is force-deleted after grace + 2 min', () => {
  const stuck = (since: number, replicas = 3) =>
    input(
      fleet(healthy(0), { ...healthy(1), pod: pod(1, { deletionAt: T0 - since }) }, healthy(2)),
      { replicas },
    );
  check([
    { name: 'deletionTimestamp + 1:59 waits 1 s', in: stuck(2 * MIN - SEC), requeueAfterMs: SEC },
    {
      name: 'deletionTimestamp + 2:00 force-deletes',
      in: stuck(2 * MIN),
      kind: 'forceDeletePod',
      ordinal: 1,
    },
    {
      name: 'still within its grace: waits until grace end + 2 min',
      in: stuck(-30 * SEC),
      requeueAfterMs: 2 * MIN + 30 * SEC,
    },
    {
      name: 'a condemned ordinal is force-deleted too',
      in: stuck(3 * MIN, 1),
      kind: 'forceDeletePod',
      ordinal: 1,
    },
  ]);
  it('deletes with grace 0 and both preconditions, and keeps the disk', () => {
    const a = planHealing(stuck(3 * MIN)).action;
    assert.deepEqual(a?.deletes, [
      {
        kind: 'Pod',
        name: 'fleet-1',
        uid: 'pod-uid-1',
        resourceVersion: '101',
        gracePeriodSeconds: 0,
      },
    ]);
    assert.equal(a?.event.reason, 'MemberForceDeleted');
  });
});

describe('rule: a Lost claim is replaced at once', () => {
  const lost = (o: MemberObservation = healthy(0)) => ({
    ...o,
    claim: claim(o.ordinal, { phase: 'Lost' }),
  });
  check([
    {
      name: 'Lost replaces that member only',
      in: input(fleet(lost(), healthy(1), healthy(2))),
      kind: 'replaceLostDisk',
      ordinal: 0,
    },
    {
      name: 'Lost while two others are down still replaces',
      in: input(fleet(lost(), down(1, T0), down(2, T0))),
      kind: 'replaceLostDisk',
      ordinal: 0,
    },
    {
      name: 'Lost waits while another pod awaits the scheduler (#79)',
      in: input(fleet(lost(), { ...down(1, T0, { nodeName: null }) }, healthy(2))),
    },
    {
      name: 'Lost is replaced at once while another member is Unschedulable (decided, issue 14 #9)',
      in: input(
        fleet(
          lost(),
          down(1, T0 - MIN, { nodeName: null, unschedulableSince: T0 - 30 * SEC }),
          healthy(2),
        ),
      ),
      kind: 'replaceLostDisk',
      ordinal: 0,
    },
    {
      name: 'Lost waits while another member is Unschedulable but terminating',
      in: input(
        fleet(
          lost(),
          down(1, T0 - MIN, { nodeName: null, unschedulableSince: T0, deletionAt: T0 + MIN }),
          healthy(2),
        ),
      ),
    },
    {
      name: 'Lost waits while another member has no pod at all',
      in: input(fleet(lost(), { ordinal: 1, claim: claim(1) }, healthy(2))),
    },
    {
      name: 'Lost waits while the workload is unsettled',
      in: input(fleet(lost(), healthy(1), healthy(2)), { settled: false }),
    },
    {
      name: 'Lost with no pod deletes the claim',
      in: input(fleet({ ordinal: 0, claim: claim(0, { phase: 'Lost' }) }, healthy(1), healthy(2))),
      kind: 'replaceLostDisk',
    },
  ]);
  it('deletes the claim, then the pod, both fenced', () => {
    const a = planHealing(input(fleet(lost(), healthy(1), healthy(2)))).action;
    assert.deepEqual(a?.deletes, [
      {
        kind: 'PersistentVolumeClaim',
        name: 'data-fleet-0',
        uid: 'claim-uid-0',
        resourceVersion: '200',
      },
      { kind: 'Pod', name: 'fleet-0', uid: 'pod-uid-0', resourceVersion: '100' },
    ]);
    assert.equal(a?.event.reason, 'MemberDiskLost');
  });
});

describe('rule: the #79 zone rule for fresh disks', () => {
  check([
    // Another member whose pod awaits the scheduler is also down, so the lone-down rule cannot fire either.
    {
      name: 'down member due, another pod pending: nothing',
      in: input(fleet(healthy(0), down(1, T0 - 60 * MIN), down(2, T0, { nodeName: null }))),
    },
    {
      name: 'a disk being deleted is released while another member is Unschedulable',
      in: input(
        fleet(
          { ...healthy(0), claim: claim(0, { deletionAt: T0 - SEC }) },
          down(1, T0 - MIN, { nodeName: null, unschedulableSince: T0 - 30 * SEC }),
          healthy(2),
        ),
      ),
      kind: 'releaseDisk',
      ordinal: 0,
    },
    {
      name: 'a disk being deleted is not released while another pod awaits the scheduler',
      in: input(
        fleet(
          { ...healthy(0), claim: claim(0, { deletionAt: T0 - SEC }) },
          down(1, T0 - MIN, { nodeName: null }),
          healthy(2),
        ),
      ),
    },
    {
      name: 'pending pod for a due member itself is fine',
      in: input(fleet(healthy(0), down(1, T0 - 60 * MIN, { nodeName: null }), healthy(2))),
      kind: 'replaceMember',
      ordinal: 1,
    },
  ]);
});

describe('Blocked: MemberUnschedulable', () => {
  const twoDown = (unschedFor: number) =>
    input(
      fleet(
        healthy(0),
        down(1, T0 - 60 * MIN, { nodeName: null, unschedulableSince: T0 - unschedFor }),
        down(2, T0 - 60 * MIN),
      ),
    );
  check([
    {
      name: 'unschedulable 9:59 is not yet blocked',
      in: twoDown(10 * MIN - SEC),
      requeueAfterMs: SEC,
    },
    {
      name: 'unschedulable 10:00 blocks, naming the other down member',
      in: twoDown(10 * MIN),
      blocked:
        /^Member fleet-1 has not been scheduled since 2026-11-30T09:50:00Z: 0\/3 nodes.*; it is not replaced while member fleet-2 is also down$/,
    },
    {
      name: 'a lone member with a Pending disk blocks rather than being replaced',
      in: input(
        fleet(
          healthy(0),
          {
            ...down(1, T0 - 60 * MIN, { nodeName: null, unschedulableSince: T0 - 20 * MIN }),
            claim: claim(1, { phase: 'Pending' }),
          },
          healthy(2),
        ),
      ),
      blocked: /^Member fleet-1 has not been scheduled since [^;]*$/,
    },
  ]);
});

describe('preconditions and status', () => {
  it('an object without a resourceVersion is never deleted', () => {
    const m = down(1, T0 - 60 * MIN);
    if (m.pod?.metadata) delete m.pod.metadata.resourceVersion;
    assert.equal(planHealing(input(fleet(healthy(0), m, healthy(2)))).action, undefined);
  });
  it('the status table shows down since and replacement due', () => {
    const plan = planHealing(input(fleet(healthy(0), down(1, T0 - 4 * MIN), healthy(2))));
    const r = plan.memberStatus[1];
    assert.equal(r?.downSince, '2026-11-30T09:56:00Z');
    assert.equal(r?.replacementDue, '2026-11-30T10:06:00Z');
    assert.equal(r?.zone, 'zone-1');
    assert.equal(r?.claimPhase, 'Bound');
    assert.match(
      r?.note ?? '',
      /replaced on a fresh disk at 2026-11-30T10:06:00Z unless it returns/,
    );
    assert.equal(plan.requeueAfterMs, 6 * MIN);
    assert.equal(plan.memberStatus[0]?.ready, true);
  });
  describe('the note of the one down member names every wait that holds', () => {
    const countdown =
      'member fleet-1 is down; it is replaced on a fresh disk at 2026-11-30T10:06:00Z unless it returns';
    const absorb = 'every other member has been Ready for 5 minutes';
    const rows: { name: string; downFor: number; othersReadyFor: number; note: string }[] = [
      {
        name: 'counting down, others stable',
        downFor: 4 * MIN,
        othersReadyFor: 60 * MIN,
        note: countdown,
      },
      {
        name: 'counting down and waiting for the others (issue 14 #11)',
        downFor: 4 * MIN,
        othersReadyFor: 2 * MIN,
        note: `${countdown}, and not before ${absorb}`,
      },
      {
        name: 'due, waiting for the others only',
        downFor: 30 * MIN,
        othersReadyFor: 2 * MIN,
        note: `replaced only after ${absorb}`,
      },
    ];
    for (const r of rows) {
      it(r.name, () => {
        const downSince = T0 - r.downFor;
        const plan = planHealing(
          input(
            fleet(
              healthy(0, T0 - r.othersReadyFor),
              down(1, downSince),
              healthy(2, T0 - r.othersReadyFor),
            ),
          ),
        );
        assert.equal(plan.action, undefined);
        assert.equal(plan.memberStatus[1]?.note, r.note);
      });
    }
  });
  it('an unobserved ordinal still gets a row', () => {
    const plan = planHealing(input(fleet(healthy(0)), { replicas: 2 }));
    assert.deepEqual(
      plan.memberStatus.map((r) => [r.ordinal, r.pod]),
      [
        [0, 'fleet-0'],
        [1, null],
      ],
    );
  });
});
