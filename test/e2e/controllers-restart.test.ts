/**
 * The fault test: `fleetyard up` (SQLite) is killed with SIGKILL in the middle of a rollout
 * and started again on the same data dir. The controllers must pick up from what is stored,
 * and converge: the rollout completes, exactly `replicas` live pods remain, every pod is
 * owned by a ReplicaSet of the deployment, and no ReplicaSet has more pods than it wants.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Cluster, newDataDir, startCluster } from './testing/cluster.js';
import { kubectl } from './testing/kubectl.js';

const REPLICAS = 12;

function deployment(image: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: REPLICAS,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: 2, maxUnavailable: 1 } },
      template: {
        // Each pod takes 300 ms to become ready, so the rollout spans a few seconds.
        metadata: {
          labels: { app: 'web' },
          annotations: { 'sim.fleetyard.dev/ready-delay': '300ms' },
        },
        spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'web', image }] },
      },
    },
  });
}

interface Item {
  metadata: {
    name: string;
    uid: string;
    deletionTimestamp?: string;
    ownerReferences?: { uid: string; controller?: boolean }[];
  };
  spec: { replicas?: number };
}

it('converges without duplicate pods after a SIGKILL mid-rollout', async (t) => {
  const dataDir = newDataDir();
  let cluster: Cluster = await startCluster({ dataDir });
  try {
    const k = kubectl('1.33', cluster.kubeconfig);
    if (!k) {
      t.skip('kubectl.1.33 is not installed beside the kubectl on the PATH');
      return;
    }
    await k.ok(['apply', '-f', '-'], { input: deployment('web:v1') });
    await k.ok(['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
    await k.ok(['apply', '-f', '-'], { input: deployment('web:v2') });
    // Mid-rollout: some new pods exist, the old ReplicaSet is not yet at 0.
    for (;;) {
      const out = await k.ok([
        'get',
        'deployment',
        'web',
        '-o',
        'jsonpath={.status.updatedReplicas}',
      ]);
      if (Number(out) >= 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await cluster.kill();
    cluster = await startCluster({ dataDir });
    const k2 = kubectl('1.33', cluster.kubeconfig)!;
    await k2.ok(['rollout', 'status', 'deployment/web', '--timeout=90s'], { timeoutMs: 100_000 });

    const rsList = JSON.parse(await k2.ok(['get', 'rs', '-l', 'app=web', '-o', 'json'])) as {
      items: Item[];
    };
    const deploy = JSON.parse(await k2.ok(['get', 'deployment', 'web', '-o', 'json'])) as Item;
    // Settled: the old ReplicaSet's pods finish terminating.
    let live: Item[] = [];
    const deadline = Date.now() + 20_000;
    for (;;) {
      const pods = JSON.parse(await k2.ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])) as {
        items: Item[];
      };
      live = pods.items.filter((p) => p.metadata.deletionTimestamp === undefined);
      if (pods.items.length === REPLICAS || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(live.length, REPLICAS, 'exactly replicas live pods');
    const rsUids = new Set(rsList.items.map((r) => r.metadata.uid));
    for (const rs of rsList.items) {
      const owner = rs.metadata.ownerReferences?.find((o) => o.controller);
      assert.equal(
        owner?.uid,
        deploy.metadata.uid,
        `${rs.metadata.name} is owned by the deployment`,
      );
      const mine = live.filter((p) =>
        p.metadata.ownerReferences?.some((o) => o.uid === rs.metadata.uid),
      );
      assert.equal(
        mine.length,
        rs.spec.replicas,
        `${rs.metadata.name} has as many pods as it wants`,
      );
    }
    for (const p of live) {
      const owner = p.metadata.ownerReferences?.find((o) => o.controller);
      assert.ok(
        owner && rsUids.has(owner.uid),
        `${p.metadata.name} is owned by a ReplicaSet of web`,
      );
    }
    assert.equal(rsList.items.length, 2);
  } finally {
    await cluster.stop();
    cluster.cleanup();
  }
});
