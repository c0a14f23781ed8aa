/**
 * A node dies under a PersistentFleet on node-local (hostpath) disks, on a whole simulated
 * cluster and one fake clock (docs/design/operator.md §6.1, §6.5):
 * 1. the member pod deleted while its kubelet is silent stays terminating; the operator
 *    force-deletes it at deletionTimestamp + 2 min (grace 0), not at + 2 min − 1 s, with event
 *    `MemberForceDeleted`, and the member keeps its claim (same UID);
 * 2. its successor cannot be scheduled (its disk is pinned to the dead, tainted node); with a
 *    second member down nothing is replaced however long, and once the successor has been
 *    Unschedulable for the 10 min delay the fleet is Blocked `MemberUnschedulable` with the
 *    docs/design/operator.md §6.5 message and one Warning event; the node's return clears it with
 *    one Normal event.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import { RESOURCES } from '../../controller/context.js';
import {
  condition,
  type FleetCluster,
  isPodReady,
  msOf,
  NAMESPACE,
  nodeOf,
  podName,
  STEP_MS,
  startFleetCluster,
  untilFleetReady,
} from './testing/fake-cluster.js';
import { driveTo, uidOf } from './testing/members.js';

const DELAY_MS = 10 * 60_000;
const MARGIN_MS = 2 * 60_000;
const ACT_WITHIN_MS = 10_000;

describe('a member on a dead node', () => {
  let c: FleetCluster;
  let fleetUid: string | undefined;
  let deadNode: string;
  const claimUids = new Map<number, string | undefined>();
  /** The operator's events on the fleet, as [type, reason]. */
  const fleetEvents = () =>
    c.h.events.events
      .filter((e) => e.object.metadata?.uid === fleetUid)
      .map((e) => [e.type, e.reason]);

  before(async () => {
    c = await startFleetCluster();
    await c.createFleet({ replicas: 3, storageClassName: 'standard' });
    await untilFleetReady(c);
    fleetUid = uidOf(await c.fleet());
    for (const o of [0, 1, 2]) claimUids.set(o, uidOf(await c.claim(o)));
    const node = nodeOf(await c.pod(2));
    if (node === undefined) throw new Error('member 2 is not bound');
    deadNode = node;
  });
  after(() => c.close());

  it('force-deletes a pod stuck terminating at deletionTimestamp + 2 min; the disk is kept', async () => {
    await c.setNodeState(deadNode, 'down');
    await c.drive(2 * STEP_MS);
    const victim = await c.pod(2);
    await c.h.client.delete(
      { ...RESOURCES.pods, namespace: NAMESPACE, name: podName(2) },
      { preconditions: { uid: uidOf(victim) ?? '' } },
    );
    const terminating = await c.pod(2);
    const deletionAt = msOf(terminating?.metadata?.deletionTimestamp);
    // The template's 30 s grace is inside deletionTimestamp
    // (docs/design/operator.md §6.1: grace + 2 min in total).
    assert.equal(deletionAt - c.clock.now(), 30_000);

    await driveTo(c, deletionAt + MARGIN_MS - STEP_MS);
    const stuck = await c.pod(2);
    assert.equal(uidOf(stuck), uidOf(victim), 'the dead kubelet never confirmed termination');
    assert.ok(stuck?.metadata?.deletionTimestamp);
    assert.deepEqual(c.events('MemberForceDeleted'), []);

    const goneAt = await c.driveUntil(
      'stuck pod force-deleted',
      async () => uidOf(await c.pod(2)) !== uidOf(victim) && c.clock.now(),
      ACT_WITHIN_MS,
    );
    assert.ok(goneAt >= deletionAt + MARGIN_MS, `force-deleted at ${formatTime(goneAt)}`);
    assert.deepEqual(c.events('MemberForceDeleted'), [
      {
        type: 'Warning',
        message: `Force-deleted Pod ${podName(2)}: its node has not confirmed termination; the member returns on its own disk`,
      },
    ]);
    assert.equal(uidOf(await c.claim(2)), claimUids.get(2), 'the member keeps its disk');
  });

  it('replaces nobody while two are down and blocks on the unschedulable one', async () => {
    const pending = await c.driveUntil(
      'successor Unschedulable',
      async () => {
        const p = await c.pod(2);
        return condition(p, 'PodScheduled')?.reason === 'Unschedulable' && p;
      },
      120_000,
    );
    assert.equal(nodeOf(pending), undefined);
    const since = msOf(condition(pending, 'PodScheduled')?.lastTransitionTime);
    await c.setPodReady(0, false);
    await c.driveUntil('member 0 down', async () => !isPodReady(await c.pod(0)), 30_000);

    await driveTo(c, since + DELAY_MS - STEP_MS);
    assert.notEqual((await c.status()).state, 'Blocked', 'not blocked before the delay');
    const blockedAt = await c.driveUntil(
      'Blocked',
      async () => (await c.status()).state === 'Blocked' && c.clock.now(),
      ACT_WITHIN_MS,
    );
    assert.ok(blockedAt >= since + DELAY_MS);
    const status = await c.status();
    const blocked = condition({ status } as KubeObject, 'Blocked');
    const schedulerMessage = String(
      (condition(await c.pod(2), 'PodScheduled') as { message?: string } | undefined)?.message,
    );
    assert.equal(blocked?.reason, 'MemberUnschedulable');
    assert.equal(
      (blocked as { message?: string } | undefined)?.message,
      `Member ${podName(2)} has not been scheduled since ${formatTime(since)}: ${schedulerMessage}; it is not replaced while member ${podName(0)} is also down`,
    );
    const blockedSince = status.blockedSince;

    // Long past both members' due times: still nothing replaced, still one Warning.
    await c.drive(3 * 60_000);
    for (const o of [0, 2]) assert.equal(uidOf(await c.claim(o)), claimUids.get(o));
    assert.deepEqual(c.events('MemberReplaced'), []);
    assert.equal((await c.status()).blockedSince, blockedSince, 'blockedSince kept');
    assert.deepEqual(fleetEvents(), [
      ['Warning', 'MemberForceDeleted'],
      ['Warning', 'MemberUnschedulable'],
    ]);

    await c.setNodeState(deadNode, 'up');
    await c.driveUntil('member 2 back', async () => isPodReady(await c.pod(2)), 180_000);
    await c.driveUntil(
      'block cleared',
      async () => (await c.status()).state !== 'Blocked',
      ACT_WITHIN_MS,
    );
    const cleared = await c.status();
    assert.equal(cleared.blockedSince, undefined);
    assert.equal(condition({ status: cleared } as KubeObject, 'Blocked')?.status, 'False');
    const events = fleetEvents();
    assert.equal(events.length, 3, JSON.stringify(events));
    assert.equal(events[2]?.[0], 'Normal', 'the clearing is a Normal event');
    assert.equal(uidOf(await c.claim(2)), claimUids.get(2), 'member 2 returned on its own disk');
  });
});
