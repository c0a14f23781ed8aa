/**
 * A Lost claim beside a member the scheduler has found no node for, on a whole simulated
 * cluster and one fake clock (docs/design/operator.md §6.3, §6.6; issue 14 item 9). Member 2
 * runs on node-local (hostpath) disk; its node is cordoned and its pod deleted, so the
 * successor is `PodScheduled=False/Unschedulable` (its disk is pinned to that node). Then
 * member 0's volume is lost. The scheduler has decided member 2 (Go `scheduleDecided`): it
 * holds no zone, so the Lost member is replaced at once (within a few reconciles), not after
 * member 2 is placed; member 2 keeps its disk and returns on it once its node is uncordoned.
 *
 * The real-time e2e would wait on the scheduler's retries and the node-loss timers (minutes);
 * this test runs the same controllers on one fake clock instead.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESOURCES } from '../../controller/context.js';
import { runStorageChaos } from '../../sim/chaos/storage-chaos.js';
import {
  claimName,
  condition,
  type FleetCluster,
  isPodReady,
  NAMESPACE,
  nodeOf,
  podName,
  startFleetCluster,
  untilFleetReady,
} from './testing/fake-cluster.js';
import { uidOf } from './testing/members.js';

/** One reconcile after the claim turns Lost: a handful of 1 s steps at most. */
const ACT_WITHIN_MS = 10_000;

describe('a Lost claim while another member is Unschedulable', () => {
  let c: FleetCluster;
  let cordoned: string;
  const claimUids = new Map<number, string | undefined>();

  const cordon = (unschedulable: boolean) =>
    c.h.client.patch({ ...RESOURCES.nodes, name: cordoned }, { spec: { unschedulable } }, 'merge');

  before(async () => {
    c = await startFleetCluster();
    await c.createFleet({ replicas: 3, storageClassName: 'standard' });
    await untilFleetReady(c);
    for (const o of [0, 1, 2]) claimUids.set(o, uidOf(await c.claim(o)));
    const node = nodeOf(await c.pod(2));
    if (node === undefined) throw new Error('member 2 is not bound');
    cordoned = node;
  });
  after(() => c.close());

  it('replaces the Lost member at once, without waiting for the Unschedulable one', async () => {
    await cordon(true);
    // Let the scheduler's cache and the node's unschedulable taint catch up first.
    await c.drive(5_000);
    const old = await c.pod(2);
    await c.h.client.delete(
      { ...RESOURCES.pods, namespace: NAMESPACE, name: podName(2) },
      { preconditions: { uid: uidOf(old) ?? '' } },
    );
    await c.driveUntil(
      'member 2 Unschedulable',
      async () => {
        const p = await c.pod(2);
        return uidOf(p) !== uidOf(old) && condition(p, 'PodScheduled')?.reason === 'Unschedulable';
      },
      60_000,
    );

    await runStorageChaos(c.h.client, {
      action: 'lose-volume',
      namespace: NAMESPACE,
      claim: claimName(0),
    });
    // The replacement can follow within the same fake-time step as the claim turning Lost, so
    // the claim may never be seen Lost here: a replaced claim (other uid, or none) counts too.
    const lostAt = await c.driveUntil(
      'claim 0 Lost (or already replaced)',
      async () => {
        const claim = await c.claim(0);
        const phase = (claim?.status as { phase?: string } | undefined)?.phase;
        const replaced = uidOf(claim) !== claimUids.get(0);
        return (
          (phase === 'Lost' || replaced || c.events('MemberDiskLost').length > 0) && c.clock.now()
        );
      },
      30_000,
    );
    const replacedAt = await c.driveUntil(
      'Lost member replaced',
      async () => c.events('MemberDiskLost').length > 0 && c.clock.now(),
      ACT_WITHIN_MS,
    );
    assert.ok(replacedAt - lostAt <= ACT_WITHIN_MS);
    assert.deepEqual(c.events('MemberDiskLost'), [
      {
        type: 'Warning',
        message: `Replacing member ${podName(0)}: its volume no longer exists; celld records a bounded loss for any session with no other copy`,
      },
    ]);
    // Member 0 comes back on a fresh disk while member 2 still waits, unplaced, on its own.
    const back = await c.driveUntil(
      'member 0 Ready on a fresh disk',
      async () => {
        const claim = await c.claim(0);
        const p = await c.pod(0);
        return uidOf(claim) !== claimUids.get(0) && isPodReady(p) && p;
      },
      60_000,
    );
    assert.notEqual(nodeOf(back), cordoned);
    assert.equal(nodeOf(await c.pod(2)), undefined);
    assert.equal(uidOf(await c.claim(2)), claimUids.get(2));
    assert.equal(uidOf(await c.claim(1)), claimUids.get(1));
  });

  it('converges once the node is uncordoned, member 2 on its own disk', async () => {
    await cordon(false);
    await untilFleetReady(c, 120_000);
    assert.equal(uidOf(await c.claim(2)), claimUids.get(2));
    assert.equal(nodeOf(await c.pod(2)), cordoned);
    assert.deepEqual(c.events('MemberReplaced'), []);
    assert.equal(c.events('MemberDiskLost').length, 1);
  });
});
