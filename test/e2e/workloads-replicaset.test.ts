/**
 * The ReplicaSet seed (`004`) on a running `fleetyard up`, driven by kubectl: the reconcile
 * loop with real simulated kubelets, adoption of matching bare pods (failure mode 1), scaling
 * to 0 by mistake and back (3), the selector's immutability (4), a template edit that does
 * not touch existing pods (5), orphans after `--cascade=orphan` and their re-adoption (6),
 * deleted pods respawning (9), label drift releasing a pod (10), and
 * `controller.kubernetes.io/pod-deletion-cost` choosing the survivors.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  inNamespace,
  type KubeObject,
  namespaceObject,
  pod,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile();

interface PodList {
  items: (KubeObject & {
    metadata: { name: string; uid: string; ownerReferences?: { name: string; uid: string }[] };
    status?: { phase?: string; conditions?: { type: string; status: string }[] };
  })[];
}

function replicaSet(name: string, replicas: number, labels: Record<string, string>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'php-redis', image: 'gb-frontend:v5' }] },
      },
    },
  };
}

const ready = (p: PodList['items'][number]): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describeKubectl('1.33', current, (s) => {
  const ns = 'rs-seed';
  const { kc, run, read, create } = inNamespace(s, ns);
  const pods = async (selector: string): Promise<PodList['items']> =>
    (JSON.parse(await kc('get', 'pods', '-l', selector, '-o', 'json')) as PodList).items.filter(
      (p) => (p.metadata as { deletionTimestamp?: string }).deletionTimestamp === undefined,
    );
  /** Waits until `n` live pods match, all Running and Ready, and returns them. */
  const readyPods = (selector: string, n: number) =>
    pollUntil(`${n} ready pods with ${selector}`, async () => {
      const list = await pods(selector);
      return list.length === n && list.every(ready) ? list : undefined;
    });
  const owner = (p: PodList['items'][number]) =>
    p.metadata.ownerReferences?.find((r) => (r as { controller?: boolean }).controller);

  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
  });

  it('creates replicas pods named <rs>-<5 chars> that go Running and Ready, and reports status', async () => {
    await create(replicaSet('frontend', 3, { tier: 'frontend' }));
    const list = await readyPods('tier=frontend', 3);
    for (const p of list) {
      assert.match(p.metadata.name, /^frontend-[a-z0-9]{5}$/);
      assert.equal(owner(p)?.name, 'frontend');
      assert.equal(p.status?.phase, 'Running');
    }
    const rs = await pollUntil('status', async () => {
      const o = (await read('rs', 'frontend')) as KubeObject & {
        status?: Record<string, number>;
      };
      return o.status?.availableReplicas === 3 ? o : undefined;
    });
    assert.deepEqual(
      {
        replicas: rs.status?.replicas,
        fullyLabeledReplicas: rs.status?.fullyLabeledReplicas,
        readyReplicas: rs.status?.readyReplicas,
        availableReplicas: rs.status?.availableReplicas,
        observedGeneration: rs.status?.observedGeneration,
      },
      {
        replicas: 3,
        fullyLabeledReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        observedGeneration: 1,
      },
    );
    const table = await kc('get', 'rs', 'frontend');
    assert.match(table, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nfrontend\s+3\s+3\s+3\s+/);
  });

  it('9: a deleted pod respawns', async () => {
    const [victim] = await readyPods('tier=frontend', 3);
    await kc('delete', 'pod', victim!.metadata.name, '--wait=false');
    const after = await readyPods('tier=frontend', 3);
    assert.ok(after.every((p) => p.metadata.uid !== victim!.metadata.uid));
  });

  it('pod-deletion-cost: the pods with the highest cost survive a scale-down', async () => {
    const list = await readyPods('tier=frontend', 3);
    const keep = list[1]!.metadata.name;
    await kc('annotate', 'pod', keep, 'controller.kubernetes.io/pod-deletion-cost=1000');
    await kc('scale', 'rs', 'frontend', '--replicas=1');
    const [survivor] = await readyPods('tier=frontend', 1);
    assert.equal(survivor!.metadata.name, keep);
  });

  it('4: the selector is immutable; 5: a template edit leaves existing pods alone', async () => {
    const r = await run(
      'patch',
      'rs',
      'frontend',
      '--type=merge',
      '-p',
      '{"spec":{"selector":{"matchLabels":{"tier":"other"}},"template":{"metadata":{"labels":{"tier":"other"}}}}}',
    );
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'The ReplicaSet "frontend" is invalid: spec.selector: Invalid value: {"matchLabels":{"tier":"other"}}: field is immutable\n',
    );
    await kc('set', 'image', 'rs/frontend', 'php-redis=gb-frontend:v6');
    await kc('scale', 'rs', 'frontend', '--replicas=2');
    const list = await readyPods('tier=frontend', 2);
    const images = list
      .map((p) => (p.spec as { containers: { image: string }[] }).containers[0]!.image)
      .sort();
    assert.deepEqual(images, ['gb-frontend:v5', 'gb-frontend:v6']);
  });

  it('10: relabelling a pod releases it; the ReplicaSet replaces it and the pod keeps running', async () => {
    const [drifted] = await readyPods('tier=frontend', 2);
    await kc('label', 'pod', drifted!.metadata.name, 'tier=removed', '--overwrite');
    await readyPods('tier=frontend', 2);
    const released = await pollUntil('release', async () => {
      const [p] = await pods('tier=removed');
      return p && owner(p) === undefined ? p : undefined;
    });
    assert.equal(released.metadata.uid, drifted!.metadata.uid);
    assert.ok(ready(released));
  });

  it('3: scaling to 0 deletes every pod; scaling back creates new ones', async () => {
    await kc('scale', 'rs', 'frontend', '--replicas=0');
    await pollUntil('no pods', async () =>
      (await pods('tier=frontend')).length === 0 ? true : undefined,
    );
    await kc('scale', 'rs', 'frontend', '--replicas=2');
    await readyPods('tier=frontend', 2);
  });

  it('6: --cascade=orphan leaves the pods ownerless; a new ReplicaSet adopts them without creating pods', async () => {
    const before = await readyPods('tier=frontend', 2);
    await kc('delete', 'rs', 'frontend', '--cascade=orphan');
    await pollUntil('orphans', async () => {
      const list = await pods('tier=frontend');
      return list.length === 2 && list.every((p) => owner(p) === undefined) ? true : undefined;
    });
    await create(replicaSet('frontend-2', 2, { tier: 'frontend' }));
    const adopted = await pollUntil('adoption', async () => {
      const list = await pods('tier=frontend');
      return list.length === 2 && list.every((p) => owner(p)?.name === 'frontend-2')
        ? list
        : undefined;
    });
    assert.deepEqual(
      adopted.map((p) => p.metadata.uid).sort(),
      before.map((p) => p.metadata.uid).sort(),
    );
  });

  it('1: a new ReplicaSet adopts matching bare pods and deletes the extras', async () => {
    const bare = ['web-a', 'web-b', 'web-c'].map((n) => pod(n, { labels: { app: 'web' } }));
    await create(...bare);
    await readyPods('app=web', 3);
    await create(replicaSet('web', 2, { app: 'web' }));
    const left = await pollUntil('adopted and trimmed', async () => {
      const list = await pods('app=web');
      return list.length === 2 && list.every((p) => owner(p)?.name === 'web') ? list : undefined;
    });
    // Adopted, not recreated: the survivors are two of the bare pods.
    for (const p of left) assert.match(p.metadata.name, /^web-[abc]$/);
  });

  it('deleting a ReplicaSet (background) removes its pods', async () => {
    await kc('delete', 'rs', 'web');
    await pollUntil('pods gone', async () =>
      (await pods('app=web')).length === 0 ? true : undefined,
    );
  });
});
