/**
 * `kubectl describe` across the matrix, default flags, for nine kinds: a Pod, a Deployment, a
 * ReplicaSet, a StatefulSet, a PersistentVolumeClaim, a PersistentVolume, a Node, a Namespace
 * and a custom resource. There are no controllers, so each version builds the state a cluster
 * would have: a ReplicaSet owned by the Deployment, a Pod owned by the ReplicaSet on a Node
 * with a Lease, a bound PVC/PV pair, statuses written through /status, and one Event about
 * every object (the node's with the kubelet's `uid = node name`). Describers read a lot
 * besides the object (ReplicaSets and Pods by selector, Pods by node, the node's Lease, the
 * namespace's ResourceQuotas and LimitRanges, Events by `involvedObject`): the request audit
 * fails a test on any error answer among those. The objects and Events are built in
 * `support/describe-fixtures.ts`; this file is the flows.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  BOUND_CLAIM_STATUS,
  created,
  type EventRow,
  eventRows,
  eventsAbout,
  HASH,
  namesFor,
  nodeStatus,
  now,
  type Obj,
  pod,
  podStatus,
  replicaSet,
  roots,
} from './testing/describe-fixtures.js';
import type { Kubectl } from './testing/kubectl.js';
import { describeKubectl, lines } from './testing/kubectl-fixtures.js';
import {
  AGE,
  clean,
  MATRIX_VERSIONS,
  manifestOf,
  matrixCluster,
  matrixNamespace,
  objectPath,
  readsMissing,
  WIDGET_CRD,
  WIDGET_GROUP,
  widgetCrd,
} from './testing/matrix-fixtures.js';

const { current, audit } = matrixCluster();

// The CRD is cluster-scoped: the first version suite creates it for the file.
let crdReady: Promise<unknown> | undefined;
function ensureCrd(k: Kubectl): Promise<unknown> {
  crdReady ??= k
    .ok(['create', '-f', '-'], { input: manifestOf(widgetCrd()) })
    .then(() =>
      k.ok(['wait', '--for=condition=Established', `crd/${WIDGET_CRD}`, '--timeout=30s']),
    );
  return crdReady;
}

/** The value after `Label:` on its line (describe aligns values with spaces). */
function field(text: string, label: string, indent = ''): string | undefined {
  const line = lines(text).find((l) => l.startsWith(`${indent}${label}:`));
  return line?.slice(indent.length + label.length + 1).trim();
}

/** The `Events:` table (cells split on the tab writer's 2+ spaces), or undefined. */
function eventsTable(text: string): string[][] | undefined {
  const all = text.split('\n');
  const at = all.findIndex((l) => l.startsWith('Events:'));
  if (at < 0) return undefined;
  return all
    .slice(at + 1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/ {2,}/));
}

/** Asserts the Events table holds exactly one row: type, reason, an age, from, message. */
function assertOneEvent(text: string, row: EventRow): void {
  const table = eventsTable(text);
  assert.ok(table, `no Events section:\n${text}`);
  assert.deepEqual(table.slice(0, 2), [
    ['Type', 'Reason', 'Age', 'From', 'Message'],
    ['----', '------', '----', '----', '-------'],
  ]);
  assert.equal(table.length, 3, text);
  const [type, reason, age, from, message] = table[2] ?? [];
  assert.deepEqual([type, reason, from, message], [row[0], row[1], row[2], row[3]]);
  assert.match(age ?? '', AGE);
}

for (const version of MATRIX_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const { ns, kc, run } = matrixNamespace(s, audit, 'describe');
    const n = namesFor(ns, s.slug);
    const rows = eventRows(n);
    const uids = new Map<string, string>();
    const uid = (kind: string, name: string) => uids.get(`${kind}/${name}`) ?? '';
    const k = (...args: string[]) => s.k().ok(args);
    const createAll = async (...objects: Obj[]): Promise<void> => {
      const r = await s.k().run(['create', '-f', '-', '-o', 'json'], {
        input: manifestOf(...objects),
      });
      for (const o of created(clean(r, 'create')))
        uids.set(`${o.kind}/${o.metadata.name}`, o.metadata.uid ?? '');
    };
    const status = (kind: string, name: string, body: Obj, where: string[] = ['-n', ns]) => {
      const patch = [
        '--subresource=status',
        '--type=merge',
        '-p',
        JSON.stringify({ status: body }),
      ];
      return k(...where, 'patch', kind, name, ...patch);
    };

    before(async () => {
      const t = now();
      await ensureCrd(s.k());
      await k('label', 'namespace', ns, 'team=blue');
      await createAll(...roots(n, t));
      await createAll(replicaSet(n, uid('Deployment', 'shop')));
      await createAll(pod(n, uid('ReplicaSet', n.rs)));
      await status('pod', n.pod, podStatus(t));
      await status('pvc', 'data', BOUND_CLAIM_STATUS);
      await status('pv', n.pv, { phase: 'Bound' }, []);
      await status('node', n.node, nodeStatus(t), []);
      // The kubelet writes node events with the node's name as the uid.
      uids.set(`Node/${n.node}`, n.node);
      uids.set(`Namespace/${ns}`, ns);
      await createAll(...eventsAbout(n, uid));
    });

    it('describe pod: controller, node, running state, the volume, the Event', async () => {
      const out = await kc('describe', 'pod', n.pod);
      assert.equal(field(out, 'Name'), n.pod);
      assert.equal(field(out, 'Namespace'), ns);
      assert.equal(field(out, 'Node'), `${n.node}/192.0.2.12`);
      assert.match(out, new RegExp(`^Labels: +app=shop\\n +pod-template-hash=${HASH}$`, 'm'));
      assert.equal(field(out, 'Status'), 'Running');
      assert.equal(field(out, 'IP'), '10.244.1.5');
      assert.equal(field(out, 'Controlled By'), `ReplicaSet/${n.rs}`);
      assert.equal(field(out, 'State', '    '), 'Running');
      assert.equal(field(out, 'Ready', '    '), 'True');
      assert.equal(field(out, 'Restart Count', '    '), '0');
      assert.match(out, /^ {6}\/data from data \(rw\)$/m);
      assert.match(out, /^ {4}ClaimName: +data$/m);
      assert.match(out, /^Conditions:\n {2}Type +Status\n {2}Ready +True *$/m);
      assertOneEvent(out, rows.Pod);
    });

    it('describe deployment: replicas, strategy, NewReplicaSet from the owned ReplicaSet', async () => {
      const out = await kc('describe', 'deployment', 'shop');
      assert.equal(field(out, 'Name'), 'shop');
      assert.equal(field(out, 'Namespace'), ns);
      assert.equal(field(out, 'Labels'), 'app=shop');
      assert.equal(
        field(out, 'Replicas'),
        '2 desired | 0 updated | 0 total | 0 available | 0 unavailable',
      );
      assert.equal(field(out, 'StrategyType'), 'RollingUpdate');
      assert.equal(field(out, 'OldReplicaSets'), '<none>');
      assert.equal(field(out, 'NewReplicaSet'), `${n.rs} (0/2 replicas created)`);
      assertOneEvent(out, rows.Deployment);
    });

    it('describe replicaset: owner, replicas, pods status counted from its pods', async () => {
      const out = await kc('describe', 'replicaset', n.rs);
      assert.equal(field(out, 'Name'), n.rs);
      assert.equal(field(out, 'Selector'), `app=shop,pod-template-hash=${HASH}`);
      assert.equal(field(out, 'Annotations'), 'deployment.kubernetes.io/revision: 1');
      assert.equal(field(out, 'Controlled By'), 'Deployment/shop');
      assert.equal(field(out, 'Replicas'), '0 current / 2 desired');
      assert.equal(field(out, 'Pods Status'), '1 Running / 0 Waiting / 0 Succeeded / 0 Failed');
      assertOneEvent(out, rows.ReplicaSet);
    });

    it('describe statefulset: replicas, update strategy, volume claims', async () => {
      const out = await kc('describe', 'statefulset', 'db');
      assert.equal(field(out, 'Name'), 'db');
      assert.equal(field(out, 'Replicas'), '3 desired | 0 total');
      assert.equal(field(out, 'Update Strategy'), 'RollingUpdate');
      assert.equal(field(out, 'Partition', '  '), '0');
      assert.equal(field(out, 'Pods Status'), '0 Running / 0 Waiting / 0 Succeeded / 0 Failed');
      assert.match(out, /^Volume Claims:\n {2}Name: +pgdata\n/m);
      assert.equal(field(out, 'Capacity', '  '), '2Gi');
      assert.equal(field(out, 'Access Modes', '  '), '[ReadWriteOnce]');
      assertOneEvent(out, rows.StatefulSet);
    });

    it('describe persistentvolumeclaim: bound volume, capacity, the pod using it', async () => {
      const out = await kc('describe', 'persistentvolumeclaim', 'data');
      assert.equal(field(out, 'Name'), 'data');
      assert.equal(field(out, 'Namespace'), ns);
      assert.equal(field(out, 'Status'), 'Bound');
      assert.equal(field(out, 'Volume'), n.pv);
      assert.equal(field(out, 'Labels'), 'app=shop');
      assert.equal(field(out, 'Capacity'), '1Gi');
      assert.equal(field(out, 'Access Modes'), 'RWO');
      assert.equal(field(out, 'VolumeMode'), 'Filesystem');
      assert.equal(field(out, 'Used By'), n.pod);
      assertOneEvent(out, rows.PersistentVolumeClaim);
    });

    it('describe persistentvolume: claim, reclaim policy, capacity, source', async () => {
      const out = await kc('describe', 'persistentvolume', n.pv);
      assert.equal(field(out, 'Name'), n.pv);
      assert.equal(field(out, 'Labels'), 'tier=disk');
      assert.equal(field(out, 'Status'), 'Bound');
      assert.equal(field(out, 'Claim'), `${ns}/data`);
      assert.equal(field(out, 'Reclaim Policy'), 'Retain');
      assert.equal(field(out, 'Access Modes'), 'RWO');
      assert.equal(field(out, 'Capacity'), '1Gi');
      assert.match(out, /^Source:\n {4}Type: +HostPath \(bare host directory volume\)\n/m);
      assertOneEvent(out, rows.PersistentVolume);
    });

    it('describe node: lease, conditions, capacity, its pods, the kubelet Event', async () => {
      const out = await k('describe', 'node', n.node);
      assert.equal(field(out, 'Name'), n.node);
      assert.equal(field(out, 'Roles'), '<none>');
      assert.equal(field(out, 'Taints'), '<none>');
      assert.equal(field(out, 'Unschedulable'), 'false');
      assert.equal(field(out, 'HolderIdentity', '  '), n.node);
      assert.match(out, /^ {2}Ready +True +.+ +KubeletReady +kubelet is posting ready status$/m);
      assert.match(out, /^Capacity:\n {2}cpu: +4\n {2}memory: +8Gi\n {2}pods: +110\n/m);
      assert.match(out, /^Allocatable:\n {2}cpu: +3800m\n/m);
      assert.equal(field(out, 'Non-terminated Pods'), '(1 in total)');
      assert.match(out, new RegExp(`^ {2}${ns} +${n.pod} +0 \\(0%\\) +`, 'm'));
      assertOneEvent(out, rows.Node);
    });

    it('describe namespace: labels, status, quota and limit range sections, no events', async () => {
      const out = await k('describe', 'namespace', ns);
      assert.equal(field(out, 'Name'), ns);
      assert.match(
        out,
        new RegExp(`^Labels: +kubernetes\\.io/metadata\\.name=${ns}\\n +team=blue$`, 'm'),
      );
      assert.equal(field(out, 'Status'), 'Active');
      // The namespace describer lists ResourceQuotas and LimitRanges; it prints no events.
      assert.match(out, /\n\nNo resource quota\.\n\nNo LimitRange resource\.\n$/);
      assert.equal(eventsTable(out), undefined);
    });

    it('describe a custom resource (generic describer) with its Event', async () => {
      const out = await kc('describe', 'widget', 'w1');
      assert.equal(field(out, 'Name'), 'w1');
      assert.equal(field(out, 'Namespace'), ns);
      assert.equal(field(out, 'API Version'), `${WIDGET_GROUP}/v1`);
      assert.equal(field(out, 'Kind'), 'Widget');
      assert.match(
        out,
        /^Spec:\n {2}Color: +blue\n {2}Max Replicas: +10\n {2}Owner: +alice\n {2}Replicas: +1\n {2}Size: +small\n/m,
      );
      assertOneEvent(out, rows.Widget);
      audit.expect(readsMissing(objectPath(ns, 'widgets', 'nope', WIDGET_GROUP)));
      const missing = await run('describe', 'widget', 'nope');
      assert.equal(missing.code, 1);
      assert.equal(
        missing.stderr,
        `Error from server (NotFound): widgets.${WIDGET_GROUP} "nope" not found\n`,
      );
    });
  });
}
