/**
 * Self-healing of a 5-member PersistentFleet on `ebs` disks (`fleetyard up --nodes 6`), driven
 * with `fleetyard chaos`, pod annotations and kubectl (docs/design/operator.md §6, §9: a member
 * keeps its disk unless it is replaced):
 * - a lost volume (`chaos lose-volume`) replaces that member only, on a fresh disk, with the
 *   event `MemberDiskLost`; every other pod and claim keeps its uid;
 * - with two members down nothing is deleted, and the status table shows both down with the
 *   note that neither is replaced while the other is down;
 * - a member waiting on its image is left alone, with a note saying a new disk cannot fix it.
 * The long timers (10-min delay, 5-min absorb window, 2-min force-delete margin) are covered by
 * the planner's fake-clock tests, not waited for here.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import {
  apply,
  chaos,
  type FleetEnv,
  fleet,
  fleetClaims,
  fleetEnvForFile,
  fleetEvents,
  IMAGE_UNPULLABLE,
  IMAGE_V1,
  isReady,
  memberPods,
  patchFleet,
  serviceAccount,
  sleep,
  uids,
  waitFleet,
  waitReady,
  watchPods,
} from './testing/celld-fixtures.js';
import { pollUntil } from './testing/kubectl-fixtures.js';

const NS = 'default';
const NAME = 'ledger';
const READY_ANNOTATION = 'sim.fleetyard.dev/ready';
/** How long "nothing is deleted" is watched for: many reconciles, far below any timer. */
const HOLD_MS = 10_000;

const env = fleetEnvForFile(['--nodes=6', '--zones=a,b,c']);

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _, ...rest } = record;
  return rest;
}

async function snapshot(e: FleetEnv) {
  return {
    pods: uids(await memberPods(e, NS, NAME)),
    claims: uids(await fleetClaims(e, NS, NAME)),
  };
}

async function patchImage(e: FleetEnv, image: string): Promise<void> {
  await patchFleet(e, NS, NAME, { runtimeImage: image });
}

function waitingReason(p: V1Pod | undefined): string | undefined {
  return p?.status?.containerStatuses?.[0]?.state?.waiting?.reason;
}

describe('self-healing of a PersistentFleet', () => {
  it('reaches Ready with five members', async () => {
    const e = env();
    await apply(
      e,
      serviceAccount(`${NAME}-celld`, NS),
      fleet({ name: NAME, namespace: NS, bucket: 'ledger-data', replicas: 5 }),
    );
    await waitReady(e, NS, NAME, 30_000);
  });

  it('replaces only the member whose volume is lost (MemberDiskLost)', async () => {
    const e = env();
    const before = await snapshot(e);
    const lostClaim = before.claims['data-ledger-2'];
    assert.ok(lostClaim);
    const watch = await watchPods(e, NS, NAME, () => undefined);
    try {
      await chaos(e, NS, 'lose-volume', 'data-ledger-2');
      await pollUntil(
        'data-ledger-2 replaced by a fresh Bound claim',
        async () => {
          const c = (await fleetClaims(e, NS, NAME)).find(
            (x) => x.metadata?.name === 'data-ledger-2',
          );
          return c && c.metadata?.uid !== lostClaim && c.status?.phase === 'Bound' ? c : undefined;
        },
        30_000,
        100,
      );
      await waitReady(e, NS, NAME, 30_000);
    } finally {
      await watch.stop();
    }
    const after = await snapshot(e);
    assert.notEqual(after.pods['ledger-2'], before.pods['ledger-2'], 'the pod was not replaced');
    assert.deepEqual(without(after.pods, 'ledger-2'), without(before.pods, 'ledger-2'));
    assert.deepEqual(
      without(after.claims, 'data-ledger-2'),
      without(before.claims, 'data-ledger-2'),
    );
    assert.deepEqual(
      [...new Set(watch.created.map((c) => c.name))],
      ['ledger-2'],
      'a pod other than ledger-2 was recreated',
    );
    const events = await fleetEvents(e, NS, NAME, 'MemberDiskLost');
    assert.equal(events.length, 1, JSON.stringify(events.map((x) => x.message)));
    assert.match(events[0]?.message ?? '', /ledger-2/);
  });

  it('deletes nothing while two members are down and says why in the member table', async () => {
    const e = env();
    const before = await snapshot(e);
    const replacedBefore = (await fleetEvents(e, NS, NAME, 'MemberReplaced')).length;
    for (const pod of ['ledger-1', 'ledger-3']) {
      await e.k.ok(['annotate', 'pod', pod, '-n', NS, `${READY_ANNOTATION}=false`]);
    }
    const down = await waitFleet(e, NS, NAME, 'members 1 and 3 down', (f) => {
      const rows = f.status?.members ?? [];
      const row = (pod: string) => rows.find((r) => r.pod === pod);
      // readyReplicas comes from the StatefulSet's status, which may trail the pods.
      return (
        f.status?.readyReplicas === 3 &&
        row('ledger-1')?.ready === false &&
        row('ledger-3')?.ready === false &&
        (row('ledger-1')?.note ?? '').includes('ledger-3 is also down') &&
        (row('ledger-3')?.note ?? '').includes('ledger-1 is also down')
      );
    });
    const rows = down.status?.members ?? [];
    for (const r of rows.filter((x) => x.pod !== 'ledger-1' && x.pod !== 'ledger-3')) {
      assert.equal(r.ready, true, `${r.pod} should be ready`);
    }
    for (const pod of ['ledger-1', 'ledger-3']) {
      assert.ok(rows.find((r) => r.pod === pod)?.downSince, `${pod} has no downSince`);
    }
    await sleep(HOLD_MS);
    assert.deepEqual(await snapshot(e), before, 'a pod or claim was deleted');
    assert.equal((await fleetEvents(e, NS, NAME, 'MemberReplaced')).length, replacedBefore);
    for (const pod of ['ledger-1', 'ledger-3']) {
      await e.k.ok(['annotate', 'pod', pod, '-n', NS, `${READY_ANNOTATION}-`]);
    }
    await waitReady(e, NS, NAME);
    assert.deepEqual(await snapshot(e), before);
  });

  it('leaves alone a member waiting on its image', async () => {
    const e = env();
    const before = await snapshot(e);
    // A new image rolls the highest ordinal first; its pull fails, so ledger-4 waits on it.
    await patchImage(e, IMAGE_UNPULLABLE);
    const waiting = await pollUntil(
      'ledger-4 waiting on its image',
      async () => {
        const p = (await memberPods(e, NS, NAME)).find((x) => x.metadata?.name === 'ledger-4');
        const reason = waitingReason(p);
        return reason === 'ErrImagePull' || reason === 'ImagePullBackOff' ? p : undefined;
      },
      20_000,
      100,
    );
    await waitFleet(e, NS, NAME, 'ledger-4 noted as waiting on its image', (f) =>
      (f.status?.members?.find((r) => r.pod === 'ledger-4')?.note ?? '').includes(
        'waiting on its image or configuration',
      ),
    );
    await sleep(HOLD_MS / 2);
    const held = await snapshot(e);
    assert.deepEqual(held.claims, before.claims, 'a claim was deleted');
    assert.equal(held.pods['ledger-4'], waiting.metadata?.uid, 'the waiting pod was deleted');
    assert.deepEqual(without(held.pods, 'ledger-4'), without(before.pods, 'ledger-4'));
    const pods = await memberPods(e, NS, NAME);
    assert.equal(pods.filter((p) => !isReady(p)).length, 1, 'the roll went past ledger-4');

    await patchImage(e, IMAGE_V1);
    await waitReady(e, NS, NAME, 30_000);
    assert.deepEqual((await snapshot(e)).claims, before.claims);
  });
});
