/**
 * Simulated storage on a running `fleetyard up --nodes 6 --zones a,b,c` (two nodes per zone),
 * driven by kubectl 1.33 and `fleetyard chaos`: the built-in StorageClasses, the default class
 * admission, WaitForFirstConsumer provisioning at the scheduled node, Immediate binding and
 * static PVs, zone pinning of `ebs` volumes (across a StatefulSet and after rescheduling),
 * ReadWriteOncePod, a lost volume, reclaim (Delete / Retain), the protection finalizers, and
 * the provisioning faults of ConfigMap `kube-system/fleetyard-storage`. Every expectation is
 * upstream Kubernetes' (docs/design/volumes.md §1–§5): phases, annotations, event reasons,
 * scheduler messages.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, it } from 'node:test';
import { promisify } from 'node:util';
import { FLEETYARD_BIN } from './testing/cluster.js';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  inNamespace,
  type KubeObject,
  namespaceObject,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: ['--nodes=6', '--zones=a,b,c'] });

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
const T = 30_000;

interface Obj {
  metadata: {
    name: string;
    uid: string;
    deletionTimestamp?: string;
    finalizers?: string[];
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  };
  // biome-ignore lint/suspicious/noExplicitAny: read-backs of many kinds
  spec: any;
  // biome-ignore lint/suspicious/noExplicitAny: read-backs of many kinds
  status?: any;
}
interface Ev {
  reason: string;
  type: string;
  message: string;
  involvedObject: { kind: string; name: string; uid?: string };
}

function claim(name: string, size: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, ...extra },
  };
}

function podWith(name: string, claims: string[], extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'main', image: 'busybox:1.36' }],
      volumes: claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })),
      ...extra,
    },
  };
}

function storageClass(name: string, provisioner: string, mode: string, reclaim: string) {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    reclaimPolicy: reclaim,
    volumeBindingMode: mode,
  } as unknown as KubeObject;
}

/** The `In` values of the PV's required node affinity for `key`. */
function affinity(pv: Obj, key: string): string[] | undefined {
  const terms = (pv.spec.nodeAffinity?.required?.nodeSelectorTerms ?? []) as {
    matchExpressions?: { key: string; operator: string; values: string[] }[];
  }[];
  for (const t of terms)
    for (const e of t.matchExpressions ?? [])
      if (e.key === key && e.operator === 'In') return e.values;
  return undefined;
}

const cond = (o: Obj, type: string) =>
  (o.status?.conditions ?? []).find((c: { type: string }) => c.type === type) as
    | { status: string; reason?: string }
    | undefined;

describeKubectl('1.33', current, (s) => {
  const ns = 'storage-e2e';
  const { kc, create } = inNamespace(s, ns);
  const get = async (kind: string, name: string): Promise<Obj | undefined> => {
    const r = await s.k().run(['-n', ns, 'get', kind, name, '-o', 'json']);
    if (r.code !== 0 && /NotFound|not found/.test(r.stderr)) return undefined;
    if (r.code !== 0) throw new Error(`get ${kind} ${name}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Obj;
  };
  const must = async (kind: string, name: string): Promise<Obj> => {
    const o = await get(kind, name);
    assert.ok(o, `${kind} ${name} exists`);
    return o;
  };
  const events = async (name: string, uid?: string): Promise<Ev[]> =>
    (JSON.parse(await kc('get', 'events', '-o', 'json')) as { items: Ev[] }).items.filter(
      (e) => e.involvedObject.name === name && (uid === undefined || e.involvedObject.uid === uid),
    );
  const waitEvent = (name: string, test: (e: Ev) => boolean, uid?: string) =>
    pollUntil(`event on ${name}`, async () => (await events(name, uid)).find(test), T, 200);
  const waitFor = (what: string, kind: string, name: string, test: (o: Obj) => boolean) =>
    pollUntil(
      what,
      async () => {
        const o = await get(kind, name);
        return o && test(o) ? o : undefined;
      },
      T,
      100,
    );
  const running = (name: string) =>
    waitFor(`${name} Running`, 'pod', name, (p) => p.status?.phase === 'Running');
  const bound = (name: string) =>
    waitFor(`${name} Bound`, 'pvc', name, (c) => c.status?.phase === 'Bound');
  const pv = (name: string) => get('pv', name);
  const gone = (kind: string, name: string) =>
    pollUntil(`${kind} ${name} gone`, async () => ((await get(kind, name)) ? undefined : true), T);
  const nodeZone = async (node: string) =>
    (JSON.parse(await s.k().ok(['get', 'node', node, '-o', 'json'])) as Obj).metadata.labels?.[
      ZONE
    ];
  const chaos = (...args: string[]) =>
    promisify(execFile)(process.execPath, [
      FLEETYARD_BIN,
      'chaos',
      '--kubeconfig',
      s.cluster().kubeconfig,
      '-n',
      ns,
      ...args,
    ]);
  const cordoned = new Set<string>();

  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
    await pollUntil(
      'six Ready nodes',
      async () => {
        const out = await s.k().ok(['get', 'nodes', '--no-headers']);
        return out.split('\n').filter((l) => / Ready /.test(l)).length === 6 ? true : undefined;
      },
      T,
    );
  });
  after(async () => {
    for (const n of cordoned) await s.k().run(['uncordon', n]);
  });

  it('lists the built-in classes: standard (default) and ebs, WaitForFirstConsumer, Delete', async () => {
    const table = await pollUntil('both classes', async () => {
      const out = await s.k().ok(['get', 'storageclass']);
      return /\nebs\s/.test(out) && /\nstandard \(default\)\s/.test(out) ? out : undefined;
    });
    assert.match(table, /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+/);
    assert.match(
      table,
      /\nstandard \(default\)\s+hostpath\.csi\.k8s\.io\s+Delete\s+WaitForFirstConsumer\s+false\s/,
    );
    assert.match(table, /\nebs\s+ebs\.csi\.aws\.com\s+Delete\s+WaitForFirstConsumer\s+true\s/);
  });

  it('gives a class-less claim the default class and provisions it at the first consumer', async () => {
    await create(claim('first', '1Gi'));
    const c0 = await must('pvc', 'first');
    assert.equal(c0.spec.storageClassName, 'standard', 'DefaultStorageClass admission');
    await waitEvent('first', (e) => e.reason === 'WaitForFirstConsumer' && e.type === 'Normal');
    const pending = await must('pvc', 'first');
    assert.equal(pending.status?.phase, 'Pending');
    assert.equal(pending.spec.volumeName ?? '', '', 'no volume before a consumer');
    await create(podWith('first-user', ['first']));
    const p = await running('first-user');
    const c = await bound('first');
    const node = p.spec.nodeName as string;
    assert.equal(c.metadata.annotations?.['volume.kubernetes.io/selected-node'], node);
    assert.equal(c.spec.volumeName, `pvc-${c.metadata.uid}`);
    const v = await pv(`pvc-${c.metadata.uid}`);
    assert.ok(v, 'the provisioned PV exists');
    assert.deepEqual(affinity(v, HOST), [node], 'node-local volume on the pod node');
    assert.equal(v.status?.phase, 'Bound');
    assert.equal(v.spec.claimRef?.uid, c.metadata.uid);
    await waitEvent('first', (e) => e.reason === 'Provisioning');
    await waitEvent('first', (e) => e.reason === 'ProvisioningSucceeded');
  });

  it('binds Immediate claims without a pod, and static PVs by capacity and access modes', async () => {
    await createFromManifest(
      s.k(),
      undefined,
      storageClass('ebs-now', 'ebs.csi.aws.com', 'Immediate', 'Delete'),
      ...['100Mi', '1Gi'].map((size) => ({
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: `static-${size.toLowerCase()}` },
        spec: {
          capacity: { storage: size },
          accessModes: ['ReadWriteOnce'],
          storageClassName: '',
          persistentVolumeReclaimPolicy: 'Retain',
          hostPath: { path: `/mnt/disks/static-${size}` },
        },
      })),
    );
    await create(claim('now', '1500Mi', { storageClassName: 'ebs-now' }));
    const now = await bound('now');
    const nowPv = await pv(now.spec.volumeName as string);
    assert.ok(nowPv && affinity(nowPv, ZONE)?.length === 1, 'a zonal volume, no pod needed');
    assert.equal(now.status?.capacity?.storage, '2Gi', 'ebs rounds up to GiB');
    await create(claim('static', '500Mi', { storageClassName: '' }));
    const st = await bound('static');
    assert.equal(st.spec.volumeName, 'static-1gi', 'the smallest PV that fits');
    assert.equal(st.spec.storageClassName, '', 'an explicit "" is not defaulted');
    const small = await pv('static-100mi');
    assert.equal(small?.status?.phase, 'Available');
  });

  it('provisions each StatefulSet claim in its pod zone, and keeps it there when rescheduled', async () => {
    await create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        serviceName: 'db',
        replicas: 3,
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: {
            terminationGracePeriodSeconds: 0,
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { topologyKey: ZONE, labelSelector: { matchLabels: { app: 'db' } } },
                ],
              },
            },
            containers: [{ name: 'db', image: 'postgres:16' }],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: claim('data', '1Gi', { storageClassName: 'ebs' }).spec,
          },
        ],
      },
    });
    await kc('rollout', 'status', 'statefulset/db', '--timeout=60s');
    const zones = new Set<string>();
    for (const i of [0, 1, 2]) {
      const p = await must('pod', `db-${i}`);
      const c = await must('pvc', `data-db-${i}`);
      const v = await pv(c.spec.volumeName as string);
      assert.ok(v, `PV of data-db-${i}`);
      const zone = await nodeZone(p.spec.nodeName as string);
      assert.ok(zone);
      assert.deepEqual(affinity(v, ZONE), [zone], `data-db-${i} is in its pod's zone`);
      zones.add(zone);
    }
    assert.equal(zones.size, 3, 'three different zones');

    // Reschedule db-1: the only other node of its zone takes it, same claim and volume.
    const before1 = await must('pod', 'db-1');
    const claim1 = await must('pvc', 'data-db-1');
    const firstNode = before1.spec.nodeName as string;
    const zone1 = await nodeZone(firstNode);
    await s.k().ok(['cordon', firstNode]);
    cordoned.add(firstNode);
    await kc('delete', 'pod', 'db-1', '--wait=false');
    const moved = await waitFor(
      'db-1 replaced and Running',
      'pod',
      'db-1',
      (p) => p.metadata.uid !== before1.metadata.uid && p.status?.phase === 'Running',
    );
    const secondNode = moved.spec.nodeName as string;
    assert.notEqual(secondNode, firstNode);
    assert.equal(await nodeZone(secondNode), zone1, 'pinned to the volume zone');
    const after1 = await must('pvc', 'data-db-1');
    assert.equal(after1.metadata.uid, claim1.metadata.uid);
    assert.equal(after1.spec.volumeName, claim1.spec.volumeName);

    // Both nodes of the zone cordoned: nowhere to go.
    await s.k().ok(['cordon', secondNode]);
    cordoned.add(secondNode);
    await kc('delete', 'pod', 'db-1', '--wait=false');
    const stuck = await waitFor(
      'db-1 Unschedulable',
      'pod',
      'db-1',
      (p) =>
        p.metadata.uid !== moved.metadata.uid &&
        cond(p, 'PodScheduled')?.status === 'False' &&
        cond(p, 'PodScheduled')?.reason === 'Unschedulable',
    );
    assert.equal(stuck.spec.nodeName ?? '', '');
    const failed = await waitEvent(
      'db-1',
      (e) => e.reason === 'FailedScheduling',
      stuck.metadata.uid,
    );
    assert.match(failed.message, /node\(s\) had volume node affinity conflict/);
    await s.k().ok(['uncordon', secondNode]);
    cordoned.delete(secondNode);
    const back = await waitFor(
      'db-1 scheduled again',
      'pod',
      'db-1',
      (p) => p.metadata.uid === stuck.metadata.uid && p.status?.phase === 'Running',
    );
    assert.equal(await nodeZone(back.spec.nodeName as string), zone1);
    await s.k().ok(['uncordon', firstNode]);
    cordoned.delete(firstNode);
  });

  it('lets only one pod use a ReadWriteOncePod claim', async () => {
    await create(claim('solo', '1Gi', { accessModes: ['ReadWriteOncePod'] }));
    await create(podWith('solo-a', ['solo']));
    await running('solo-a');
    await create(podWith('solo-b', ['solo']));
    const b = await must('pod', 'solo-b');
    const ev = await waitEvent('solo-b', (e) => e.reason === 'FailedScheduling', b.metadata.uid);
    assert.match(ev.message, /ReadWriteOncePod access mode already in-use by another pod/);
    const stillB = await must('pod', 'solo-b');
    assert.equal(stillB.status?.phase, 'Pending');
    assert.equal(stillB.spec.nodeName ?? '', '');
    await kc('delete', 'pod', 'solo-a', '--wait=true');
    await running('solo-b');
  });

  it('marks a claim Lost when its volume disappears, and the pod keeps running', async () => {
    await create(claim('doomed', '1Gi'));
    await create(podWith('doomed-user', ['doomed']));
    const p = await running('doomed-user');
    const c = await bound('doomed');
    await chaos('lose-volume', 'doomed');
    await gone('pv', c.spec.volumeName);
    await waitFor('claim Lost', 'pvc', 'doomed', (x) => x.status?.phase === 'Lost');
    const ev = await waitEvent('doomed', (e) => e.reason === 'ClaimLost');
    assert.equal(ev.type, 'Warning');
    const after = await must('pod', 'doomed-user');
    assert.equal(after.metadata.uid, p.metadata.uid);
    assert.equal(after.status?.phase, 'Running', 'a lost volume does not stop a running pod');
  });

  it('deletes the PV of a Delete class, and releases the PV of a Retain class', async () => {
    await create(claim('scratch', '1Gi', { storageClassName: 'standard' }));
    await create(podWith('scratch-user', ['scratch']));
    await running('scratch-user');
    const c = await bound('scratch');
    await kc('delete', 'pod', 'scratch-user', '--wait=true');
    await kc('delete', 'pvc', 'scratch', '--wait=true');
    await gone('pv', c.spec.volumeName);

    await createFromManifest(
      s.k(),
      undefined,
      storageClass('ebs-keep', 'ebs.csi.aws.com', 'Immediate', 'Retain'),
    );
    await create(claim('keep', '1Gi', { storageClassName: 'ebs-keep' }));
    const k = await bound('keep');
    await kc('delete', 'pvc', 'keep', '--wait=true');
    const released = await pollUntil(
      'PV Released',
      async () => {
        const v = await pv(k.spec.volumeName);
        return v?.status?.phase === 'Released' ? v : undefined;
      },
      T,
    );
    assert.equal(released.spec.persistentVolumeReclaimPolicy, 'Retain');
    assert.equal(released.spec.claimRef?.uid, k.metadata.uid, 'still points at the old claim');
  });

  it('keeps an in-use claim Terminating until its pod is gone (pvc- and pv-protection)', async () => {
    await create(claim('guarded', '1Gi'));
    await create(podWith('guarded-user', ['guarded']));
    await running('guarded-user');
    const c = await bound('guarded');
    assert.ok(c.metadata.finalizers?.includes('kubernetes.io/pvc-protection'));
    const v = await pv(c.spec.volumeName);
    assert.ok(v?.metadata.finalizers?.includes('kubernetes.io/pv-protection'));
    await kc('delete', 'pvc', 'guarded', '--wait=false');
    const terminating = await must('pvc', 'guarded');
    assert.ok(terminating.metadata.deletionTimestamp, 'deletionTimestamp set');
    assert.ok(terminating.metadata.finalizers?.includes('kubernetes.io/pvc-protection'));
    // The pod still runs: the claim must still be there once the pod is observed again.
    assert.equal((await must('pod', 'guarded-user')).status?.phase, 'Running');
    assert.ok(await get('pvc', 'guarded'), 'still Terminating while the pod uses it');
    await kc('delete', 'pod', 'guarded-user', '--wait=true');
    await gone('pvc', 'guarded');
  });

  it('fails provisioning in a failing zone or beyond zone capacity, and recovers', async () => {
    await chaos('fail-zone', 'local-b');
    await create(claim('zb', '1Gi', { storageClassName: 'ebs' }));
    await create(podWith('zb-user', ['zb'], { nodeSelector: { [ZONE]: 'local-b' } }));
    const ev = await waitEvent('zb', (e) => e.reason === 'ProvisioningFailed');
    assert.equal(ev.type, 'Warning');
    assert.equal((await must('pod', 'zb-user')).status?.phase, 'Pending');
    assert.notEqual((await must('pvc', 'zb')).status?.phase, 'Bound');
    await chaos('restore-zone', 'local-b');
    const p = await running('zb-user');
    assert.equal(await nodeZone(p.spec.nodeName as string), 'local-b');
    const c = await bound('zb');
    const v = await pv(c.spec.volumeName);
    assert.ok(v);
    assert.deepEqual(affinity(v, ZONE), ['local-b']);

    const capacity = JSON.stringify({ data: { 'zone-capacity': '2Gi' } });
    const patch = 'patch configmap fleetyard-storage --type=merge -p'.split(' ');
    await s.k().ok(['-n', 'kube-system', ...patch, capacity]);
    await create(claim('huge', '3Gi', { storageClassName: 'ebs' }));
    await create(podWith('huge-user', ['huge']));
    const full = await waitEvent('huge', (e) => e.reason === 'ProvisioningFailed');
    assert.match(full.message, /ResourceExhausted/);
    assert.equal((await must('pod', 'huge-user')).status?.phase, 'Pending');
    assert.notEqual((await must('pvc', 'huge')).status?.phase, 'Bound');
  });
});
