/**
 * The Deployment controller with the real ReplicaSet controller (pods are created, never run:
 * no kubelet). Checks the Recreate guarantee end to end: the new ReplicaSet appears only after
 * every old pod is gone.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { replicaSetController } from '../replicaset/index.js';
import { deploymentController } from './index.js';
import { deploymentManifest, NS, replicaSetsOf, setImage } from './testing/fixtures.js';

let h: Harness;
before(async () => {
  h = await startHarness();
  h.run(deploymentController, replicaSetController);
});
after(() => h.close());

const pods = () => h.list({ ...RESOURCES.pods, namespace: NS }, 'app=rec');

describe('deployment + replicaset controllers', () => {
  it('Recreate creates new pods only after the old ones are gone', async () => {
    await h.client.create(
      { ...RESOURCES.deployments, namespace: NS },
      deploymentManifest('rec', 'img:1', { replicas: 2, strategy: { type: 'Recreate' } }),
    );
    await eventually(async () => (await pods()).length === 2);
    await setImage(h, 'rec', 'img:2');
    const [old, next] = await eventually(async () => {
      const rss = await replicaSetsOf(h, 'rec');
      return rss.length === 2 && rss;
    });
    const hashOf = (o: KubeObject | undefined) => o?.metadata?.labels?.['pod-template-hash'];
    // When the new RS exists, no old pod may remain.
    const oldPodsLeft = (await pods()).filter((p) => hashOf(p) === hashOf(old));
    assert.equal(oldPodsLeft.length, 0);
    const newPods = await eventually(async () => {
      const got = (await pods()).filter((p) => hashOf(p) === hashOf(next));
      return got.length === 2 && got;
    });
    assert.equal(newPods.length, 2);
  });
});
