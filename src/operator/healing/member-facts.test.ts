/**
 * The member definitions the planner relies on: down, downSince, readySince, stuck time,
 * image/config waits, awaiting the scheduler and "disk made for its pod".
 */

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { memberFacts } from './member-facts.js';
import { claim, MIN, node, pod, SEC, T0, WORKLOAD_UID } from './testing/fixtures.js';
import type { MemberObservation } from './types.js';

const rows: {
  name: string;
  m: MemberObservation;
  down: boolean;
  downSince?: number;
  readySince?: number;
  awaits?: boolean;
  /** Scheduler-decided: bound, or PodScheduled=False/Unschedulable (Go `scheduleDecided`). */
  decided?: boolean;
}[] = [
  {
    name: 'Ready pod on a Ready node',
    m: { ordinal: 0, pod: pod(0, { since: T0 - MIN }), node: node(0) },
    down: false,
    readySince: T0 - MIN,
    decided: true,
  },
  { name: 'no pod', m: { ordinal: 0 }, down: true },
  {
    name: 'Ready=False since its transition',
    m: { ordinal: 0, pod: pod(0, { ready: false, since: T0 - 3 * MIN }) },
    down: true,
    downSince: T0 - 3 * MIN,
    decided: true,
  },
  {
    name: 'no Ready condition: since creation',
    m: { ordinal: 0, pod: pod(0, { noReadyCondition: true, createdAt: T0 - 2 * MIN }) },
    down: true,
    downSince: T0 - 2 * MIN,
    decided: true,
  },
  {
    name: 'terminating while Ready: since the delete request',
    m: { ordinal: 0, pod: pod(0, { since: T0 - 9 * MIN, deletionAt: T0, graceSeconds: 30 }) },
    down: true,
    downSince: T0 - 30 * SEC,
  },
  {
    name: 'Ready pod on a gone node',
    m: {
      ordinal: 0,
      pod: pod(0, { since: T0 - 9 * MIN }),
      node: node(0, { exists: false, notReadySince: T0 - MIN }),
    },
    down: true,
    downSince: T0 - MIN,
    decided: true,
  },
  {
    name: 'Ready without a transition time is not stable',
    m: { ordinal: 0, pod: pod(0) },
    down: false,
    decided: true,
  },
  {
    name: 'unscheduled pod awaits the scheduler',
    m: { ordinal: 0, pod: pod(0, { ready: false, since: T0, nodeName: null }) },
    down: true,
    downSince: T0,
    awaits: true,
  },
  {
    name: 'an Unschedulable pod is decided: the scheduler found no node for it',
    m: {
      ordinal: 0,
      pod: pod(0, { ready: false, since: T0, nodeName: null, unschedulableSince: T0 - MIN }),
    },
    down: true,
    downSince: T0,
    awaits: true,
    decided: true,
  },
  {
    name: 'an Unschedulable pod being deleted is undecided: its successor is not tried yet',
    m: {
      ordinal: 0,
      pod: pod(0, {
        ready: false,
        nodeName: null,
        unschedulableSince: T0 - MIN,
        deletionAt: T0 + MIN,
        graceSeconds: 30,
      }),
    },
    down: true,
    downSince: undefined,
  },
  {
    name: 'a bound pod being deleted is undecided',
    m: { ordinal: 0, pod: pod(0, { since: T0 - 9 * MIN, deletionAt: T0 + MIN }) },
    down: true,
    downSince: T0 + MIN - 30 * SEC,
  },
];

for (const r of rows) {
  it(r.name, () => {
    const f = memberFacts(r.m, WORKLOAD_UID);
    assert.equal(f.down, r.down);
    assert.equal(f.ready, !r.down);
    assert.equal(f.downSince, r.downSince);
    assert.equal(f.readySince, r.readySince);
    assert.equal(f.awaitsScheduler, r.awaits ?? false);
    assert.equal(f.scheduleDecided, r.decided ?? false);
  });
}

it('a pod another controller owns is no pod: neither its node nor its schedule counts', () => {
  const f = memberFacts(
    { ordinal: 0, pod: pod(0, { since: T0 - MIN, owner: 'stray' }), node: node(0) },
    WORKLOAD_UID,
  );
  assert.equal(f.pod, undefined);
  assert.equal(f.node, undefined);
  assert.equal(f.scheduleDecided, false);
});

it('stuck time is the deletionTimestamp (grace included) + 2 min', () => {
  const f = memberFacts({ ordinal: 0, pod: pod(0, { deletionAt: T0 }) }, WORKLOAD_UID);
  assert.equal(f.forceDeleteAt, T0 + 2 * MIN);
});

it('disk made for its pod: at most 60 s older than the pod', () => {
  const made = (age: number) =>
    memberFacts(
      { ordinal: 0, pod: pod(0, { createdAt: T0 }), claim: claim(0, { createdAt: T0 - age }) },
      WORKLOAD_UID,
    ).diskMadeForPod;
  assert.deepEqual(
    [made(-SEC), made(0), made(60 * SEC), made(61 * SEC)],
    [true, true, true, false],
  );
});
