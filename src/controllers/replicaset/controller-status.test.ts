/**
 * The ReplicaSet controller against a real in-memory API server: status fields, the
 * minReadySeconds re-check, the ReplicaFailure condition on refused creates and deletes, and
 * no duplicate pods under rapid scale changes.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { ApiClient } from '../../client/api-client.js';
import type { DeleteOptions, WriteOptions } from '../../client/call-options.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import type { CollectionRef, ObjectRef } from '../../client/resource-path.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { replicaSetController } from './index.js';
import {
  createNamespace,
  createReplicaSet,
  ownedPods,
  podManifest,
  rsStatus,
  scale,
  setPodReady,
  waitForOwned,
} from './testing/fixtures.js';

const QUOTA_MESSAGE = 'pods "web" is forbidden: exceeded quota: compute, requested: pods=1';

/** A client whose pod creates/deletes in namespace `quota` fail while the flags are set. */
class FaultyClient extends ApiClient {
  failCreates = false;
  failDeletes = false;
  override create(
    ref: CollectionRef,
    object: KubeObject,
    options?: WriteOptions,
  ): Promise<KubeObject> {
    if (this.failCreates && ref.plural === 'pods' && ref.namespace === 'quota') {
      return Promise.reject(forbidden());
    }
    return super.create(ref, object, options);
  }
  override delete(ref: ObjectRef, options?: DeleteOptions): Promise<KubeObject> {
    if (this.failDeletes && ref.plural === 'pods' && ref.namespace === 'quota') {
      return Promise.reject(forbidden());
    }
    return super.delete(ref, options);
  }
}

function forbidden(): StatusCodeError {
  return new StatusCodeError(403, { code: 403, reason: 'Forbidden', message: QUOTA_MESSAGE });
}

let h: Harness;
let faulty: FaultyClient;

before(async () => {
  h = await startHarness();
  faulty = new FaultyClient({ server: h.api.url });
  h.run({
    name: replicaSetController.name,
    start: (ctx) => replicaSetController.start({ ...ctx, client: faulty }),
  });
});

after(async () => {
  faulty.close();
  await h.close();
});

function conditionOf(status: Record<string, unknown>): Record<string, unknown> | undefined {
  const list = status.conditions;
  return Array.isArray(list)
    ? (list as Record<string, unknown>[]).find((c) => c.type === 'ReplicaFailure')
    : undefined;
}

describe('replicaset controller: status', () => {
  it('counts fully labeled, ready and available replicas and the observed generation', async () => {
    await createNamespace(h, 'st');
    await h.client.create(
      { ...RESOURCES.pods, namespace: 'st' },
      podManifest('st', 'partial', { app: 'st' }),
    );
    const rs = await createReplicaSet(h, 'st', 'st', {
      replicas: 3,
      selector: { app: 'st' },
      templateLabels: { app: 'st', tier: 'x' },
    });
    const pods = await waitForOwned(h, rs, 3, eventually);
    await eventually(async () => {
      const { status } = await rsStatus(h, 'st', 'st');
      return status.replicas === 3 && status.fullyLabeledReplicas === 2;
    });
    for (const pod of pods.slice(0, 2)) await setPodReady(h, pod, true);
    const ready = await eventually(async () => {
      const { status } = await rsStatus(h, 'st', 'st');
      return status.readyReplicas === 2 ? status : false;
    });
    assert.equal(ready.availableReplicas, 2, 'minReadySeconds 0: ready is available');
    assert.equal(ready.observedGeneration, 1);
    await h.client.patch(
      { ...RESOURCES.replicasets, namespace: 'st', name: 'st' },
      { spec: { minReadySeconds: 0, template: { metadata: { annotations: { v: '2' } } } } },
      'merge',
    );
    const next = await eventually(async () => {
      const s = await rsStatus(h, 'st', 'st');
      return s.status.observedGeneration === 2 ? s : false;
    });
    assert.equal(next.generation, 2);
    assert.equal(next.status.replicas, 3);
  });

  it('re-checks availability after minReadySeconds without another event', async () => {
    await createNamespace(h, 'mrs');
    const rs = await createReplicaSet(h, 'mrs', 'slow', { replicas: 2, minReadySeconds: 2 });
    const pods = await waitForOwned(h, rs, 2, eventually);
    for (const pod of pods) await setPodReady(h, pod, true);
    const early = await eventually(async () => {
      const { status } = await rsStatus(h, 'mrs', 'slow');
      return status.readyReplicas === 2 ? status : false;
    });
    assert.equal(early.availableReplicas, 0, 'ready for less than minReadySeconds');
    await eventually(async () => (await rsStatus(h, 'mrs', 'slow')).status.availableReplicas === 2);
  });
});

describe('replicaset controller: failures', () => {
  it('sets ReplicaFailure on refused creates and deletes, and clears it after', async () => {
    await createNamespace(h, 'quota');
    faulty.failCreates = true;
    const rs = await createReplicaSet(h, 'quota', 'web', { replicas: 3 });
    const created = await eventually(async () => {
      const c = conditionOf((await rsStatus(h, 'quota', 'web')).status);
      return c ?? false;
    });
    assert.equal(created.status, 'True');
    assert.equal(created.reason, 'FailedCreate');
    assert.equal(created.message, QUOTA_MESSAGE);
    const warnings = h.events.events.filter(
      (e) => e.object.metadata?.uid === rs.metadata?.uid && e.reason === 'FailedCreate',
    );
    assert.ok(warnings.length > 0);
    assert.equal(warnings[0]?.type, 'Warning');
    assert.equal(warnings[0]?.message, `Error creating: ${QUOTA_MESSAGE}`);
    assert.equal((await ownedPods(h, rs)).length, 0);

    faulty.failCreates = false;
    await waitForOwned(h, rs, 3, eventually);
    await eventually(
      async () => conditionOf((await rsStatus(h, 'quota', 'web')).status) === undefined,
    );

    faulty.failDeletes = true;
    await scale(h, 'quota', 'web', 1);
    const deleted = await eventually(async () => {
      const c = conditionOf((await rsStatus(h, 'quota', 'web')).status);
      return c ?? false;
    });
    assert.equal(deleted.reason, 'FailedDelete');
    assert.equal(deleted.message, `unable to delete pods: ${QUOTA_MESSAGE}`);
    faulty.failDeletes = false;
    await waitForOwned(h, rs, 1, eventually);
    await eventually(
      async () => conditionOf((await rsStatus(h, 'quota', 'web')).status) === undefined,
    );
  });
});

describe('replicaset controller: expectations', () => {
  it('growing in steps creates each pod once and deletes none', async () => {
    await createNamespace(h, 'grow');
    const rs = await createReplicaSet(h, 'grow', 'g', { replicas: 1 });
    for (const n of [5, 12, 20]) await scale(h, 'grow', 'g', n);
    await waitForOwned(h, rs, 20, eventually);
    await new Promise((r) => setTimeout(r, 300));
    const reasons = h.events.events
      .filter((e) => e.object.metadata?.uid === rs.metadata?.uid)
      .map((e) => e.reason);
    assert.equal(reasons.filter((r) => r === 'SuccessfulCreate').length, 20);
    assert.equal(reasons.filter((r) => r === 'SuccessfulDelete').length, 0);
    assert.equal((await h.list({ ...RESOURCES.pods, namespace: 'grow' })).length, 20);
  });

  it('rapid scale changes end with exactly spec.replicas pods', async () => {
    await createNamespace(h, 'rapid');
    const rs = await createReplicaSet(h, 'rapid', 'r', { replicas: 1 });
    for (const n of [6, 2, 9, 0, 7, 3]) await scale(h, 'rapid', 'r', n);
    await waitForOwned(h, rs, 3, eventually);
    // Let in-flight work land, then the world must be stable and consistent.
    await new Promise((r) => setTimeout(r, 300));
    const all = (await h.list({ ...RESOURCES.pods, namespace: 'rapid' })).filter(
      (p) => !p.metadata?.deletionTimestamp,
    );
    assert.equal(all.length, 3);
    const count = (reason: string) =>
      h.events.events.filter(
        (e) => e.object.metadata?.uid === rs.metadata?.uid && e.reason === reason,
      ).length;
    assert.equal(count('SuccessfulCreate') - count('SuccessfulDelete'), 3);
    await eventually(async () => (await rsStatus(h, 'rapid', 'r')).status.replicas === 3);
  });
});
