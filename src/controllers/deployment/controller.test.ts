/**
 * The Deployment controller against a real in-memory API server. ReplicaSet status is written
 * by the tests (the ReplicaSet controller is not running), so each step of a rollout is driven
 * and checked explicitly.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type Deployment, type ReplicaSet } from '../../api/model/index.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { deploymentController } from './index.js';
import {
  condition,
  deploymentManifest,
  deploymentRef,
  NS,
  replicaSetsOf,
  setImage,
  setReplicaSetStatus,
  settleAll,
  updateDeployment,
  withImage,
} from './testing/fixtures.js';

const REV = 'deployment.kubernetes.io/revision';
const rev = (rs: ReplicaSet | undefined) => rs?.metadata?.annotations?.[REV];
const size = (rs: ReplicaSet | undefined) => rs?.spec?.replicas;

let h: Harness;
before(async () => {
  h = await startHarness();
  h.run(deploymentController);
});
after(() => h.close());

const create = (d: Deployment) => h.client.create({ ...RESOURCES.deployments, namespace: NS }, d);
const getD = async (name: string): Promise<Deployment | undefined> => {
  const d = await h.get(deploymentRef(name));
  return d === undefined ? undefined : asKind(d, 'Deployment');
};

describe('deployment controller', () => {
  it('creates revision 1 with the hash, then reports completion', async () => {
    await create(deploymentManifest('first', 'img:1'));
    const [rs] = await eventually(async () => {
      const rss = await replicaSetsOf(h, 'first');
      return rss.length === 1 && rss;
    });
    const hash = rs?.metadata?.labels?.['pod-template-hash'];
    assert.ok(hash);
    assert.equal(rs?.metadata?.name, `first-${hash}`);
    assert.equal(rev(rs), '1');
    assert.equal(size(rs), 3);
    assert.equal(rs?.spec?.selector?.matchLabels?.['pod-template-hash'], hash);
    assert.equal(rs?.metadata?.ownerReferences?.[0]?.kind, 'Deployment');
    assert.equal(rs?.metadata?.annotations?.['deployment.kubernetes.io/desired-replicas'], '3');
    assert.equal(rs?.metadata?.annotations?.['deployment.kubernetes.io/max-replicas'], '4');
    assert.ok(
      h.events.events.some(
        (e) =>
          e.reason === 'ScalingReplicaSet' &&
          e.message === `Scaled up replica set first-${hash} from 0 to 3`,
      ),
    );
    await eventually(async () => (await getD('first'))?.metadata?.annotations?.[REV] === '1');

    await settleAll(h, 'first');
    const d = await eventually(async () => {
      const got = await getD('first');
      return condition(got, 'Progressing')?.reason === 'NewReplicaSetAvailable' && got;
    });
    assert.equal(
      condition(d, 'Progressing')?.message,
      `ReplicaSet "first-${hash}" has successfully progressed.`,
    );
    assert.equal(condition(d, 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(d.status?.availableReplicas, 3);
    assert.equal(d.status?.updatedReplicas, 3);
    // The revision annotation travels with the status: no generation bump, as upstream.
    assert.equal(d.metadata?.generation, 1);
    assert.equal(d.status?.observedGeneration, 1);
    // Settled: nothing left to write (a resync would change nothing).
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await getD('first'))?.metadata?.resourceVersion, d.metadata?.resourceVersion);
  });

  it('rolls a template change as revision 2 within maxSurge / maxUnavailable', async () => {
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
    await create(deploymentManifest('roll', 'img:1', { strategy }));
    await eventually(async () => (await replicaSetsOf(h, 'roll')).length === 1);
    await settleAll(h, 'roll');
    await eventually(async () => (await getD('roll'))?.status?.availableReplicas === 3);

    await setImage(h, 'roll', 'img:2');
    const [old, next] = await eventually(async () => {
      const rss = await replicaSetsOf(h, 'roll');
      return rss.length === 2 && rss;
    });
    assert.equal(rev(next), '2');
    assert.equal(size(next), 1, 'surge 1: one new pod first');
    assert.equal(size(old), 3, 'unavailable 0: old kept until the new pod is available');

    await setReplicaSetStatus(h.client, next!, 1, 1);
    await eventually(async () => size((await replicaSetsOf(h, 'roll'))[0]) === 2);
    const [old2, next2] = await replicaSetsOf(h, 'roll');
    assert.ok((size(old2) ?? 0) + (size(next2) ?? 0) <= 4, 'never more than replicas + surge');
    assert.ok(
      h.events.events.some(
        (e) => e.message === `Scaled down replica set ${old?.metadata?.name} from 3 to 2`,
      ),
    );
    await eventually(async () => (await getD('roll'))?.metadata?.annotations?.[REV] === '2');
  });

  it('Recreate scales old to 0 and creates the new RS only once old pods are gone', async () => {
    await create(
      deploymentManifest('recreate', 'img:1', { replicas: 2, strategy: { type: 'Recreate' } }),
    );
    await eventually(async () => (await replicaSetsOf(h, 'recreate')).length === 1);
    await settleAll(h, 'recreate');
    await setImage(h, 'recreate', 'img:2');
    const [old] = await eventually(async () => {
      const rss = await replicaSetsOf(h, 'recreate');
      return size(rss[0]) === 0 && rss;
    });
    // The old RS still reports 2 pods: no new RS may appear.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await replicaSetsOf(h, 'recreate')).length, 1);

    await setReplicaSetStatus(h.client, old!, 0, 0);
    const [, next] = await eventually(async () => {
      const rss = await replicaSetsOf(h, 'recreate');
      return rss.length === 2 && rss;
    });
    assert.equal(size(next), 2);
    assert.equal(rev(next), '2');
  });

  it('a paused deployment makes no new RS but still scales', async () => {
    await create(deploymentManifest('paused', 'img:1', { replicas: 2 }));
    await eventually(async () => (await replicaSetsOf(h, 'paused')).length === 1);
    await settleAll(h, 'paused');
    await updateDeployment(h, 'paused', (d) => {
      if (d.spec) d.spec = { ...d.spec, paused: true, replicas: 4 };
      withImage(d, 'img:2');
    });
    const d = await eventually(async () => {
      const got = await getD('paused');
      return condition(got, 'Progressing')?.reason === 'DeploymentPaused' && got;
    });
    assert.equal(condition(d, 'Progressing')?.status, 'Unknown');
    await eventually(async () => size((await replicaSetsOf(h, 'paused'))[0]) === 4);
    assert.equal((await replicaSetsOf(h, 'paused')).length, 1);

    await updateDeployment(h, 'paused', (x) => {
      if (x.spec) x.spec = { ...x.spec, paused: false };
    });
    await eventually(async () => (await replicaSetsOf(h, 'paused')).length === 2);
    const resumed = await getD('paused');
    assert.notEqual(condition(resumed, 'Progressing')?.reason, 'DeploymentPaused');
  });

  it('reports ProgressDeadlineExceeded when no progress is made', async () => {
    await create(deploymentManifest('stuck', 'img:1', { progressDeadlineSeconds: 1, replicas: 1 }));
    const d = await eventually(
      async () => {
        const got = await getD('stuck');
        return condition(got, 'Progressing')?.reason === 'ProgressDeadlineExceeded' && got;
      },
      { timeoutMs: 8000 },
    );
    const [rs] = await replicaSetsOf(h, 'stuck');
    assert.equal(condition(d, 'Progressing')?.status, 'False');
    assert.equal(
      condition(d, 'Progressing')?.message,
      `ReplicaSet "${rs?.metadata?.name}" has timed out progressing.`,
    );
    assert.equal(condition(d, 'Available')?.status, 'False');
  });

  it('keeps revisionHistoryLimit old ReplicaSets, deleting the oldest', async () => {
    await create(deploymentManifest('hist', 'img:1', { replicas: 1, revisionHistoryLimit: 1 }));
    for (let i = 1; i <= 3; i++) {
      await eventually(async () =>
        (await replicaSetsOf(h, 'hist')).some((rs) => rev(rs) === String(i)),
      );
      if (i < 3) {
        await setImage(h, 'hist', `img:${i + 1}`);
      }
      // Let the rollout finish: the RS controller's part is the status, written here.
      await eventually(async () => {
        await settleAll(h, 'hist');
        const rss = await replicaSetsOf(h, 'hist');
        return (
          rss.filter((rs) => (rs.spec?.replicas ?? 0) > 0).length === 1 &&
          rev(rss.at(-1)) === String(i + (i < 3 ? 1 : 0))
        );
      });
    }
    const rss = await eventually(async () => {
      await settleAll(h, 'hist');
      const got = await replicaSetsOf(h, 'hist');
      return got.length === 2 && got;
    });
    assert.deepEqual(rss.map(rev), ['2', '3']);
  });
});
