/**
 * StatefulSet updates behind the alpha feature gates, on one `fleetyard up --ephemeral
 * --feature-gates=MaxUnavailableStatefulSet=true,StatefulSetRecreateStrategy=true`, driven by
 * kubectl 1.33 and watched by a client-node pod informer that checks invariants at every event
 * (the Kubernetes StatefulSet page, "Maximum unavailable Pods" and "Recreate"):
 * `rollingUpdate.maxUnavailable: 2` (and a percentage, rounded down as upstream) replaces up to
 * two pods at once and never more, with OrderedReady and with Parallel; `updateStrategy.type:
 * Recreate` deletes every pod before any pod of the new revision exists, then recreates them in
 * ordinal order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeInformer, type V1Pod } from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';

interface Sts {
  metadata: { generation?: number };
  spec: { updateStrategy?: { type?: string; rollingUpdate?: Record<string, unknown> } };
  status?: Record<string, number | string | undefined>;
}

function sts(
  name: string,
  replicas: number,
  image: string,
  updateStrategy: object,
  podManagementPolicy = 'OrderedReady',
): object {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, labels },
    spec: {
      replicas,
      serviceName: name,
      podManagementPolicy,
      updateStrategy,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'web', image }] },
      },
    },
  };
}

const isReady = (p: V1Pod | undefined): boolean =>
  p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const live = (p: V1Pod): boolean => p.metadata?.deletionTimestamp == null;
const imageOf = (p: V1Pod | undefined): string => p?.spec?.containers[0]?.image ?? '';
const ordinalOf = (p: V1Pod): number => Number(/-(\d+)$/.exec(p.metadata?.name ?? '')?.[1]);
const byOrdinal = (pods: readonly V1Pod[]): Map<number, V1Pod> =>
  new Map(pods.filter(live).map((p) => [ordinalOf(p), p]));

/** Ordinals in 0..replicas-1 that are absent, terminating or not Ready. */
function down(pods: readonly V1Pod[], replicas: number): number[] {
  const m = byOrdinal(pods);
  const out: number[] = [];
  for (let i = 0; i < replicas; i++) if (!isReady(m.get(i))) out.push(i);
  return out;
}

describe('statefulset updates behind feature gates', () => {
  let h: support.Harness | undefined;
  let k: Kubectl;
  const ns = 'sts-gates';
  const kc = (...args: string[]) => k.ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  const apply = (obj: object) =>
    k.ok(['-n', ns, 'apply', '-f', '-'], { input: JSON.stringify(obj) });
  const read = async (name: string): Promise<Sts> =>
    JSON.parse(await kc('get', 'statefulset', name, '-o', 'json')) as Sts;
  const rolledOut = (name: string) =>
    kc('rollout', 'status', `statefulset/${name}`, '--timeout=60s');

  before(async () => {
    h = await support.startHarness([
      '--feature-gates=MaxUnavailableStatefulSet=true,StatefulSetRecreateStrategy=true',
    ]);
    const found = kubectl('1.33', h.cluster.kubeconfig);
    assert.ok(found, 'kubectl.1.33 is needed for the statefulset tests');
    k = found;
    await support.createNamespace(h, ns);
  });
  after(() => support.stopHarness(h));

  /**
   * Watches the set's pods and calls `check(pods, fresh)` after every event, `fresh` being a
   * pod (uid) seen for the first time; records those pods' ordinals and images in order, and
   * the smallest number of pods (terminating included) the watch saw.
   */
  async function watchSet(
    name: string,
    check: (pods: readonly V1Pod[], fresh: V1Pod | undefined) => void,
  ) {
    const selector = `app=${name}`;
    const list = () => h!.core.listNamespacedPod({ namespace: ns, labelSelector: selector });
    const informer = makeInformer(h!.kc, `/api/v1/namespaces/${ns}/pods`, list, selector);
    const violations: string[] = [];
    const created: { ordinal: number; image: string }[] = [];
    const seen = new Set<string>();
    let listed = false;
    let fewest = Number.POSITIVE_INFINITY;
    const onEvent = (p: V1Pod) => {
      const uid = p.metadata?.uid ?? '';
      const fresh = listed && !seen.has(uid) && live(p) ? p : undefined;
      seen.add(uid);
      if (!listed) return;
      if (fresh) created.push({ ordinal: ordinalOf(fresh), image: imageOf(fresh) });
      fewest = Math.min(fewest, informer.list().length);
      try {
        check(informer.list(), fresh);
      } catch (err) {
        violations.push((err as Error).message);
      }
    };
    informer.on('add', onEvent);
    informer.on('update', onEvent);
    informer.on('delete', onEvent);
    await informer.start();
    listed = true;
    return {
      pods: () => informer.list(),
      violations,
      created,
      fewest: () => fewest,
      stop: () => informer.stop(),
    };
  }

  const allAt = (w: { pods(): readonly V1Pod[] }, replicas: number, image: string) =>
    support.waitFor(
      `${replicas} Ready pods at ${image}`,
      () => {
        const ps = w.pods();
        return (
          ps.length === replicas && ps.every((p) => live(p) && isReady(p) && imageOf(p) === image)
        );
      },
      { timeoutMs: 30_000 },
    );

  /**
   * A RollingUpdate with `maxUnavailable` (effective value `max`) from v1 to v2. At every event:
   * at most `max` ordinals below Ready, and no old pod above a new one (highest ordinals go
   * first). With OrderedReady, a batch of `max` pods goes down together and the next batch only
   * once every higher ordinal is updated and Ready. Returns the most ordinals seen down at once.
   */
  async function burst(
    name: string,
    replicas: number,
    maxUnavailable: number | string,
    max: number,
    policy: 'OrderedReady' | 'Parallel',
  ): Promise<number> {
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } };
    await apply(sts(name, replicas, 'web:v1', strategy, policy));
    await rolledOut(name);
    const stored = (await read(name)).spec.updateStrategy?.rollingUpdate?.maxUnavailable;
    assert.equal(stored, maxUnavailable, 'the gate keeps maxUnavailable');
    let mostDown = 0;
    const batch = (i: number) => Math.floor((replicas - 1 - i) / max);
    const w = await watchSet(name, (ps, fresh) => {
      const d = down(ps, replicas);
      mostDown = Math.max(mostDown, d.length);
      assert.ok(d.length <= max, `${d.length} ordinals below Ready (${d}) > ${max}`);
      const m = byOrdinal(ps);
      const updated = [...m].filter(([, p]) => imageOf(p) === 'web:v2').map(([i]) => i);
      const old = [...m].filter(([, p]) => imageOf(p) === 'web:v1').map(([i]) => i);
      const lowestNew = Math.min(...updated);
      assert.ok(
        old.every((i) => i < lowestNew),
        `old pods ${old} above updated pods ${updated}`,
      );
      if (policy === 'OrderedReady' && fresh && imageOf(fresh) === 'web:v2') {
        for (let j = 0; j < replicas; j++) {
          if (batch(j) >= batch(ordinalOf(fresh))) continue;
          const p = m.get(j);
          assert.ok(
            imageOf(p) === 'web:v2' && isReady(p),
            `${name}-${ordinalOf(fresh)} created before ${name}-${j} was updated and Ready`,
          );
        }
      }
    });
    try {
      await apply(sts(name, replicas, 'web:v2', strategy, policy));
      await rolledOut(name);
      await allAt(w, replicas, 'web:v2');
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.equal(w.created.length, replicas, 'each pod replaced once');
    const s = await read(name);
    assert.equal(s.status?.currentRevision, s.status?.updateRevision);
    assert.equal(s.status?.updatedReplicas, replicas);
    return mostDown;
  }

  it('maxUnavailable: 2 replaces two pods at a time (OrderedReady)', async () => {
    assert.equal(await burst('burst', 4, 2, 2, 'OrderedReady'), 2, 'two pods down at once');
  });

  it('maxUnavailable: 50% of 5 rounds down to 2', async () => {
    assert.equal(await burst('percent', 5, '50%', 2, 'OrderedReady'), 2, 'two pods down at once');
  });

  it('maxUnavailable: 2 with podManagementPolicy Parallel', async () => {
    assert.equal(await burst('parallel', 4, 2, 2, 'Parallel'), 2, 'two pods down at once');
  });

  /**
   * `updateStrategy.type: Recreate` from v1 to v2. At every event: never old and new pods
   * together (terminating ones included); with OrderedReady a new pod only once every lower
   * ordinal is Ready. The watch must see the set with no pod at all.
   */
  async function recreate(name: string, policy: 'OrderedReady' | 'Parallel'): Promise<number[]> {
    const replicas = 3;
    const strategy = { type: 'Recreate' };
    await apply(sts(name, replicas, 'web:v1', strategy, policy));
    // kubectl's own rule (upstream): rollout status only follows RollingUpdate sets.
    const r = await k.run(['-n', ns, 'rollout', 'status', `statefulset/${name}`]);
    assert.match(r.stderr, /rollout status is only available for RollingUpdate strategy type/);
    await support.waitFor('three Ready pods', async () => {
      const ps = (await h!.core.listNamespacedPod({ namespace: ns, labelSelector: `app=${name}` }))
        .items;
      return ps.length === replicas && ps.every(isReady);
    });
    assert.equal((await read(name)).spec.updateStrategy?.type, 'Recreate');
    const w = await watchSet(name, (ps, fresh) => {
      const images = new Set(ps.map(imageOf));
      assert.ok(images.size <= 1, `old and new pods together: ${[...images]}`);
      if (fresh && policy === 'OrderedReady') {
        const m = byOrdinal(ps);
        for (let j = 0; j < ordinalOf(fresh); j++)
          assert.ok(isReady(m.get(j)), `${name}-${ordinalOf(fresh)} before ${name}-${j} Ready`);
      }
    });
    try {
      await apply(sts(name, replicas, 'web:v2', strategy, policy));
      await allAt(w, replicas, 'web:v2');
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.equal(w.fewest(), 0, 'every pod was gone before the new ones were created');
    assert.ok(w.created.every((c) => c.image === 'web:v2'));
    const s = await read(name);
    assert.equal(s.status?.currentRevision, s.status?.updateRevision);
    assert.equal(s.status?.updatedReplicas, replicas);
    return w.created.map((c) => c.ordinal);
  }

  it('Recreate (OrderedReady): all pods go, then come back one by one in ordinal order', async () => {
    assert.deepEqual(await recreate('recreate', 'OrderedReady'), [0, 1, 2]);
  });

  it('Recreate (Parallel): all pods go, then all come back', async () => {
    assert.deepEqual((await recreate('recreate-par', 'Parallel')).sort(), [0, 1, 2]);
  });
});
