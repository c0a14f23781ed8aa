/**
 * A complete test of a user's own, written against `fleetyard/testing`: a whole cluster in the
 * test's process, on a virtual clock that moves only when the test says so. Run it with
 * `node --import tsx --test examples/testing/node-loss.test.ts` (after `npm run build`).
 *
 * The story (upstream's defaults): a node stops answering. 50 s later the node-lifecycle
 * controller marks it Unknown and taints it `unreachable:NoExecute`; the StatefulSet's pod
 * tolerates that for 300 s and is then evicted, but with its kubelet gone nobody confirms the
 * containers stopped, so the pod stays Terminating and the StatefulSet does not replace it
 * (it never runs two pods with one identity). An operator force-deletes it; the StatefulSet
 * recreates it on a live node. Six minutes of cluster time, in about two seconds.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AppsV1Api, CoreV1Api, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { startCluster, type TestCluster } from 'fleetyard/testing';

let cluster: TestCluster;
let core: CoreV1Api;
let apps: AppsV1Api;

before(async () => {
  cluster = await startCluster({ nodes: 3, seed: 42 });
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
});

after(() => cluster.stop());

const member = (name: string): Promise<V1Pod> =>
  core.readNamespacedPod({ namespace: 'default', name });

test('a member on a lost node is evicted after 5 minutes, stays Terminating, and comes back once force-deleted', async () => {
  await apps.createNamespacedStatefulSet({
    namespace: 'default',
    body: {
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        serviceName: 'web',
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.24' }] },
        },
      },
    },
  });
  await cluster.clock.advance('1m');
  const before = await member('web-1');
  assert.equal(before.status?.phase, 'Running');
  const lostNode = before.spec?.nodeName ?? '';

  await cluster.chaos.nodeDown(lostNode);
  await cluster.clock.advance('5m');
  assert.equal((await member('web-1')).metadata?.deletionTimestamp, undefined, 'still tolerated');

  await cluster.clock.advance('1m');
  const evicted = await member('web-1');
  assert.ok(evicted.metadata?.deletionTimestamp, 'evicted after 50 s + 300 s');

  await cluster.clock.advance('30m');
  const stuck = await member('web-1');
  assert.equal(stuck.metadata?.uid, evicted.metadata?.uid, 'stuck Terminating: no kubelet');

  await core.deleteNamespacedPod({ namespace: 'default', name: 'web-1', gracePeriodSeconds: 0 });
  await cluster.clock.advance('1m');
  const back = await member('web-1');
  assert.notEqual(back.metadata?.uid, evicted.metadata?.uid);
  assert.equal(back.status?.phase, 'Running');
  assert.notEqual(back.spec?.nodeName, lostNode);
});
