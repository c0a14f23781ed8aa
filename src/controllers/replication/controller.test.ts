/**
 * The ReplicationController controller against a real in-memory API server: it creates and
 * deletes pods for the RC's map selector, owns them as `v1 ReplicationController`, follows
 * `/scale`, adopts a matching orphan, and reports the counts in the RC's status.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { asKind, type Pod, type ReplicationController } from '../../api/model/index.js';
import { RESOURCES } from '../../controller/context.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { isPodActive } from '../replicaset/status.js';
import { createNamespace, podManifest } from '../replicaset/testing/fixtures.js';
import { replicationControllerController } from './index.js';

const NS = 'legacy';
const RCS = { group: '', version: 'v1', plural: 'replicationcontrollers', namespace: NS };

let h: Harness;

before(async () => {
  h = await startHarness();
  h.run(replicationControllerController);
  await createNamespace(h, NS);
});

after(async () => {
  await h.close();
});

async function owned(rc: ReplicationController): Promise<Pod[]> {
  const pods = (await h.list({ ...RESOURCES.pods, namespace: NS })).map((p) => asKind(p, 'Pod'));
  return pods.filter((p) => controllerRefOf(p)?.uid === rc.metadata?.uid && isPodActive(p));
}

const ownedCount = (rc: ReplicationController, n: number) =>
  eventually(async () => {
    const pods = await owned(rc);
    return pods.length === n ? pods : false;
  });

it('creates, scales and reports pods for an RC, owned as v1 ReplicationController', async () => {
  const rc = asKind(
    await h.client.create(RCS, {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
        },
      },
    }),
    'ReplicationController',
  );
  const pods = await ownedCount(rc, 3);
  assert.equal(controllerRefOf(pods[0] ?? {})?.kind, 'ReplicationController');
  assert.equal(controllerRefOf(pods[0] ?? {})?.apiVersion, 'v1');
  const status = await eventually(async () => {
    const cur = asKind(await h.client.get({ ...RCS, name: 'web' }), 'ReplicationController');
    return cur.status?.replicas === 3 ? cur.status : false;
  });
  assert.equal(status.observedGeneration, 1);
  const created = h.events.events.filter(
    (e) => e.object.metadata?.uid === rc.metadata?.uid && e.reason === 'SuccessfulCreate',
  );
  assert.equal(created.length, 3);

  // `kubectl scale rc` writes through /scale.
  await h.client.patch({ ...RCS, name: 'web' }, { spec: { replicas: 1 } }, 'merge', {
    subresource: 'scale',
  });
  await ownedCount(rc, 1);
});

it('adopts a matching orphan instead of creating a pod', async () => {
  await h.client.create(
    { ...RESOURCES.pods, namespace: NS },
    podManifest(NS, 'stray', { app: 'db' }),
  );
  const rc = asKind(
    await h.client.create(RCS, {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'db' },
      spec: {
        replicas: 1,
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image: 'redis:7' }] },
        },
      },
    }),
    'ReplicationController',
  );
  const [pod] = await ownedCount(rc, 1);
  assert.equal(pod?.metadata?.name, 'stray');
});
