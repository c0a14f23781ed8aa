import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../api/object.js';
import type { TestCluster } from '../sim/cluster.js';
import { startCluster } from './index.js';

const NODES = { group: '', version: 'v1', plural: 'nodes' } as const;
const LEASES = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' } as const;

function readyOf(node: KubeObject): string | undefined {
  const conditions = (node.status as { conditions?: { type: string; status: string }[] })
    ?.conditions;
  return conditions?.find((c) => c.type === 'Ready')?.status;
}

describe('startCluster', () => {
  let cluster: TestCluster;
  before(async () => {
    cluster = await startCluster({ nodes: 2, seed: 3 });
  });
  after(() => cluster.stop());

  it('starts paused at the fixed start, quiescent, with its nodes Ready', async () => {
    assert.equal(cluster.clock.now().toISOString(), '2026-01-01T00:00:00.000Z');
    const status = cluster.clock.status();
    assert.equal(status.state, 'Paused');
    assert.equal(status.quiescent, true);
    const nodes = await cluster.client.list(NODES);
    assert.deepEqual(
      nodes.items.map((n) => [n.metadata?.name, readyOf(n)]),
      [
        ['fleetyard-node-1', 'True'],
        ['fleetyard-node-2', 'True'],
      ],
    );
  });

  it('advances through virtual time: a node that stops heartbeating goes Unknown after the grace period', async () => {
    await cluster.chaos.nodeDown('fleetyard-node-2');
    await cluster.clock.advance('30s');
    const before = await cluster.client.get({ ...NODES, name: 'fleetyard-node-2' });
    assert.equal(readyOf(before), 'True');
    // 50 s of node-monitor grace after the last renewal (10 s period): Unknown by 70 s.
    await cluster.clock.advance('40s');
    const after = await cluster.client.get({ ...NODES, name: 'fleetyard-node-2' });
    assert.equal(readyOf(after), 'Unknown');
    assert.equal(cluster.clock.now().toISOString(), '2026-01-01T00:01:10.000Z');
    // The live node's Lease was renewed within the last 10 s of virtual time.
    const lease = await cluster.client.get({
      ...LEASES,
      namespace: 'kube-node-lease',
      name: 'fleetyard-node-1',
    });
    const renew = Date.parse((lease.spec as { renewTime: string }).renewTime);
    assert.ok(cluster.clock.now().getTime() - renew <= 10_000, String(renew));
  });

  it('stops cleanly and removes its files', async () => {
    const path = cluster.kubeconfigPath;
    assert.equal(existsSync(path), true);
    await cluster.stop();
    await cluster.stop();
    assert.equal(existsSync(path), false);
  });
});
