/**
 * The StatefulSet controller against a real in-memory API server: ordered and parallel scaling,
 * failed pods replaced, claims created and reused, status, and a restart mid-scale. Pods become
 * Ready only when the test writes their status (there is no kubelet in the harness).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { statefulSetController } from './index.js';
import {
  claimRef,
  createSet,
  fakeKubelet,
  isReady,
  names,
  podRef,
  setPhase,
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

function messages(set: KubeObject, reason: string): string[] {
  return h.events.events
    .filter((e) => e.object.metadata?.uid === set.metadata?.uid && e.reason === reason)
    .map((e) => e.message);
}

/** OrderedReady invariant: the pods are ordinals 0..k, and all but the last are Ready. */
function assertOrderedPrefix(pods: readonly KubeObject[], set: string): void {
  pods.forEach((pod, i) => {
    assert.equal(pod.metadata?.name, `${set}-${i}`);
    if (i < pods.length - 1 && !pod.metadata?.deletionTimestamp) assert.ok(isReady(pod));
  });
}

describe('statefulset controller: OrderedReady', () => {
  it('scales up 0..2 one at a time, each after its predecessor is Ready', async () => {
    const set = await createSet(h, 'ordered', 'web', { replicas: 3 });
    for (let k = 0; k < 3; k++) {
      const pods = await eventually(async () => {
        const p = await setPods(h, 'ordered', 'web');
        return p.length === k + 1 ? p : false;
      });
      // The set's status saw pod k: had the controller wanted pod k+1 it would exist by now.
      await eventually(async () => (await setStatus(h, 'ordered', 'web')).replicas === k + 1);
      const again = await setPods(h, 'ordered', 'web');
      assert.deepEqual(names(again), names(pods));
      assertOrderedPrefix(again, 'web');
      const newest = pods[k];
      assert.ok(newest);
      assert.equal(controllerRefOf(newest)?.uid, set.metadata?.uid);
      assert.equal(newest.metadata?.labels?.['statefulset.kubernetes.io/pod-name'], `web-${k}`);
      assert.equal(newest.metadata?.labels?.['apps.kubernetes.io/pod-index'], String(k));
      assert.equal((newest.spec as { hostname?: string }).hostname, `web-${k}`);
      assert.equal((newest.spec as { subdomain?: string }).subdomain, 'web');
      await setPhase(h, newest, 'Ready');
    }
    const status = await eventually(async () => {
      const s = await setStatus(h, 'ordered', 'web');
      return s.readyReplicas === 3 ? s : false;
    });
    assert.equal(status.replicas, 3);
    assert.equal(status.availableReplicas, 3);
    assert.equal(status.currentReplicas, 3);
    assert.equal(status.updatedReplicas, 3);
    assert.equal(status.observedGeneration, 1);
    assert.equal(status.collisionCount, 0);
    assert.equal(status.currentRevision, status.updateRevision);
    assert.match(String(status.updateRevision), /^web-[a-z0-9]+$/);
    assert.deepEqual(messages(set, 'SuccessfulCreate'), [
      'create Pod web-0 in StatefulSet web successful',
      'create Pod web-1 in StatefulSet web successful',
      'create Pod web-2 in StatefulSet web successful',
    ]);

    // Scale down: highest ordinal first (deletes are immediate without a node), always a prefix.
    await h.client.patch(setRef('ordered', 'web'), { spec: { replicas: 0 } }, 'merge');
    await eventually(async () => {
      const pods = await setPods(h, 'ordered', 'web');
      assertOrderedPrefix(pods, 'web');
      return pods.length === 0;
    });
    assert.deepEqual(messages(set, 'SuccessfulDelete'), [
      'delete Pod web-2 in StatefulSet web successful',
      'delete Pod web-1 in StatefulSet web successful',
      'delete Pod web-0 in StatefulSet web successful',
    ]);
    await eventually(async () => (await setStatus(h, 'ordered', 'web')).replicas === 0);
  });

  it('halts on an unhealthy predecessor and honours ordinals.start', async () => {
    await createSet(h, 'halt', 'db', { replicas: 3, start: 5 });
    const pods = await eventually(async () => {
      const p = await setPods(h, 'halt', 'db');
      return p.length === 1 ? p : false;
    });
    assert.deepEqual(names(pods), ['db-5']);
    const first = pods[0];
    assert.ok(first);
    await setPhase(h, first, 'NotReady');
    await eventually(async () => (await setStatus(h, 'halt', 'db')).replicas === 1);
    assert.deepEqual(names(await setPods(h, 'halt', 'db')), ['db-5']);
    await setPhase(h, first, 'Ready');
    await eventually(async () => (await setPods(h, 'halt', 'db')).length === 2);
  });
});

describe('statefulset controller: Parallel', () => {
  it('creates and deletes all pods at once, without waiting for readiness', async () => {
    await createSet(h, 'parallel', 'web', { replicas: 3, policy: 'Parallel' });
    await eventually(async () => (await setPods(h, 'parallel', 'web')).length === 3);
    await h.client.patch(setRef('parallel', 'web'), { spec: { replicas: 0 } }, 'merge');
    await eventually(async () => (await setPods(h, 'parallel', 'web')).length === 0);
  });
});

describe('statefulset controller: pods and claims', () => {
  it('creates claims, replaces a failed pod and a deleted pod, and reuses the claim', async () => {
    const set = await createSet(h, 'claims', 'web', { replicas: 1, claims: ['www'] });
    const [pod] = await eventually(async () => {
      const p = await setPods(h, 'claims', 'web');
      return p.length === 1 ? p : false;
    });
    assert.ok(pod);
    const claim = await h.client.get(claimRef('claims', 'www-web-0'));
    assert.deepEqual(claim.metadata?.labels, { app: 'web' });
    const volumes = (pod.spec as { volumes?: unknown[] }).volumes;
    assert.deepEqual(volumes?.[0], {
      name: 'www',
      persistentVolumeClaim: { claimName: 'www-web-0', readOnly: false },
    });
    assert.ok(
      messages(set, 'SuccessfulCreate').includes(
        'create Claim www-web-0 Pod web-0 in StatefulSet web success',
      ),
    );

    await setPhase(h, pod, 'Failed');
    const replaced = await eventually(async () => {
      const p = await setPods(h, 'claims', 'web');
      return p[0] !== undefined && p[0].metadata?.uid !== pod.metadata?.uid ? p[0] : false;
    });
    assert.equal(replaced.metadata?.name, 'web-0');

    await h.client.delete(podRef('claims', 'web-0'));
    await eventually(async () => {
      const p = await setPods(h, 'claims', 'web');
      return p[0] !== undefined && p[0].metadata?.uid !== replaced.metadata?.uid;
    });
    const claims = await h.list({ ...RESOURCES.persistentvolumeclaims, namespace: 'claims' });
    assert.deepEqual(names(claims), ['www-web-0']);
    assert.equal(claims[0]?.metadata?.uid, claim.metadata?.uid);
  });
});

describe('statefulset controller: restart', () => {
  it('a controller restarted mid-scale converges without duplicating an ordinal', async () => {
    // A second controller with its own stop signal, so it can be stopped alone.
    const stop = new AbortController();
    const def = statefulSetController();
    await createSet(h, 'restart', 'app', { replicas: 4, policy: 'Parallel' });
    await eventually(async () => (await setPods(h, 'restart', 'app')).length === 4);
    const kubelet = fakeKubelet(h, 'restart');
    await h.client.patch(setRef('restart', 'app'), { spec: { replicas: 6 } }, 'merge');
    const second = def.start({ ...h.ctx, signal: stop.signal });
    await eventually(async () => (await setPods(h, 'restart', 'app')).length >= 5);
    stop.abort();
    await second;
    const pods = await eventually(async () => {
      const p = await setPods(h, 'restart', 'app');
      return p.length === 6 && p.every(isReady) ? p : false;
    });
    await kubelet();
    assert.deepEqual(names(pods), ['app-0', 'app-1', 'app-2', 'app-3', 'app-4', 'app-5']);
    await eventually(async () => (await setStatus(h, 'restart', 'app')).readyReplicas === 6);
  });
});
