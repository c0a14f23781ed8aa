/**
 * What the celld operator owns and what it refuses, on a real `fleetyard up --nodes 3` (one
 * node per zone) with kubectl 1.33 and client-node watches (docs/design/operator.md §5, §7, §8,
 * §9):
 * - deleting a fleet removes, in this order, the StatefulSet and its pods, then every fleet
 *   claim (a removed member's too), then the Services, NetworkPolicy and PDB, then the
 *   finalizer; the bucket's CelldStorageReservation stays;
 * - a fleet recreated on that bucket is refused (`StorageScopeConflict`) and creates nothing;
 * - a claim at a member's name that the fleet did not make blocks growth
 *   (`StorageIdentityConflict`) and the StatefulSet keeps its size;
 * - an object at a child's name that is not the fleet's blocks the fleet and is not adopted;
 * - growth over kept and fresh disks (issue #79; issue 14, item 8): growth is one write, and a
 *   member that needs a fresh disk is released from its scheduling gate only once the kept
 *   disk's member is placed in its disk's zone (4 → 3 → 5: a fleet cannot go below its zones).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type KubernetesObject, makeInformer, type V1Pod } from '@kubernetes/client-node';
import {
  API_VERSION,
  apply,
  createNamespace,
  type FleetEnv,
  fleet,
  fleetClaims,
  fleetEnvForFile,
  getFleet,
  LABEL_FLEET,
  type Manifest,
  memberPods,
  serviceAccount,
  sleep,
  statefulSet,
  uids,
  waitBlocked,
  waitReady,
  watchPods,
  watchReplicas,
  ZONE_LABEL,
} from './testing/celld-fixtures.js';

const env = fleetEnvForFile(['--nodes=3', '--zones=a,b,c']);

/** Brings up a fleet with its ServiceAccount in its own namespace and waits for Ready. */
async function readyFleet(
  e: FleetEnv,
  ns: string,
  name: string,
  replicas: number,
  mode: 'Strict' | 'Relaxed' = 'Strict',
): Promise<void> {
  await createNamespace(e, ns);
  await apply(
    e,
    serviceAccount(`${name}-celld`, ns),
    fleet({ name, namespace: ns, bucket: `${name}-bucket`, replicas, mode }),
  );
  await waitReady(e, ns, name, 30_000);
}

// ---------------------------------------------------------------------------------------------
// A deletion-order recorder

interface Step {
  readonly kind: string;
  readonly name: string;
  /** `terminating`: the first event with a deletionTimestamp; `deleted`: the delete event. */
  readonly what: 'terminating' | 'deleted';
  readonly rv: number;
}

const WATCHED: readonly { apiVersion: string; kind: string; path: string }[] = [
  { apiVersion: 'v1', kind: 'Pod', path: 'api/v1/namespaces/NS/pods' },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    path: 'api/v1/namespaces/NS/persistentvolumeclaims',
  },
  { apiVersion: 'v1', kind: 'Service', path: 'api/v1/namespaces/NS/services' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', path: 'apis/apps/v1/namespaces/NS/statefulsets' },
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    path: 'apis/networking.k8s.io/v1/namespaces/NS/networkpolicies',
  },
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    path: 'apis/policy/v1/namespaces/NS/poddisruptionbudgets',
  },
  {
    apiVersion: API_VERSION,
    kind: 'CelldFleet',
    path: `apis/${API_VERSION}/namespaces/NS/celldfleets`,
  },
];

/**
 * Watches every kind the deletion touches and records when each object started terminating
 * and when it went, by the resourceVersion of the event. Events of different watches arrive in
 * no common order, but this server's resourceVersions are one global counter (an etcd
 * revision), so they order writes across kinds.
 */
async function recordDeletion(e: FleetEnv, ns: string) {
  const steps: Step[] = [];
  const terminating = new Set<string>();
  const stops: (() => Promise<void>)[] = [];
  for (const w of WATCHED) {
    const list = () => e.objects.list(w.apiVersion, w.kind, ns);
    const informer = makeInformer<KubernetesObject>(e.kc, `/${w.path.replace('NS', ns)}`, list);
    const rv = (o: KubernetesObject) => Number(o.metadata?.resourceVersion ?? Number.NaN);
    const key = (o: KubernetesObject) => `${w.kind}/${o.metadata?.name}`;
    informer.on('update', (o) => {
      if (o.metadata?.deletionTimestamp === undefined || terminating.has(key(o))) return;
      terminating.add(key(o));
      steps.push({ kind: w.kind, name: o.metadata?.name ?? '', what: 'terminating', rv: rv(o) });
    });
    informer.on('delete', (o) => {
      steps.push({ kind: w.kind, name: o.metadata?.name ?? '', what: 'deleted', rv: rv(o) });
    });
    await informer.start();
    stops.push(() => informer.stop());
  }
  return {
    steps,
    stop: async () => {
      for (const s of stops) await s();
    },
  };
}

/** The smallest and largest resourceVersion of the steps of these kinds. */
function span(steps: readonly Step[], kinds: readonly string[], what?: Step['what']) {
  const rvs = steps
    .filter((s) => kinds.includes(s.kind) && (what === undefined || s.what === what))
    .map((s) => s.rv);
  return { first: Math.min(...rvs), last: Math.max(...rvs), count: rvs.length };
}

interface Reservation {
  metadata: { name: string };
  spec: { bucket: string; fleetUID: string; fleetName: string };
}

// ---------------------------------------------------------------------------------------------

describe('deleting a fleet, and recreating it on the same bucket', () => {
  const ns = 'doomed';
  const name = 'doomed';
  let fleetUid = '';
  let reservationName = '';

  it('deletes workload and pods, then every claim, then the prerequisites, then the finalizer', async () => {
    const e = env();
    // Relaxed: four members on three nodes. A removed member's kept claim must go too.
    await readyFleet(e, ns, name, 4, 'Relaxed');
    await e.k.ok(['scale', 'cf', name, '-n', ns, '--replicas=3']);
    await waitReady(e, ns, name);
    assert.equal((await fleetClaims(e, ns, name)).length, 4);
    const live = await getFleet(e, ns, name);
    fleetUid = live.metadata.uid;
    reservationName = live.status?.reservation ?? '';
    assert.ok(reservationName, 'the fleet reports no reservation');

    const rec = await recordDeletion(e, ns);
    try {
      await e.k.ok(['delete', 'cf', name, '-n', ns, '--wait=true'], { timeoutMs: 30_000 });
    } finally {
      await rec.stop();
    }
    const s = rec.steps;
    const detail = JSON.stringify(s);
    const workload = span(s, ['StatefulSet', 'Pod'], 'deleted');
    const claims = span(s, ['PersistentVolumeClaim']);
    const claimsGone = span(s, ['PersistentVolumeClaim'], 'deleted');
    const prerequisites = span(s, ['Service', 'NetworkPolicy', 'PodDisruptionBudget']);
    const prerequisitesGone = span(
      s,
      ['Service', 'NetworkPolicy', 'PodDisruptionBudget'],
      'deleted',
    );
    const fleetGone = span(s, ['CelldFleet'], 'deleted');
    assert.equal(workload.count, 4, `StatefulSet and 3 pods deleted: ${detail}`);
    assert.equal(claimsGone.count, 4, `4 claims deleted: ${detail}`);
    assert.equal(prerequisitesGone.count, 4, `2 Services, NetworkPolicy, PDB deleted: ${detail}`);
    assert.equal(fleetGone.count, 1, detail);
    assert.ok(
      workload.last < claims.first,
      `a claim was deleted before the workload was gone: ${detail}`,
    );
    assert.ok(
      claimsGone.last < prerequisites.first,
      `a prerequisite was deleted before the claims were gone: ${detail}`,
    );
    assert.ok(prerequisitesGone.last < fleetGone.first, `the finalizer went first: ${detail}`);
  });

  it('keeps the bucket reservation after the fleet is gone', async () => {
    const e = env();
    const list = JSON.parse(await e.k.ok(['get', 'celldstoragereservations', '-o', 'json'])) as {
      items: Reservation[];
    };
    const r = list.items.find((x) => x.metadata.name === reservationName);
    assert.ok(r, `reservation ${reservationName} is gone`);
    assert.equal(r.spec.bucket, `${name}-bucket`);
    assert.equal(r.spec.fleetUID, fleetUid);
  });

  it('refuses a fleet recreated on the same bucket (StorageScopeConflict) and creates nothing', async () => {
    const e = env();
    await apply(e, fleet({ name, namespace: ns, bucket: `${name}-bucket`, replicas: 3 }));
    const blocked = await waitBlocked(e, ns, name, 'StorageScopeConflict');
    assert.notEqual(blocked.metadata.uid, fleetUid);
    await sleep(1_000);
    assert.equal(await statefulSet(e, ns, name), undefined, 'a StatefulSet was created');
    assert.deepEqual(await memberPods(e, ns, name), []);
    assert.deepEqual(await fleetClaims(e, ns, name), []);
    const services = await e.core.listNamespacedService({ namespace: ns });
    assert.deepEqual(
      services.items.map((x) => x.metadata?.name),
      [],
      'a Service was created for the refused fleet',
    );
    // The refused fleet deletes cleanly, and the reservation still names the first fleet.
    await e.k.ok(['delete', 'cf', name, '-n', ns, '--wait=true'], { timeoutMs: 20_000 });
    const r = JSON.parse(
      await e.k.ok(['get', 'celldstoragereservation', reservationName, '-o', 'json']),
    ) as Reservation;
    assert.equal(r.spec.fleetUID, fleetUid);
  });
});

describe('objects the fleet did not make', () => {
  it('a foreign claim at a member name blocks growth (StorageIdentityConflict)', async () => {
    const e = env();
    const ns = 'squat';
    const name = 'squat';
    await readyFleet(e, ns, name, 3);
    const foreign: Manifest = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: `data-${name}-3`, namespace: ns },
      spec: {
        accessModes: ['ReadWriteOncePod'],
        storageClassName: 'ebs',
        resources: { requests: { storage: '1Gi' } },
      },
    };
    await apply(e, foreign);
    const before = (await fleetClaims(e, ns, name)).find(
      (c) => c.metadata?.name === `data-${name}-3`,
    );
    const replicas = await watchReplicas(e, ns, name);
    try {
      await e.k.ok(['scale', 'cf', name, '-n', ns, '--replicas=5']);
      const blocked = await waitBlocked(e, ns, name, 'StorageIdentityConflict');
      assert.equal(blocked.spec.replicas, 5);
      await sleep(2_000);
    } finally {
      await replicas.stop();
    }
    assert.deepEqual(replicas.history, [3], 'the StatefulSet grew past a foreign claim');
    assert.equal((await memberPods(e, ns, name)).length, 3);
    const after = (await fleetClaims(e, ns, name)).find(
      (c) => c.metadata?.name === `data-${name}-3`,
    );
    assert.equal(after?.metadata?.uid, before?.metadata?.uid);
    assert.equal(after?.metadata?.resourceVersion, before?.metadata?.resourceVersion, 'adopted');
  });

  it('a foreign Service at the fleet name blocks the fleet and is not adopted', async () => {
    const e = env();
    const ns = 'squat-svc';
    const name = 'edge';
    await createNamespace(e, ns);
    const mine: Manifest = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: ns },
      spec: { selector: { app: 'other' }, ports: [{ port: 80 }] },
    };
    await apply(e, mine);
    const before = await e.core.readNamespacedService({ name, namespace: ns });
    await apply(
      e,
      serviceAccount(`${name}-celld`, ns),
      fleet({ name, namespace: ns, bucket: `${name}-bucket`, replicas: 3 }),
    );
    const blocked = await waitBlocked(e, ns, name, 'InfrastructureBlocked');
    assert.match(
      blocked.status?.conditions?.find((c) => c.type === 'Blocked')?.message ?? '',
      /Service/,
    );
    await sleep(1_000);
    const after = await e.core.readNamespacedService({ name, namespace: ns });
    assert.equal(after.metadata?.uid, before.metadata?.uid);
    assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion, 'adopted');
    assert.equal(after.metadata?.labels?.[LABEL_FLEET], undefined);
    assert.deepEqual(after.metadata?.ownerReferences ?? [], []);
    assert.equal(await statefulSet(e, ns, name), undefined, 'a StatefulSet was created');
  });
});

describe('growth over kept and fresh disks (issue #79; issue 14, item 8)', () => {
  it('adds the kept-disk member in its zone before the fresh-disk member', async () => {
    const e = env();
    const ns = 'zonal';
    const name = 'zonal';
    // Relaxed: five members fit on three nodes once the rule is shown. The fleet cannot go
    // below its three zones, so 4 → 3 → 5: member 3 keeps its disk, member 4 needs a fresh one.
    await readyFleet(e, ns, name, 4, 'Relaxed');
    const zoneOf = async (pod: string) => {
      const p = (await memberPods(e, ns, name)).find((x) => x.metadata?.name === pod);
      const node = await e.core.readNode({ name: p?.spec?.nodeName ?? '' });
      return node.metadata?.labels?.[ZONE_LABEL];
    };
    const keptZone = await zoneOf(`${name}-3`);
    assert.ok(keptZone);
    await e.k.ok(['scale', 'cf', name, '-n', ns, '--replicas=3']);
    await waitReady(e, ns, name);
    const claimsBefore = uids(await fleetClaims(e, ns, name));

    const replicas = await watchReplicas(e, ns, name);
    // At every event: the fresh member 4 is released from its gate (or placed) only once
    // member 3 has a node.
    const kept = `${name}-3`;
    const fresh = `${name}-4`;
    const bound = (pods: readonly V1Pod[], n: string) =>
      pods.some((p) => p.metadata?.name === n && p.spec?.nodeName);
    const released = (pods: readonly V1Pod[], n: string) =>
      pods.some(
        (p) =>
          p.metadata?.name === n &&
          (p.spec?.nodeName ||
            !(p.spec?.schedulingGates ?? []).some(
              (g) => g.name === 'celld.fleetyard.dev/disk-placement',
            )),
      );
    const watch = await watchPods(e, ns, name, (pods) =>
      released(pods, fresh) && !bound(pods, kept)
        ? `${fresh} was released while ${kept} is not yet placed`
        : undefined,
    );
    try {
      await e.k.ok(['scale', 'cf', name, '-n', ns, '--replicas=5']);
      await waitReady(e, ns, name, 30_000);
    } finally {
      await watch.stop();
      await replicas.stop();
    }
    assert.deepEqual(watch.violations, []);
    assert.deepEqual(replicas.history, [3, 5], 'growth is one write');
    assert.equal(await zoneOf(kept), keptZone, 'the kept disk did not bring its member home');
    const claimsAfter = uids(await fleetClaims(e, ns, name));
    assert.equal(claimsAfter[`data-${kept}`], claimsBefore[`data-${kept}`]);
    assert.ok(claimsAfter[`data-${fresh}`], 'member 4 has no claim');
    assert.equal((await memberPods(e, ns, name)).length, 5);
  });
});
