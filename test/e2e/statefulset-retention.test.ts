/**
 * The StatefulSet concept page's PVC retention statements on a running `fleetyard up` (default
 * flags, default StorageClass `standard`), with kubectl 1.33 and a client-node informer on the
 * claims:
 * - the page's sample (whenDeleted Retain, whenScaled Delete): scaling 3→1 deletes the claims
 *   of the condemned ordinals through an owner reference to their pod, keeps claim 0; a pod
 *   deleted by hand comes back on the same claim; deleting the set keeps claim 0;
 * - whenDeleted Delete: the claims are owned by the set and go with it;
 * - the default (Retain/Retain): neither scaling down nor deleting the set deletes a claim or
 *   its volume.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeInformer, type V1PersistentVolumeClaim } from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON read-backs, checked by assertions
type Json = Record<string, any>;

const isReady = (p: Json): boolean =>
  (p.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function statefulSet(name: string, replicas: number, policy?: Json): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      serviceName: name,
      replicas,
      ...(policy ? { persistentVolumeClaimRetentionPolicy: policy } : {}),
      template: {
        metadata: { labels: { app: name } },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [
            {
              name: 'main',
              image: 'web:v1',
              volumeMounts: [{ name: 'www', mountPath: '/data' }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'www' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
}

describe('StatefulSet PVC retention (seed) on fleetyard up', () => {
  let h: support.Harness | undefined;
  let k: Kubectl;
  const kc = (ns: string, ...args: string[]) => k.ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  const get = async (ns: string, ...what: string[]): Promise<Json> =>
    JSON.parse(await kc(ns, 'get', ...what, '-o', 'json')) as Json;
  const names = async (ns: string, kind: string, selector?: string): Promise<string[]> =>
    ((await get(ns, kind, ...(selector ? ['-l', selector] : []))).items as Json[])
      .map((o) => o.metadata.name as string)
      .sort();
  const pods = async (ns: string, app: string): Promise<Json[]> =>
    (await get(ns, 'pods', '-l', `app=${app}`)).items as Json[];
  const waitFor = (what: string, check: () => Promise<boolean>, timeoutMs = 30_000) =>
    support.waitFor(what, check, { timeoutMs });

  /** Creates the set and waits for its pods Ready and its claims Bound. */
  async function createSet(ns: string, name: string, replicas: number, policy?: Json) {
    await support.createNamespace(h!, ns);
    await k.ok(['-n', ns, 'create', '-f', '-'], {
      input: JSON.stringify(statefulSet(name, replicas, policy)),
    });
    await waitFor(`${name} Ready with claims Bound`, async () => {
      const ready = (await pods(ns, name)).filter(isReady).length;
      const claims = (await get(ns, 'pvc')).items as Json[];
      return (
        ready === replicas &&
        claims.length === replicas &&
        claims.every((c) => c.status?.phase === 'Bound')
      );
    });
  }

  /** Records every owner reference each claim of the namespace was seen with. */
  async function watchClaims(ns: string) {
    const list = () => h!.core.listNamespacedPersistentVolumeClaim({ namespace: ns });
    const informer = makeInformer(h!.kc, `/api/v1/namespaces/${ns}/persistentvolumeclaims`, list);
    const owners = new Map<string, Set<string>>();
    const record = (c: V1PersistentVolumeClaim) => {
      const name = c.metadata?.name ?? '';
      const seen = owners.get(name) ?? new Set<string>();
      for (const o of c.metadata?.ownerReferences ?? []) seen.add(`${o.kind}/${o.name}/${o.uid}`);
      owners.set(name, seen);
    };
    informer.on('add', record);
    informer.on('update', record);
    await informer.start();
    return { owners: (name: string) => [...(owners.get(name) ?? [])], stop: () => informer.stop() };
  }

  before(async () => {
    h = await support.startHarness();
    const found = kubectl('1.33', h.cluster.kubeconfig);
    assert.ok(found, 'kubectl.1.33 is needed');
    k = found;
  });
  after(() => support.stopHarness(h));

  it('whenScaled Delete: scale-down deletes the condemned claims via their pods; whenDeleted Retain keeps claim 0', async () => {
    const ns = 'keep';
    await createSet(ns, 'keep', 3, { whenDeleted: 'Retain', whenScaled: 'Delete' });
    const condemned = new Map<string, string>();
    for (const p of await pods(ns, 'keep')) condemned.set(p.metadata.name, p.metadata.uid);
    const claim0 = await get(ns, 'pvc', 'www-keep-0');
    assert.deepEqual(claim0.metadata.ownerReferences ?? [], [], 'an in-range claim has no owner');
    const w = await watchClaims(ns);
    try {
      await kc(ns, 'patch', 'statefulset', 'keep', '-p', '{"spec":{"replicas":1}}');
      await waitFor('claims 1 and 2 deleted', async () => {
        const claims = await names(ns, 'pvc');
        return claims.length === 1 && claims[0] === 'www-keep-0';
      });
    } finally {
      await w.stop();
    }
    assert.deepEqual(await names(ns, 'pods', 'app=keep'), ['keep-0']);
    for (const i of [1, 2]) {
      const uid = condemned.get(`keep-${i}`);
      assert.ok(
        w.owners(`www-keep-${i}`).includes(`Pod/keep-${i}/${uid}`),
        `www-keep-${i} was owned by its pod; seen owners: ${w.owners(`www-keep-${i}`)}`,
      );
    }
    // A pod deleted by hand is replaced on the same claim and volume.
    await kc(ns, 'delete', 'pod', 'keep-0', '--wait=false');
    await waitFor('a new keep-0 Ready', async () => {
      const p = (await pods(ns, 'keep')).find((x) => x.metadata.name === 'keep-0');
      return p !== undefined && p.metadata.uid !== condemned.get('keep-0') && isReady(p);
    });
    const [replacement] = await pods(ns, 'keep');
    assert.ok(replacement);
    const vol = (replacement.spec.volumes as Json[]).find((v) => v.name === 'www');
    assert.equal(vol?.persistentVolumeClaim?.claimName, 'www-keep-0');
    const again = await get(ns, 'pvc', 'www-keep-0');
    assert.equal(again.metadata.uid, claim0.metadata.uid);
    assert.equal(again.spec.volumeName, claim0.spec.volumeName);
    // whenDeleted Retain: deleting the set keeps claim 0 and its volume.
    await kc(ns, 'delete', 'statefulset', 'keep');
    await waitFor('keep pods gone', async () => (await pods(ns, 'keep')).length === 0);
    await sleep(2000);
    const kept = await get(ns, 'pvc', 'www-keep-0');
    assert.equal(kept.metadata.uid, claim0.metadata.uid);
    assert.equal(kept.metadata.deletionTimestamp, undefined);
    assert.equal(kept.status.phase, 'Bound');
    await kc(ns, 'get', 'pv', claim0.spec.volumeName);
  });

  it('whenDeleted Delete: the claims are owned by the set and deleted with it', async () => {
    const ns = 'drop';
    await createSet(ns, 'drop', 2, { whenDeleted: 'Delete', whenScaled: 'Retain' });
    const set = await get(ns, 'statefulset', 'drop');
    for (const i of [0, 1]) {
      const claim = await get(ns, 'pvc', `www-drop-${i}`);
      const refs = (claim.metadata.ownerReferences ?? []) as Json[];
      assert.deepEqual(
        refs.map((r) => `${r.kind}/${r.name}/${r.uid}`),
        [`StatefulSet/drop/${set.metadata.uid}`],
      );
    }
    await kc(ns, 'delete', 'statefulset', 'drop');
    await waitFor('drop claims deleted', async () => (await names(ns, 'pvc')).length === 0);
    assert.deepEqual(await names(ns, 'pods', 'app=drop'), []);
  });

  it('the default (Retain/Retain) deletes no claim on scale-down or set deletion', async () => {
    const ns = 'hold';
    await createSet(ns, 'hold', 2);
    const set = await get(ns, 'statefulset', 'hold');
    assert.deepEqual(set.spec.persistentVolumeClaimRetentionPolicy, {
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    const before = await get(ns, 'pvc');
    await kc(ns, 'patch', 'statefulset', 'hold', '-p', '{"spec":{"replicas":1}}');
    await waitFor('hold-1 gone', async () => (await pods(ns, 'hold')).length === 1);
    await kc(ns, 'delete', 'statefulset', 'hold');
    await waitFor('hold pods gone', async () => (await pods(ns, 'hold')).length === 0);
    await sleep(2000);
    const afterDelete = await get(ns, 'pvc');
    const view = (l: Json) =>
      (l.items as Json[])
        .map((c) => [c.metadata.name, c.metadata.uid, c.spec.volumeName, c.status.phase].join(' '))
        .sort();
    assert.deepEqual(view(afterDelete), view(before));
    for (const c of afterDelete.items as Json[]) {
      assert.deepEqual(c.metadata.ownerReferences ?? [], [], `${c.metadata.name} has no owner`);
      assert.equal(c.metadata.deletionTimestamp, undefined);
      await kc(ns, 'get', 'pv', c.spec.volumeName);
    }
  });
});
