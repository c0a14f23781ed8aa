/**
 * Growth over kept and fresh disks on a whole simulated cluster and one fake clock (issue 14,
 * item 8; docs/design/operator.md §9: growth back to an ordinal reattaches its disk, node-local disks alike): six
 * nodes over three zones, node-local (`standard`) disks, Strict placement (one member per
 * node). 5 → 3 keeps the claims of members 3 and 4, each on its node; claim 3 is deleted by
 * hand; 3 → 6 is written in one step. Every member pod starts behind the disk-placement gate:
 * the operator releases member 4 (its disk exists) first and members 3 and 5 (fresh disks) only
 * after the scheduler bound member 4, so the fresh ones never see member 4's node free. In the
 * store's revision order: member 4's bind precedes the release of members 3 and 5, and no pod
 * but member 4 is ever bound to its node. Before the fix (runs: the fresh member 3 first) the
 * fresh member could take that node and member 4 never scheduled.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import type { WatchCollector, WatchEvent } from '../../apiserver/testing/test-server.js';
import { RESOURCES } from '../../controller/context.js';
import { SCHEDULING_GATE_DISK_PLACEMENT } from '../render/metadata.js';
import {
  claimName,
  type FleetCluster,
  isPodReady,
  NAMESPACE,
  nodeOf,
  podName,
  startFleetCluster,
  untilFleetReady,
} from './testing/fake-cluster.js';
import { uidOf } from './testing/members.js';

function replicasOf(obj: KubeObject | undefined): number | undefined {
  return (obj?.spec as { replicas?: number } | undefined)?.replicas;
}

function rvOf(e: WatchEvent): number {
  return Number(e.object.metadata?.resourceVersion);
}

function gatedOf(pod: KubeObject): boolean {
  const gates = (pod.spec as { schedulingGates?: { name?: string }[] } | undefined)
    ?.schedulingGates;
  return (gates ?? []).some((g) => g.name === SCHEDULING_GATE_DISK_PLACEMENT);
}

/** The first RV at which the current incarnation of `<fleet>-<ordinal>` matched `test`. */
function firstAt(
  events: readonly WatchEvent[],
  ordinal: number,
  test: (pod: KubeObject) => boolean,
): number | undefined {
  const e = events.find(
    (ev) => ev.object.metadata?.name === podName(ordinal) && test(ev.object as KubeObject),
  );
  return e === undefined ? undefined : rvOf(e);
}

describe('growth over a deleted claim on node-local disks (issue 14, item 8)', () => {
  let c: FleetCluster;
  let pods: WatchCollector | undefined;
  before(async () => {
    c = await startFleetCluster({ nodes: 6, zones: ['a', 'b', 'c'] });
    await c.createFleet({ replicas: 5, storageClassName: 'standard' });
    await untilFleetReady(c);
  });
  after(async () => {
    pods?.close();
    await c.close();
  });

  const statefulSet = () =>
    c.h.get({ ...RESOURCES.statefulsets, namespace: NAMESPACE, name: 'orders' });

  it('releases the kept member first; no fresh member takes its node; the fleet converges', async () => {
    const keptNode = nodeOf(await c.pod(4));
    const keptClaim = uidOf(await c.claim(4));
    assert.ok(keptNode);

    await c.setReplicas(3);
    await c.driveUntil(
      'scaled in to 3',
      async () => replicasOf(await statefulSet()) === 3 && (await c.pod(3)) === undefined,
      120_000,
    );
    assert.equal(uidOf(await c.claim(4)), keptClaim, 'scale-in keeps the claim');
    await c.h.client.delete({
      ...RESOURCES.persistentvolumeclaims,
      namespace: NAMESPACE,
      name: claimName(3),
    });
    await c.driveUntil('claim 3 gone', async () => (await c.claim(3)) === undefined, 30_000);

    pods = await c.h.api.watch(`/api/v1/namespaces/${NAMESPACE}/pods?watch=true`);
    await c.setReplicas(6);
    await c.driveUntil(
      'six members Ready and the fleet Ready at its generation',
      async () => {
        const fleet = await c.fleet();
        const status = await c.status();
        const ready = await Promise.all(
          [0, 1, 2, 3, 4, 5].map(async (o) => isPodReady(await c.pod(o))),
        );
        return (
          ready.every(Boolean) &&
          status.state === 'Ready' &&
          status.observedGeneration === fleet.metadata?.generation
        );
      },
      180_000,
    );

    assert.equal(replicasOf(await statefulSet()), 6, 'growth is one write');
    const member4 = await c.pod(4);
    assert.equal(nodeOf(member4), keptNode, 'member 4 is back on the node of its kept disk');
    assert.equal(uidOf(await c.claim(4)), keptClaim, 'on its kept claim');
    for (const o of [0, 1, 2, 3, 4, 5]) assert.ok(isPodReady(await c.pod(o)), `member ${o}`);

    const events = pods.events;
    const bound4 = firstAt(events, 4, (p) => nodeOf(p) !== undefined);
    assert.ok(bound4 !== undefined);
    for (const fresh of [3, 5]) {
      const created = firstAt(events, fresh, () => true);
      const released = firstAt(events, fresh, (p) => !gatedOf(p));
      assert.ok(created !== undefined && released !== undefined, `member ${fresh}`);
      assert.ok(created < bound4, `member ${fresh}'s pod exists before member 4 is bound`);
      assert.ok(
        bound4 < released,
        `member 4 bound at RV ${bound4}, ${fresh} released at ${released}`,
      );
    }
    const intruders = events
      .filter((e) => nodeOf(e.object as KubeObject) === keptNode)
      .map((e) => e.object.metadata?.name)
      .filter((name) => name !== podName(4));
    assert.deepEqual([...new Set(intruders)], [], 'another member was bound to member 4’s node');
  });
});
