/**
 * `--member-replacement-delay=1m` (the flag's floor, docs/design/operator.md §1) on a whole simulated cluster and
 * one fake clock, together with the absorb window: a member down since T is due at T + 1 min
 * (its member row says so), but it is replaced only once every other member has been Ready for
 * 5 min: not at due + 5 s, not at (others Ready) + 5 min − 1 s, and right after that.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatTime } from '../../api/time.js';
import {
  type FleetCluster,
  podName,
  STEP_MS,
  startFleetCluster,
  untilFleetReady,
} from './testing/fake-cluster.js';
import {
  driveTo,
  lastReadySince,
  readyTransition,
  recreateUnready,
  uidOf,
} from './testing/members.js';

const DELAY_MS = 60_000;
const ABSORB_MS = 5 * 60_000;
const ACT_WITHIN_MS = 10_000;

describe('a 1 min replacement delay', () => {
  let c: FleetCluster;
  before(async () => {
    c = await startFleetCluster({ memberReplacementDelayMs: DELAY_MS });
    await c.createFleet({ replicas: 3, storageClassName: 'standard' });
    await untilFleetReady(c);
  });
  after(() => c.close());

  it('is due after 1 min and acts once the others have been Ready for 5 min', async () => {
    // Let the claims age past 1 min, so the successor pod is not on "a disk made for it".
    await c.drive(70_000);
    const oldClaim = await c.claim(2);
    const pod = await recreateUnready(c, 2);
    const downSince = readyTransition(pod);
    const due = downSince + DELAY_MS;
    const stable = (await lastReadySince(c, [0, 1])) + ABSORB_MS;
    assert.ok(due + 60_000 < stable, 'the delay ends well inside the absorb window');

    await driveTo(c, due + 5_000);
    const row = await c.member(2);
    assert.equal(row?.replacementDue, formatTime(due), 'due at downSince + 1 min');
    assert.equal(row?.note, 'replaced only after every other member has been Ready for 5 minutes');
    assert.equal(uidOf(await c.claim(2)), uidOf(oldClaim));

    await driveTo(c, stable - STEP_MS);
    assert.equal(uidOf(await c.claim(2)), uidOf(oldClaim), 'claim kept inside the absorb window');
    assert.deepEqual(c.events('MemberReplaced'), []);

    const replacedAt = await c.driveUntil(
      'claim replaced',
      async () => {
        const claim = await c.claim(2);
        return claim !== undefined && uidOf(claim) !== uidOf(oldClaim) && c.clock.now();
      },
      ACT_WITHIN_MS,
    );
    assert.ok(replacedAt >= stable, `replaced at ${formatTime(replacedAt)}`);
    assert.deepEqual(c.events('MemberReplaced'), [
      {
        type: 'Warning',
        message: `Replacing member ${podName(2)}: down since ${formatTime(downSince)} while the rest of the fleet is ready; it returns on a fresh disk`,
      },
    ]);
    await untilFleetReady(c, 120_000);
  });
});
