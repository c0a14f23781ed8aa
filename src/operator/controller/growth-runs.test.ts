/**
 * Issue #79 on a whole simulated cluster and one fake clock (§2.5 growth in runs): a fleet on
 * zonal (`ebs`) disks over two zones, three nodes (a, b, a), Strict placement (one member per
 * node). Scaled from 3 to 2 it keeps
 * member 2's claim (and so its zone); grown to 4, the operator writes the kept run first
 * (StatefulSet replicas 3), and writes 4 (a fresh disk for member 3) only after the scheduler
 * decided member 2: the bind of `orders-2` precedes the replicas-4 write in the store's
 * revision order. Member 2 returns on its kept disk in its zone; member 3 never takes that
 * node (it finds none, since every node holds a member). Done the old way (both at once), the
 * fresh member could take the one free node, which is in the zone member 2's disk needs.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import type { WatchCollector, WatchEvent } from '../../apiserver/testing/test-server.js';
import { RESOURCES } from '../../controller/context.js';
import {
  condition,
  FLEET,
  type FleetCluster,
  isPodReady,
  NAMESPACE,
  nodeOf,
  podName,
  startFleetCluster,
  untilFleetReady,
} from './testing/fake-cluster.js';
import { uidOf } from './testing/members.js';

const ZONE = 'topology.kubernetes.io/zone';

function replicasOf(obj: KubeObject | undefined): number | undefined {
  return (obj?.spec as { replicas?: number } | undefined)?.replicas;
}

function rvOf(e: WatchEvent): number {
  return Number(e.object.metadata?.resourceVersion);
}

/** The distinct consecutive values of `spec.replicas` the watch saw, with the first RV of each. */
function replicaSteps(events: readonly WatchEvent[]): { replicas: number; rv: number }[] {
  const steps: { replicas: number; rv: number }[] = [];
  for (const e of events) {
    if (e.object.metadata?.name !== FLEET) continue;
    const r = replicasOf(e.object as KubeObject);
    if (r !== undefined && steps.at(-1)?.replicas !== r) steps.push({ replicas: r, rv: rvOf(e) });
  }
  return steps;
}

/** The first RV at which `orders-<ordinal>` was bound to a node or found Unschedulable. */
function decidedAt(events: readonly WatchEvent[], ordinal: number): number | undefined {
  const e = events.find((ev) => {
    const pod = ev.object as KubeObject;
    return (
      pod.metadata?.name === podName(ordinal) &&
      (nodeOf(pod) !== undefined || condition(pod, 'PodScheduled')?.reason === 'Unschedulable')
    );
  });
  return e === undefined ? undefined : rvOf(e);
}

describe('growth in runs (issue #79)', () => {
  let c: FleetCluster;
  let sets: WatchCollector;
  let pods: WatchCollector;
  before(async () => {
    c = await startFleetCluster({ nodes: 3, zones: ['a', 'b'] });
    await c.createFleet({ replicas: 3, storageClassName: 'ebs' });
    await untilFleetReady(c);
  });
  after(async () => {
    sets?.close();
    pods?.close();
    await c.close();
  });

  const statefulSet = () =>
    c.h.get({ ...RESOURCES.statefulsets, namespace: NAMESPACE, name: FLEET });
  const zoneOfNode = async (node: string | undefined) =>
    node === undefined
      ? undefined
      : (await c.h.get({ ...RESOURCES.nodes, name: node }))?.metadata?.labels?.[ZONE];

  it('adds the kept member first and a fresh disk only after the scheduler placed it', async () => {
    const keptNode = nodeOf(await c.pod(2));
    const keptZone = await zoneOfNode(keptNode);
    const keptClaim = uidOf(await c.claim(2));
    assert.ok(keptZone);

    await c.setReplicas(2);
    await c.driveUntil(
      'scaled in to 2',
      async () => replicasOf(await statefulSet()) === 2 && (await c.pod(2)) === undefined,
      120_000,
    );
    assert.equal(uidOf(await c.claim(2)), keptClaim, 'scale-in keeps the claim');

    sets = await c.h.api.watch(`/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets?watch=true`);
    pods = await c.h.api.watch(`/api/v1/namespaces/${NAMESPACE}/pods?watch=true`);
    await c.setReplicas(4);
    await c.driveUntil(
      'grown to 4 with member 3 unplaceable',
      async () =>
        replicasOf(await statefulSet()) === 4 &&
        isPodReady(await c.pod(2)) &&
        condition(await c.pod(3), 'PodScheduled')?.reason === 'Unschedulable',
      180_000,
    );

    const steps = replicaSteps(sets.events);
    assert.deepEqual(
      steps.map((s) => s.replicas),
      [2, 3, 4],
      'the kept run (3) is written before the fresh one (4)',
    );
    const decided = decidedAt(pods.events, 2);
    const four = steps.find((s) => s.replicas === 4)?.rv;
    assert.ok(decided !== undefined && four !== undefined);
    assert.ok(
      decided < four,
      `member 2 decided at RV ${decided}, replicas 4 written at RV ${four}`,
    );

    const member2 = await c.pod(2);
    assert.equal(nodeOf(member2), keptNode, 'member 2 is back on the node of its kept disk');
    assert.equal(await zoneOfNode(nodeOf(member2)), keptZone);
    assert.equal(uidOf(await c.claim(2)), keptClaim, 'on its kept claim');
    const member3Nodes = pods.events
      .filter((e) => e.object.metadata?.name === podName(3))
      .map((e) => nodeOf(e.object as KubeObject));
    assert.ok(member3Nodes.length > 0);
    assert.ok(
      member3Nodes.every((n) => n === undefined),
      'the fresh member never took a node (and so never the zone member 2 needs)',
    );
  });
});
