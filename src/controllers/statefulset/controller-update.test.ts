/**
 * The StatefulSet controller's updates against a real in-memory API server: rolling update from
 * the highest ordinal with a partition, ControllerRevisions (creation, rollback reuse, pruning),
 * the forced rollback (docs/design/statefulset.md §9), and the PVC retention matrix. A fake kubelet marks pods Ready.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type ControllerRevision } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { statefulSetController } from './index.js';
import { compareRevisions } from './revisions.js';
import {
  claimRef,
  createNamespace,
  createSet,
  fakeKubelet,
  imageOf,
  isReady,
  names,
  podRef,
  revisionOf,
  setManifest,
  setPods,
  setRef,
  setStatus,
} from './testing/fixtures.js';

let h: Harness;

before(async () => {
  h = await startHarness();
  h.run(statefulSetController());
});

after(async () => {
  await h.close();
});

async function revisions(namespace: string): Promise<ControllerRevision[]> {
  const list = await h.list({ ...RESOURCES.controllerrevisions, namespace });
  return list.map((r) => asKind(r, 'ControllerRevision')).sort(compareRevisions);
}

async function setImage(namespace: string, name: string, image: string): Promise<void> {
  const patch = { spec: { template: { spec: { containers: [{ name: 'c', image }] } } } };
  await h.client.patch(setRef(namespace, name), patch, 'strategic');
}

/** Waits until every pod is Ready with the given images (by ordinal). */
async function waitImages(
  namespace: string,
  name: string,
  images: string[],
): Promise<KubeObject[]> {
  return eventually(async () => {
    const pods = await setPods(h, namespace, name);
    const ok =
      pods.length === images.length &&
      pods.every(
        (p, i) => isReady(p) && !p.metadata?.deletionTimestamp && imageOf(p) === images[i],
      );
    return ok ? pods : false;
  });
}

describe('statefulset controller: rolling update and history', () => {
  it('updates from the highest ordinal down to the partition, then completes', async () => {
    await createSet(h, 'roll', 'web', { replicas: 3, partition: 1 });
    const kubelet = fakeKubelet(h, 'roll');
    const before = await waitImages('roll', 'web', ['nginx:1', 'nginx:1', 'nginx:1']);
    const oldRevision = revisionOf(before[0] as KubeObject);
    await setImage('roll', 'web', 'nginx:2');
    const partial = await waitImages('roll', 'web', ['nginx:1', 'nginx:2', 'nginx:2']);
    const newRevision = revisionOf(partial[2] as KubeObject);
    assert.notEqual(newRevision, oldRevision);
    assert.equal(revisionOf(partial[0] as KubeObject), oldRevision);
    let status = await eventually(async () => {
      const s = await setStatus(h, 'roll', 'web');
      return s.updatedReplicas === 2 && s.readyReplicas === 3 ? s : false;
    });
    assert.equal(status.currentRevision, oldRevision);
    assert.equal(status.updateRevision, newRevision);
    assert.equal(status.currentReplicas, 1);

    // The history: two revisions, numbered 1 and 2, whose data is the replace patch kubectl uses.
    const history = await revisions('roll');
    assert.deepEqual(
      history.map((r) => [r.metadata?.name, r.revision]),
      [
        [oldRevision, 1],
        [newRevision, 2],
      ],
    );
    const data = history[1]?.data as { spec: { template: Record<string, unknown> } };
    assert.deepEqual(Object.keys(data), ['spec']);
    assert.deepEqual(Object.keys(data.spec), ['template']);
    assert.equal(data.spec.template.$patch, 'replace');

    await h.client.patch(
      setRef('roll', 'web'),
      { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } },
      'strategic',
    );
    await waitImages('roll', 'web', ['nginx:2', 'nginx:2', 'nginx:2']);
    status = await eventually(async () => {
      const s = await setStatus(h, 'roll', 'web');
      return s.currentRevision === newRevision ? s : false;
    });
    assert.equal(status.currentReplicas, 3);
    assert.equal(status.updatedReplicas, 3);

    // Rollback: the old template again reuses revision `oldRevision`, renumbered 3.
    await setImage('roll', 'web', 'nginx:1');
    await waitImages('roll', 'web', ['nginx:1', 'nginx:1', 'nginx:1']);
    const after = await revisions('roll');
    assert.deepEqual(
      after.map((r) => [r.metadata?.name, r.revision]),
      [
        [newRevision, 2],
        [oldRevision, 3],
      ],
    );
    await eventually(
      async () => (await setStatus(h, 'roll', 'web')).currentRevision === oldRevision,
    );
    await kubelet();
  });

  it('prunes history beyond revisionHistoryLimit, keeping live revisions', async () => {
    await createSet(h, 'prune', 'web', { replicas: 1, revisionHistoryLimit: 0 });
    const kubelet = fakeKubelet(h, 'prune');
    await waitImages('prune', 'web', ['nginx:1']);
    await setImage('prune', 'web', 'nginx:2');
    await waitImages('prune', 'web', ['nginx:2']);
    await setImage('prune', 'web', 'nginx:3');
    const [pod] = await waitImages('prune', 'web', ['nginx:3']);
    const left = await eventually(async () => {
      const list = await revisions('prune');
      return list.length === 1 ? list : false;
    });
    assert.equal(left[0]?.metadata?.name, revisionOf(pod as KubeObject));
    await kubelet();
  });

  it('a broken template halts the rollout; reverting alone does not recover it', async () => {
    await createSet(h, 'broken', 'web', { replicas: 3 });
    const kubelet = fakeKubelet(h, 'broken', (pod) => imageOf(pod) === 'broken');
    await waitImages('broken', 'web', ['nginx:1', 'nginx:1', 'nginx:1']);
    await setImage('broken', 'web', 'broken');
    await eventually(async () => {
      const pods = await setPods(h, 'broken', 'web');
      return pods.length === 3 && imageOf(pods[2] as KubeObject) === 'broken';
    });
    // Reverting the template: web-2 stays broken (the ordered pass blocks on it) until deleted.
    await setImage('broken', 'web', 'nginx:1');
    await eventually(async () => {
      const s = await setStatus(h, 'broken', 'web');
      return s.updateRevision === s.currentRevision;
    });
    let pods = await setPods(h, 'broken', 'web');
    assert.deepEqual(pods.map(imageOf), ['nginx:1', 'nginx:1', 'broken']);
    await h.client.delete(podRef('broken', 'web-2'));
    pods = await waitImages('broken', 'web', ['nginx:1', 'nginx:1', 'nginx:1']);
    assert.deepEqual(names(pods), ['web-0', 'web-1', 'web-2']);
    await kubelet();
  });
});

type Policy = 'Retain' | 'Delete';

interface RetentionCase {
  whenDeleted: Policy;
  whenScaled: Policy;
  /** Owner kinds on the in-range claim www-web-0. */
  kept: string[];
  /** Owner kinds on the condemned claim www-web-1 after scaling to 1. */
  condemned: string[];
}

const retentionCases: RetentionCase[] = [
  { whenDeleted: 'Retain', whenScaled: 'Retain', kept: [], condemned: [] },
  {
    whenDeleted: 'Delete',
    whenScaled: 'Retain',
    kept: ['StatefulSet'],
    condemned: ['StatefulSet'],
  },
  { whenDeleted: 'Retain', whenScaled: 'Delete', kept: [], condemned: ['Pod'] },
  { whenDeleted: 'Delete', whenScaled: 'Delete', kept: ['StatefulSet'], condemned: ['Pod'] },
];

function ownerKinds(claim: KubeObject | undefined): string[] {
  return (claim?.metadata?.ownerReferences ?? []).map((r) => r.kind).sort();
}

describe('statefulset controller: PVC retention', () => {
  for (const c of retentionCases) {
    it(`whenDeleted=${c.whenDeleted} whenScaled=${c.whenScaled}`, async () => {
      const ns = `ret-${c.whenDeleted}-${c.whenScaled}`.toLowerCase();
      const set = await createSet(h, ns, 'web', {
        replicas: 2,
        policy: 'Parallel',
        claims: ['www'],
        whenDeleted: c.whenDeleted,
        whenScaled: c.whenScaled,
      });
      const kubelet = fakeKubelet(h, ns);
      await waitImages(ns, 'web', ['nginx:1', 'nginx:1']);
      await eventually(async () => {
        const claims = await h.list({ ...RESOURCES.persistentvolumeclaims, namespace: ns });
        return claims.length === 2 && claims.every((cl) => ownerKinds(cl).join() === c.kept.join());
      });
      const web1 = (await setPods(h, ns, 'web'))[1];
      await h.client.patch(setRef(ns, 'web'), { spec: { replicas: 1 } }, 'merge');
      await eventually(async () => (await setPods(h, ns, 'web')).length === 1);
      const condemned = await eventually(async () => {
        const claim = await h.get(claimRef(ns, 'www-web-1'));
        return ownerKinds(claim).join() === c.condemned.join() ? claim : false;
      });
      for (const ref of condemned?.metadata?.ownerReferences ?? []) {
        const owner = ref.kind === 'Pod' ? web1 : set;
        assert.equal(ref.uid, owner?.metadata?.uid);
        assert.equal(ref.controller, true);
      }
      assert.deepEqual(ownerKinds(await h.get(claimRef(ns, 'www-web-0'))), c.kept);
      await kubelet();
    });
  }

  it('leaves a claim controlled by someone else alone, with a ConflictingController event', async () => {
    await createNamespace(h, 'conflict');
    const foreign = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'other',
      uid: 'foreign-uid',
      controller: true,
    };
    await h.client.create(
      { ...RESOURCES.persistentvolumeclaims, namespace: 'conflict' },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'www-web-0', ownerReferences: [foreign] },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    );
    const manifest = setManifest('conflict', 'web', {
      replicas: 1,
      claims: ['www'],
      whenDeleted: 'Delete',
    });
    const set: KubeObject = await h.client.create(
      { ...RESOURCES.statefulsets, namespace: 'conflict' },
      manifest,
    );
    await eventually(async () => (await setPods(h, 'conflict', 'web')).length === 1);
    await eventually(() =>
      h.events.events.some(
        (e) =>
          e.object.metadata?.uid === set.metadata?.uid &&
          e.type === 'Warning' &&
          e.reason === 'ConflictingController' &&
          e.message ===
            'PersistentVolumeClaim www has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim',
      ),
    );
    const claim = await h.client.get(claimRef('conflict', 'www-web-0'));
    assert.deepEqual(claim.metadata?.ownerReferences, [foreign]);
  });
});
