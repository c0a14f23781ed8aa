/**
 * The ReplicaSet controller against a real in-memory API server: scaling, victim choice,
 * adoption, release, and no adoption while the ReplicaSet is being deleted.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { replicaSetController } from './index.js';
import {
  createNamespace,
  createReplicaSet,
  ownedPods,
  podManifest,
  podRef,
  rsRef,
  scale,
  waitForOwned,
} from './testing/fixtures.js';
import { POD_DELETION_COST_ANNOTATION } from './victims.js';

let h: Harness;

before(async () => {
  h = await startHarness();
  h.run(replicaSetController);
});

after(async () => {
  await h.close();
});

function eventsFor(rs: KubeObject, reason: string): string[] {
  return h.events.events
    .filter((e) => e.object.metadata?.uid === rs.metadata?.uid && e.reason === reason)
    .map((e) => e.message);
}

describe('replicaset controller: scaling', () => {
  it('scale up creates N pods with a controllerRef and the template labels', async () => {
    await createNamespace(h, 'up');
    const rs = await createReplicaSet(h, 'up', 'web', {
      replicas: 4,
      selector: { app: 'web' },
      templateLabels: { app: 'web', tier: 'front' },
    });
    const pods = await waitForOwned(h, rs, 4, eventually);
    for (const pod of pods) {
      assert.deepEqual(pod.metadata?.labels, { app: 'web', tier: 'front' });
      assert.match(pod.metadata?.name ?? '', /^web-[a-z0-9]{5}$/);
      assert.deepEqual(controllerRefOf(pod), {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web',
        uid: rs.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      });
    }
    const created = await eventually(() => {
      const messages = eventsFor(rs, 'SuccessfulCreate');
      return messages.length === 4 ? messages : false;
    });
    assert.deepEqual(created.sort(), pods.map((p) => `Created pod: ${p.metadata?.name}`).sort());
    const status = await eventually(async () => {
      const cur = await h.client.get(rsRef('up', 'web'));
      const s = (cur as { status?: Record<string, unknown> }).status ?? {};
      return s.replicas === 4 ? s : false;
    });
    assert.equal(status.fullyLabeledReplicas, 4);
    assert.equal(status.readyReplicas, 0);
    assert.equal(status.availableReplicas, 0);
    assert.equal(status.observedGeneration, 1);
  });

  it('scale down deletes the pods with the lowest pod-deletion-cost', async () => {
    await createNamespace(h, 'down');
    const rs = await createReplicaSet(h, 'down', 'db', { replicas: 4 });
    const pods = await waitForOwned(h, rs, 4, eventually);
    const names = pods.map((p) => p.metadata?.name ?? '').sort();
    // Keep names[0] and names[1] (high cost); names[2] is the cheapest, names[3] next.
    const costs: Record<string, string> = {
      [names[0] ?? '']: '1000',
      [names[1] ?? '']: '500',
      [names[2] ?? '']: '-5',
      [names[3] ?? '']: '0',
    };
    for (const [name, cost] of Object.entries(costs)) {
      await h.client.patch(
        podRef('down', name),
        { metadata: { annotations: { [POD_DELETION_COST_ANNOTATION]: cost } } },
        'merge',
      );
    }
    await scale(h, 'down', 'db', 3);
    const three = await waitForOwned(h, rs, 3, eventually);
    assert.deepEqual(
      three.map((p) => p.metadata?.name).sort(),
      [names[0], names[1], names[3]].sort(),
    );
    await scale(h, 'down', 'db', 2);
    const two = await waitForOwned(h, rs, 2, eventually);
    assert.deepEqual(two.map((p) => p.metadata?.name).sort(), [names[0], names[1]].sort());
    const deleted = await eventually(() => {
      const m = eventsFor(rs, 'SuccessfulDelete');
      return m.length === 2 ? m : false;
    });
    assert.deepEqual(deleted, [`Deleted pod: ${names[2]}`, `Deleted pod: ${names[3]}`]);
  });
});

describe('replicaset controller: claiming', () => {
  it('adopts an orphan pod with matching labels instead of creating one', async () => {
    await createNamespace(h, 'adopt');
    await h.client.create(
      { ...RESOURCES.pods, namespace: 'adopt' },
      podManifest('adopt', 'stray', { app: 'cache' }),
    );
    const rs = await createReplicaSet(h, 'adopt', 'cache', { replicas: 2 });
    const pods = await waitForOwned(h, rs, 2, eventually);
    assert.ok(
      pods.some((p) => p.metadata?.name === 'stray'),
      'the orphan is adopted',
    );
    const all = await h.list({ ...RESOURCES.pods, namespace: 'adopt' });
    assert.equal(all.length, 2, 'only one pod was created');
  });

  it('releases a pod whose labels stop matching and creates a replacement', async () => {
    await createNamespace(h, 'release');
    const rs = await createReplicaSet(h, 'release', 'api', { replicas: 2 });
    const [first] = await waitForOwned(h, rs, 2, eventually);
    const name = first?.metadata?.name ?? '';
    await h.client.patch(
      podRef('release', name),
      { metadata: { labels: { app: 'debug' } } },
      'merge',
    );
    const released = await eventually(async () => {
      const pod = await h.client.get(podRef('release', name));
      return controllerRefOf(pod) === undefined ? pod : false;
    });
    assert.deepEqual(released.metadata?.ownerReferences ?? [], []);
    const owned = await waitForOwned(h, rs, 2, eventually);
    assert.ok(!owned.some((p) => p.metadata?.name === name), 'a replacement took its place');
    const all = await h.list({ ...RESOURCES.pods, namespace: 'release' });
    assert.equal(all.length, 3);
  });

  it('a ReplicaSet being deleted neither adopts nor creates', async () => {
    await createNamespace(h, 'dying');
    const rs = await createReplicaSet(h, 'dying', 'old', {
      replicas: 1,
      finalizers: ['example.com/hold'],
    });
    await waitForOwned(h, rs, 1, eventually);
    await h.client.delete(rsRef('dying', 'old'), { propagationPolicy: 'Orphan' });
    await eventually(async () => {
      const cur = await h.client.get(rsRef('dying', 'old'));
      return Boolean(cur.metadata?.deletionTimestamp);
    });
    await h.client.create(
      { ...RESOURCES.pods, namespace: 'dying' },
      podManifest('dying', 'orphan', { app: 'old' }),
    );
    // Another ReplicaSet's sync is a barrier: the controller has seen the later events.
    await createNamespace(h, 'barrier');
    const barrier = await createReplicaSet(h, 'barrier', 'b', { replicas: 1 });
    await waitForOwned(h, barrier, 1, eventually);
    // Its status counts its pod only once the pod informer saw it, after the orphan's add event.
    await eventually(async () => {
      const cur = await h.client.get(rsRef('barrier', 'b'));
      return (cur as { status?: { replicas?: number } }).status?.replicas === 1;
    });
    const orphan = await h.client.get(podRef('dying', 'orphan'));
    assert.equal(controllerRefOf(orphan), undefined);
    assert.ok((await ownedPods(h, rs)).length <= 1);
  });
});
