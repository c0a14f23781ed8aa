/**
 * StatefulSet updates on one `fleetyard up --ephemeral` with the default feature gates, driven
 * by kubectl 1.33 and watched by a client-node pod informer that checks invariants at every
 * observed event (the Kubernetes StatefulSet page, "Update strategies" … "Revision history"):
 * RollingUpdate from the highest ordinal down, one pod at a time, each after the previous one is
 * Running and Ready; partitions (a pod below the partition comes back at the old revision, a
 * partition above replicas stops the rollout); OnDelete; the forced rollback; ControllerRevision
 * history, `rollout history|undo|restart` (undo renumbers the old revision, as upstream);
 * `kubectl apply` overriding a manual `kubectl scale`; and, with the gates off,
 * `rollingUpdate.maxUnavailable` dropped and `updateStrategy.type: Recreate` refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeInformer, type V1StatefulSet as Sts, type V1Pod } from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';

interface StsOptions {
  replicas?: number;
  image?: string;
  updateStrategy?: object;
  labels?: Record<string, string>;
  revisionHistoryLimit?: number;
}

function sts(name: string, o: StsOptions = {}): object {
  const labels = o.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, labels },
    spec: {
      replicas: o.replicas ?? 4,
      serviceName: name,
      selector: { matchLabels: labels },
      // Unset means RollingUpdate with `rollingUpdate: {partition: 0}` (upstream defaulting).
      ...(o.updateStrategy ? { updateStrategy: o.updateStrategy } : {}),
      revisionHistoryLimit: o.revisionHistoryLimit ?? 10,
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'web', image: o.image ?? 'web:v1' }],
        },
      },
    },
  };
}

const isReady = (p: V1Pod | undefined): boolean =>
  p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const live = (p: V1Pod): boolean => p.metadata?.deletionTimestamp == null;
const imageOf = (p: V1Pod | undefined): string => p?.spec?.containers[0]?.image ?? '';
const hashOf = (p: V1Pod | undefined): string =>
  p?.metadata?.labels?.['controller-revision-hash'] ?? '';
const ordinalOf = (p: V1Pod): number => Number(/-(\d+)$/.exec(p.metadata?.name ?? '')?.[1]);
const uidOf = (p: V1Pod | undefined): string => p?.metadata?.uid ?? '';
const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Live pods by ordinal. */
function byOrdinal(pods: readonly V1Pod[]): Map<number, V1Pod> {
  return new Map(pods.filter(live).map((p) => [ordinalOf(p), p]));
}

/** Ordinals in 0..replicas-1 that are absent, terminating or not Ready. */
function down(pods: readonly V1Pod[], replicas: number): number[] {
  const m = byOrdinal(pods);
  const out: number[] = [];
  for (let i = 0; i < replicas; i++) if (!isReady(m.get(i))) out.push(i);
  return out;
}

/**
 * "No two live pods with one ordinal": a pod (uid) seen for a name whose previous pod was not
 * yet seen deleted is a violation. `observe` returns the pod when its uid is new.
 */
class NameTracker {
  private readonly seen = new Set<string>();
  private readonly holder = new Map<string, string>();
  private readonly violations: string[];
  constructor(violations: string[]) {
    this.violations = violations;
  }
  observe(verb: string, p: V1Pod, listed: boolean): V1Pod | undefined {
    const [name, uid] = [p.metadata?.name ?? '', uidOf(p)];
    if (verb === 'delete') {
      if (this.holder.get(name) === uid) this.holder.delete(name);
      return undefined;
    }
    if (this.seen.has(uid)) return undefined;
    this.seen.add(uid);
    const prior = this.holder.get(name);
    if (listed && prior !== undefined)
      this.violations.push(`${name}: new pod ${uid} while ${prior} was not deleted`);
    this.holder.set(name, uid);
    return listed ? p : undefined;
  }
}

describe('statefulset updates (default feature gates)', () => {
  let h: support.Harness | undefined;
  let k: Kubectl;
  const ns = 'sts-updates';
  const kc = (...args: string[]) => k.ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  const apply = (obj: object) =>
    k.ok(['-n', ns, 'apply', '-f', '-'], { input: JSON.stringify(obj) });
  const read = async (name: string): Promise<Sts> =>
    JSON.parse(await kc('get', 'statefulset', name, '-o', 'json')) as Sts;
  const pods = async (selector: string) =>
    (await h!.core.listNamespacedPod({ namespace: ns, labelSelector: selector })).items;
  /** The set's status once the controller has observed its latest generation. */
  const observed = (name: string) =>
    support.waitFor(`sts/${name} observedGeneration == generation`, async () => {
      const s = await read(name);
      return s.status?.observedGeneration === s.metadata?.generation;
    });
  const rolledOut = (name: string) =>
    kc('rollout', 'status', `statefulset/${name}`, '--timeout=60s');

  before(async () => {
    h = await support.startHarness();
    const found = kubectl('1.33', h.cluster.kubeconfig);
    assert.ok(found, 'kubectl.1.33 is needed for the statefulset tests');
    k = found;
    await support.createNamespace(h, ns);
  });
  after(() => support.stopHarness(h));

  /**
   * Watches the set's pods; after every event checks "one live pod per name" and calls
   * `check(pods, fresh)` where `fresh` is a pod (uid) seen for the first time. Records the
   * ordinals of newly seen pods in order.
   */
  async function watchSet(
    selector: string,
    check: (pods: readonly V1Pod[], fresh: V1Pod | undefined) => void = () => {},
  ) {
    const list = () => h!.core.listNamespacedPod({ namespace: ns, labelSelector: selector });
    const informer = makeInformer(h!.kc, `/api/v1/namespaces/${ns}/pods`, list, selector);
    const violations: string[] = [];
    const created: { ordinal: number; image: string; uid: string }[] = [];
    const names = new NameTracker(violations);
    let listed = false;
    const onEvent = (verb: 'add' | 'update' | 'delete') => (p: V1Pod) => {
      const fresh = names.observe(verb, p, listed);
      if (fresh) created.push({ ordinal: ordinalOf(p), image: imageOf(p), uid: uidOf(p) });
      if (!listed) return;
      try {
        check(informer.list(), fresh);
      } catch (err) {
        violations.push((err as Error).message);
      }
    };
    informer.on('add', onEvent('add'));
    informer.on('update', onEvent('update'));
    informer.on('delete', onEvent('delete'));
    await informer.start();
    listed = true;
    return { pods: () => informer.list(), violations, created, stop: () => informer.stop() };
  }

  /** Waits until `replicas` live Ready pods all run `image`. */
  const allAt = (selector: string, replicas: number, image: string) =>
    support.waitFor(
      `${replicas} Ready pods at ${image}`,
      async () => {
        const ps = (await pods(selector)).filter(live);
        return ps.length === replicas && ps.every((p) => isReady(p) && imageOf(p) === image);
      },
      { timeoutMs: 30_000 },
    );

  it('RollingUpdate: highest ordinal first, one at a time, each after the previous is Ready', async () => {
    const replicas = 4;
    await apply(sts('roll', { replicas }));
    await rolledOut('roll');
    const before = await read('roll');
    const w = await watchSet('app=roll', (ps, fresh) => {
      const d = down(ps, replicas);
      assert.ok(d.length <= 1, `more than one ordinal below Ready: ${d.join(',')}`);
      if (fresh && imageOf(fresh) === 'web:v2') {
        const m = byOrdinal(ps);
        for (let j = ordinalOf(fresh) + 1; j < replicas; j++) {
          const higher = m.get(j);
          assert.ok(
            higher && imageOf(higher) === 'web:v2' && isReady(higher),
            `roll-${ordinalOf(fresh)} updated before roll-${j} was updated and Ready`,
          );
        }
      }
    });
    try {
      await apply(sts('roll', { replicas, image: 'web:v2' }));
      assert.match(
        await rolledOut('roll'),
        /partitioned roll out complete: 4 new pods have been updated/,
      );
      await allAt('app=roll', replicas, 'web:v2');
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.equal(
      w.created.map((c) => `${c.ordinal}@${c.image}`).join(),
      '3@web:v2,2@web:v2,1@web:v2,0@web:v2',
    );
    await observed('roll');
    const s = await read('roll');
    assert.notEqual(s.status?.updateRevision, before.status?.updateRevision);
    assert.equal(s.status?.currentRevision, s.status?.updateRevision);
    const st = s.status;
    const counts = [st?.replicas, st?.updatedReplicas, st?.readyReplicas, st?.availableReplicas];
    assert.deepEqual([...counts, st?.currentReplicas], [4, 4, 4, 4, 4]);
    assert.equal(s.status?.observedGeneration, s.metadata?.generation);
    for (const p of await pods('app=roll')) assert.equal(hashOf(p), s.status?.updateRevision);
  });

  it('rollout restart replaces every pod once, highest ordinal first', async () => {
    const w = await watchSet('app=roll', (ps) => {
      const d = down(ps, 4);
      assert.ok(d.length <= 1, `more than one ordinal below Ready: ${d.join(',')}`);
    });
    try {
      await kc('rollout', 'restart', 'statefulset/roll');
      await rolledOut('roll');
      await support.waitFor('four replaced Ready pods', () => {
        const ps = w.pods().filter(live);
        return w.created.length >= 4 && ps.length === 4 && ps.every(isReady);
      });
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.equal(w.created.map((c) => c.ordinal).join(), '3,2,1,0');
    const s = await read('roll');
    assert.ok(s.spec?.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']);
  });

  it('partitions: only ordinals >= partition update; deleted pods below it keep the old revision', async () => {
    await apply(sts('part', { image: 'web:v1' }));
    await rolledOut('part');
    const partition = (n: number, image: string) =>
      apply(
        sts('part', {
          image,
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: n } },
        }),
      );
    await partition(2, 'web:v2');
    await rolledOut('part'); // complete once updatedReplicas >= replicas - partition
    await observed('part');
    let s = await read('part');
    const [oldRev, newRev] = [s.status?.currentRevision, s.status?.updateRevision];
    assert.notEqual(oldRev, newRev);
    const at = async () => {
      const m = byOrdinal(await pods('app=part'));
      return [0, 1, 2, 3].map((i) => [imageOf(m.get(i)), hashOf(m.get(i))]);
    };
    const [v1, v2] = [
      ['web:v1', oldRev],
      ['web:v2', newRev],
    ];
    const expected = [v1, v1, v2, v2];
    await support.waitFor(
      'ordinals 2,3 at v2',
      async () => JSON.stringify(await at()) === JSON.stringify(expected),
    );
    assert.equal(s.status?.updatedReplicas, 2);

    const uid0 = uidOf(byOrdinal(await pods('app=part')).get(0));
    // No --wait: the set recreates the pod under its name at once, and kubectl's wait (a GET,
    // then a LIST by name) can find the successor and wait for it forever; the wait below
    // checks the uid instead.
    await kc('delete', 'pod', 'part-0', '--wait=false');
    await support.waitFor('part-0 recreated and Ready', async () => {
      const p = byOrdinal(await pods('app=part')).get(0);
      return p !== undefined && uidOf(p) !== uid0 && isReady(p);
    });
    assert.deepEqual(await at(), expected, 'part-0 comes back at the old revision');

    await partition(10, 'web:v3');
    await observed('part');
    await sleep(2000);
    const images = (await pods('app=part')).map(imageOf);
    assert.ok(!images.includes('web:v3'), `partition > replicas: no pod updated (${images})`);

    await partition(0, 'web:v3');
    await rolledOut('part');
    await allAt('app=part', 4, 'web:v3');
    await observed('part');
    s = await read('part');
    assert.equal(s.status?.currentRevision, s.status?.updateRevision);
    assert.equal(s.status?.updatedReplicas, 4);
  });

  it('OnDelete: a template change updates no pod until the pod is deleted', async () => {
    const onDelete = (image: string) =>
      sts('ondel', { replicas: 3, image, updateStrategy: { type: 'OnDelete' } });
    await apply(onDelete('web:v1'));
    await allAt('app=ondel', 3, 'web:v1');
    await apply(onDelete('web:v2'));
    await observed('ondel');
    await sleep(2000);
    assert.deepEqual((await pods('app=ondel')).map(imageOf), ['web:v1', 'web:v1', 'web:v1']);
    await kc('delete', 'pod', 'ondel-1', '--wait=false'); // See part-0: the wait below.
    await support.waitFor('ondel-1 back at v2', async () => {
      const p = byOrdinal(await pods('app=ondel')).get(1);
      return p !== undefined && isReady(p) && imageOf(p) === 'web:v2';
    });
    const m = byOrdinal(await pods('app=ondel'));
    assert.equal([0, 1, 2].map((i) => imageOf(m.get(i))).join(), 'web:v1,web:v2,web:v1');
    await observed('ondel');
    const s = await read('ondel');
    assert.equal(hashOf(m.get(1)), s.status?.updateRevision);
    assert.equal(s.status?.updatedReplicas, 1);
  });

  it('forced rollback: a broken pod blocks the rollout until it is deleted', async () => {
    await apply(sts('broken', { replicas: 3 }));
    await rolledOut('broken');
    const uids = async () => (await pods('app=broken')).map((p) => [p.metadata?.name, uidOf(p)]);
    const ok01 = (await uids()).slice(0, 2);
    await apply(sts('broken', { replicas: 3, image: 'web:nonexistent' }));
    await support.waitFor('broken-2 failing to pull', async () => {
      const p = byOrdinal(await pods('app=broken')).get(2);
      const reason = p?.status?.containerStatuses?.[0]?.state?.waiting?.reason;
      return imageOf(p) === 'web:nonexistent' && /ErrImagePull|ImagePullBackOff/.test(`${reason}`);
    });
    await sleep(2000);
    assert.deepEqual((await uids()).slice(0, 2), ok01, 'the rollout stops after broken-2');
    const brokenUid = uidOf(byOrdinal(await pods('app=broken')).get(2));

    await apply(sts('broken', { replicas: 3, image: 'web:v1' }));
    await observed('broken');
    await sleep(3000);
    const p2 = byOrdinal(await pods('app=broken')).get(2);
    assert.equal(uidOf(p2), brokenUid, 'reverting the template does not replace the broken pod');
    assert.equal(imageOf(p2), 'web:nonexistent');

    await kc('delete', 'pod', 'broken-2', '--wait=false'); // See part-0: the waits below.
    await rolledOut('broken');
    await allAt('app=broken', 3, 'web:v1');
    assert.deepEqual((await uids()).slice(0, 2), ok01);
  });

  it('revision history: ControllerRevisions, rollout history, undo renumbers, limit', async () => {
    const labels = { 'app.kubernetes.io/name': 'webapp' };
    const sel = 'app.kubernetes.io/name=webapp';
    const webapp = (image: string) =>
      sts('webapp', { replicas: 2, image, labels, revisionHistoryLimit: 5 });
    for (const v of ['web:v1', 'web:v2', 'web:v3']) {
      await apply(webapp(v));
      await rolledOut('webapp');
    }
    const revisions = async () =>
      lines(await kc('rollout', 'history', 'statefulset/webapp'))
        .filter((l) => /^\d+\s/.test(l))
        .map((l) => Number.parseInt(l, 10));
    assert.match(
      await kc('rollout', 'history', 'statefulset/webapp'),
      /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n3\s+<none>/,
    );
    const table = await kc('get', 'controllerrevisions', '-l', sel);
    assert.match(table, /^NAME\s+CONTROLLER\s+REVISION\s+AGE/);
    const rows = lines(table).map((l) => l.split(/\s+/));
    rows.shift();
    const owner = 'statefulset.apps/webapp';
    assert.deepEqual(
      rows.map((r) => `${r[1]} ${r[2]}`).sort(),
      [1, 2, 3].map((n) => `${owner} ${n}`),
    );
    const nameOf = (rev: string) => rows.find((r) => r[2] === rev)?.[0] ?? '';
    assert.match(nameOf('1'), /^webapp-[a-z0-9]+$/, 'upstream names revisions <set>-<hash>');
    const yaml = await kc('get', `controllerrevision/${nameOf('2')}`, '-o', 'yaml');
    assert.match(yaml, /^revision: 2$/m);
    assert.match(yaml, /^data:\n\s+spec:\n\s+template:/m);
    assert.match(yaml, /image: web:v2/);
    const two = await kc('rollout', 'history', 'statefulset/webapp', '--revision=2');
    assert.match(two, /with revision #2/);
    assert.match(two, /Image:\s+web:v2/);

    await kc('rollout', 'undo', 'statefulset/webapp', '--to-revision=1');
    await rolledOut('webapp');
    await allAt(sel, 2, 'web:v1');
    assert.equal((await read('webapp')).spec?.template.spec?.containers[0]?.image, 'web:v1');
    assert.deepEqual(await revisions(), [2, 3, 4], 'undo renumbers revision 1 as 4');
    const four = await kc('get', 'controllerrevisions', nameOf('1'), '-o', 'yaml');
    assert.match(four, /^revision: 4$/m, 'the old object is reused');
    const s = await read('webapp');
    assert.equal(s.status?.updateRevision, nameOf('1'));
    for (const p of await pods(sel)) assert.equal(hashOf(p), nameOf('1'));

    for (const v of ['web:v4', 'web:v5', 'web:v6', 'web:v7', 'web:v8']) {
      await apply(webapp(v));
      await rolledOut('webapp');
    }
    await allAt(sel, 2, 'web:v8');
    // Upstream truncateHistory keeps revisionHistoryLimit non-live revisions plus the live one.
    const kept = async () => (await revisions()).join() === '4,5,6,7,8,9';
    await support.waitFor('5 non-live revisions and the live one', kept);
    const current = (await read('webapp')).status?.updateRevision as string;
    assert.match(
      await kc('get', 'controllerrevisions', '-l', sel, '-o', 'name'),
      new RegExp(current),
    );
  });

  it('kubectl apply of the manifest overrides a manual kubectl scale', async () => {
    await apply(sts('scaled', { replicas: 2 }));
    await rolledOut('scaled');
    await kc('scale', 'statefulset', 'scaled', '--replicas=4');
    await allAt('app=scaled', 4, 'web:v1');
    await apply(sts('scaled', { replicas: 2 }));
    assert.equal((await read('scaled')).spec?.replicas, 2);
    await support.waitFor('two pods', async () => (await pods('app=scaled')).length === 2);
    const names = (await pods('app=scaled')).map((p) => p.metadata?.name);
    assert.equal(names.sort().join(), 'scaled-0,scaled-1');
  });

  it('with the gates off: maxUnavailable is dropped and Recreate is refused', async () => {
    await apply(
      sts('gated', {
        replicas: 1,
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
      }),
    );
    const s = await read('gated');
    assert.equal(s.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, undefined);
    assert.equal(s.spec?.updateStrategy?.rollingUpdate?.partition, 0);
    const r = await k.run(['-n', ns, 'apply', '-f', '-'], {
      input: JSON.stringify(sts('recreate', { updateStrategy: { type: 'Recreate' } })),
    });
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      /The StatefulSet "recreate" is invalid: spec\.updateStrategy: Invalid value: .*must be 'RollingUpdate' or 'OnDelete'/,
    );
    assert.equal((await k.run(['-n', ns, 'get', 'sts', 'recreate'])).code, 1);
  });
});
