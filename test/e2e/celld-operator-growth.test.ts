/**
 * Growth back over a deleted claim on node-local disks (issue 14, item 8; docs/design/operator.md §9: "growth
 * back to that ordinal reattaches it", and node-local disks keep the same contract in local
 * tests). `fleetyard up --nodes 6` (two nodes per zone), a PersistentFleet on the `standard`
 * class (hostpath, node-local: a disk pins its member to one node) with Strict placement (one
 * member per node):
 * - 5 → 3 keeps the claims of members 3 and 4, each on its node;
 * - the claim of member 3 is deleted by hand, so member 3 comes back on a fresh disk;
 * - 3 → 6. Member 4's kept disk needs its node. Before the fix, the fresh member 3 was created
 *   first and could be placed on that very node; member 4 then never scheduled ("volume node
 *   affinity conflict") and the fleet stayed Progressing.
 * The fleet must converge: all six members Ready, member 4 on its kept claim and node, and no
 * fresh member ever bound to the node a kept disk needs (checked at every pod event).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import {
  apply,
  fleet,
  fleetClaims,
  fleetEnvForFile,
  memberPods,
  serviceAccount,
  uids,
  waitReady,
  watchPods,
} from './testing/celld-fixtures.js';
import { pollUntil } from './testing/kubectl-fixtures.js';

const NS = 'default';
const NAME = 'ledger';

const env = fleetEnvForFile(['--nodes=6', '--zones=a,b,c']);

function nodeOf(pods: readonly V1Pod[], name: string): string | undefined {
  return pods.find((p) => p.metadata?.name === name)?.spec?.nodeName;
}

describe('growth over a deleted claim on node-local disks, Strict placement', () => {
  it('converges with every member Ready and member 4 back on its kept disk and node', async () => {
    const e = env();
    await apply(
      e,
      serviceAccount(`${NAME}-celld`, NS),
      fleet({
        name: NAME,
        namespace: NS,
        bucket: 'ledger-growth',
        replicas: 5,
        storageClassName: 'standard',
        mode: 'Strict',
      }),
    );
    await waitReady(e, NS, NAME, 30_000);
    const placed = await memberPods(e, NS, NAME);
    const keptNode = nodeOf(placed, `${NAME}-4`);
    assert.ok(keptNode, 'member 4 has no node');

    await e.k.ok(['scale', 'cf', NAME, '-n', NS, '--replicas=3']);
    await waitReady(e, NS, NAME, 30_000);
    await pollUntil('3 member pods', async () =>
      (await memberPods(e, NS, NAME)).length === 3 ? true : undefined,
    );
    const kept = uids(await fleetClaims(e, NS, NAME));
    assert.ok(kept[`data-${NAME}-3`] && kept[`data-${NAME}-4`], 'scale-in kept claims 3 and 4');

    // The admin deletes member 3's disk: the fleet will come back there on a fresh one.
    await e.k.ok(['delete', 'pvc', `data-${NAME}-3`, '-n', NS, '--wait=true']);

    // At no pod event may a member other than 4 be bound to the node member 4's disk is on.
    const watch = await watchPods(e, NS, NAME, (pods) => {
      const intruder = pods.find(
        (p) => p.spec?.nodeName === keptNode && p.metadata?.name !== `${NAME}-4`,
      );
      return intruder
        ? `${intruder.metadata?.name} was placed on ${keptNode}, the node of member 4's kept disk`
        : undefined;
    });
    try {
      await e.k.ok(['scale', 'cf', NAME, '-n', NS, '--replicas=6']);
      await waitReady(e, NS, NAME, 60_000);
    } finally {
      await watch.stop();
    }
    assert.deepEqual(watch.violations, []);

    const pods = await memberPods(e, NS, NAME);
    assert.deepEqual(
      pods.map((p) => p.metadata?.name).sort(),
      [0, 1, 2, 3, 4, 5].map((n) => `${NAME}-${n}`),
    );
    assert.equal(nodeOf(pods, `${NAME}-4`), keptNode, 'member 4 is back on its node');
    const claims = uids(await fleetClaims(e, NS, NAME));
    assert.equal(claims[`data-${NAME}-4`], kept[`data-${NAME}-4`], 'member 4 on its kept claim');
    assert.notEqual(claims[`data-${NAME}-3`], kept[`data-${NAME}-3`], 'member 3 on a fresh claim');
    for (const name of ['0', '1', '2'].map((n) => `data-${NAME}-${n}`)) {
      assert.equal(claims[name], kept[name], `${name} was replaced`);
    }
  });
});
