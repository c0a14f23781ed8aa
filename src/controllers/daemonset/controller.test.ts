/**
 * The DaemonSet controller against a real in-memory API server (no scheduler, no kubelet: pods
 * stay pinned by affinity, and turn Ready only when the test writes their status): one pod per
 * node with its revision and Events, nodes added and tainted, a failed pod replaced, a
 * RollingUpdate stepping through the nodes one at a time.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { daemonSetController } from './index.js';
import { targetNodeName } from './node-eligibility.js';
import { DAEMONSETS } from './writes.js';

let h: Harness;
const ns = 'default';

before(async () => {
  h = await startHarness();
  h.run(daemonSetController());
  for (const name of ['n1', 'n2', 'n3']) await createNode(name);
});

after(async () => {
  await h.close();
});

async function createNode(name: string, taints?: object[]): Promise<void> {
  await h.client.create(RESOURCES.nodes, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: taints ? { taints } : {},
  });
}

async function createDaemonSet(
  name: string,
  image: string,
  strategy?: object,
): Promise<KubeObject> {
  return h.client.create(
    { ...DAEMONSETS, namespace: ns },
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'c', image }] },
        },
        ...(strategy ? { updateStrategy: strategy } : {}),
      },
    },
  );
}

const live = async (app: string) =>
  (await h.list({ ...RESOURCES.pods, namespace: ns }, `app=${app}`)).filter(
    (p) => !p.metadata?.deletionTimestamp,
  );
const nodesOf = (pods: readonly KubeObject[]) =>
  pods.map((p) => targetNodeName(p as never) ?? '').sort();

async function setPod(pod: KubeObject, phase: 'Running' | 'Failed', ready: boolean): Promise<void> {
  const ref = { ...RESOURCES.pods, namespace: ns, name: pod.metadata?.name ?? '' };
  const fresh = await h.client.get(ref);
  const status = {
    phase,
    conditions: [
      {
        type: 'Ready',
        status: ready ? 'True' : 'False',
        lastTransitionTime: formatTime(Date.now() - 60_000),
      },
    ],
  };
  await h.client.updateStatus(ref, { ...fresh, status });
}

/** Removes pods that are being deleted (no kubelet confirms their end here). */
async function reap(app: string): Promise<void> {
  for (const p of await h.list({ ...RESOURCES.pods, namespace: ns }, `app=${app}`)) {
    if (!p.metadata?.deletionTimestamp) continue;
    await h.client
      .delete(
        { ...RESOURCES.pods, namespace: ns, name: p.metadata.name ?? '' },
        { gracePeriodSeconds: 0 },
      )
      .catch(() => undefined);
  }
}

const reasons = (ds: KubeObject, reason: string) =>
  h.events.events.filter((e) => e.object.metadata?.uid === ds.metadata?.uid && e.reason === reason);

describe('daemonset controller', () => {
  it('creates one pod per node, a revision, Events and the status', async () => {
    const ds = await createDaemonSet('agent', 'agent:v1');
    const pods = await eventually(async () => {
      const p = await live('agent');
      return p.length === 3 ? p : false;
    });
    assert.deepEqual(nodesOf(pods), ['n1', 'n2', 'n3']);
    const revisions = await h.list({ ...RESOURCES.controllerrevisions, namespace: ns });
    assert.equal(revisions.length, 1);
    const hash = revisions[0]?.metadata?.labels?.['controller-revision-hash'];
    assert.ok(pods.every((p) => p.metadata?.labels?.['controller-revision-hash'] === hash));
    assert.equal(reasons(ds, 'SuccessfulCreate').length, 3);
    for (const p of pods) await setPod(p, 'Running', true);
    await eventually(async () => {
      const s = (await h.get({ ...DAEMONSETS, namespace: ns, name: 'agent' }))?.status as Record<
        string,
        number
      >;
      return s?.numberReady === 3 && s.numberAvailable === 3 && s.desiredNumberScheduled === 3;
    });
  });

  it('a new node gets a pod; an untolerated NoExecute taint takes it away', async () => {
    await createNode('n4');
    const pods = await eventually(async () => {
      const p = await live('agent');
      return p.length === 4 ? p : false;
    });
    assert.ok(nodesOf(pods).includes('n4'));
    await h.client.patch(
      { ...RESOURCES.nodes, name: 'n4' },
      { spec: { taints: [{ key: 'x', effect: 'NoExecute' }] } },
      'merge',
    );
    await eventually(async () => {
      const p = await live('agent');
      return p.length === 3 && !nodesOf(p).includes('n4');
    });
  });

  it('a failed pod is replaced, with a FailedDaemonPod Warning', async () => {
    const [victim] = (await live('agent')).filter((p) => targetNodeName(p as never) === 'n1');
    assert.ok(victim);
    const ds = await h.client.get({ ...DAEMONSETS, namespace: ns, name: 'agent' });
    await setPod(victim, 'Failed', false);
    await eventually(async () => {
      await reap('agent');
      const p = (await live('agent')).filter((x) => targetNodeName(x as never) === 'n1');
      return p.length === 1 && p[0]?.metadata?.uid !== victim.metadata?.uid;
    });
    assert.match(
      reasons(ds, 'FailedDaemonPod')[0]?.message ?? '',
      /Found failed daemon pod default\/agent-\w+ on node n1/,
    );
  });

  it('RollingUpdate (maxUnavailable 1): replaces one node at a time, each after the last is ready', async () => {
    for (const p of await live('agent')) await setPod(p, 'Running', true);
    const ref = { ...DAEMONSETS, namespace: ns, name: 'agent' };
    await h.client.patch(
      ref,
      { spec: { template: { spec: { containers: [{ name: 'c', image: 'agent:v2' }] } } } },
      'strategic',
    );
    const seen = new Set<string>();
    for (let step = 0; step < 3; step++) {
      const fresh = await eventually(async () => {
        await reap('agent');
        const pods = await live('agent');
        const updated = pods.filter(
          (p) =>
            (p.spec as { containers: { image: string }[] }).containers[0]?.image === 'agent:v2',
        );
        const unseen = updated.filter((p) => !seen.has(p.metadata?.uid ?? ''));
        // Never more than one node without a ready pod.
        const unready = pods.filter(
          (p) => (p.status as { phase?: string })?.phase !== 'Running',
        ).length;
        assert.ok(unready + (3 - pods.length) <= 1, `${unready} unready, ${pods.length} pods`);
        return unseen.length === 1 && updated.length === step + 1 ? unseen[0] : false;
      });
      seen.add(fresh.metadata?.uid ?? '');
      await setPod(fresh, 'Running', true);
    }
    await eventually(async () => {
      const s = (await h.get(ref))?.status as Record<string, number>;
      return (
        s?.updatedNumberScheduled === 3 && s.numberAvailable === 3 && s.observedGeneration === 2
      );
    });
    const revisions = await h.list({ ...RESOURCES.controllerrevisions, namespace: ns });
    assert.deepEqual(revisions.map((r) => r.revision).sort(), [1, 2]);
  });
});
