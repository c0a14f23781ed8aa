/**
 * The objects `kubectl-matrix-describe.test.ts` creates: the state a cluster with controllers
 * and a kubelet would have (a Deployment owning a ReplicaSet owning a Pod on a Node with its
 * Lease, a bound PVC/PV pair, a StatefulSet, a Widget), the statuses those components would
 * write, and one Event about each object as its component would record it.
 *
 * @module
 */
import type { KubeObject } from './kubectl-fixtures.js';
import { deploymentWith, WIDGET_GROUP, widget } from './matrix-fixtures.js';

/** The pod-template-hash of the Deployment's ReplicaSet (fixed: no controller computes it). */
export const HASH = '6d4b5c';

/** Now, as the API writes timestamps (RFC 3339, whole seconds). */
export const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** A manifest as plain JSON. */
export type Obj = Record<string, unknown>;
/** What the Events table shows: type, reason, from, message. */
export type EventRow = readonly [string, string, string, string];

/** The names one version's objects go by (cluster-scoped ones differ per version). */
export interface Names {
  readonly ns: string;
  readonly node: string;
  readonly pv: string;
  readonly rs: string;
  readonly pod: string;
}

/** The names of one version's objects; `slug` keeps cluster-scoped ones apart per version. */
export function namesFor(ns: string, slug: string): Names {
  return {
    ns,
    node: `worker-${slug}`,
    pv: `pv-${slug}`,
    rs: `shop-${HASH}`,
    pod: `shop-${HASH}-x7k2p`,
  };
}

/** Kinds that get one Event each, with the row their Events table shows. */
export type EventKind =
  | 'Pod'
  | 'Deployment'
  | 'ReplicaSet'
  | 'StatefulSet'
  | 'PersistentVolumeClaim'
  | 'PersistentVolume'
  | 'Node'
  | 'Namespace'
  | 'Widget';

/** Type, reason, from and message of each object's Event, as the Events table shows them. */
export function eventRows(n: Names): Readonly<Record<EventKind, EventRow>> {
  const row = (text: string) => text.split(' | ') as unknown as EventRow;
  return {
    Pod: row(
      `Normal | Scheduled | default-scheduler | Successfully assigned ${n.ns}/${n.pod} to ${n.node}`,
    ),
    Deployment: row(
      `Normal | ScalingReplicaSet | deployment-controller | Scaled up replica set ${n.rs} to 2`,
    ),
    ReplicaSet: row(`Normal | SuccessfulCreate | replicaset-controller | Created pod: ${n.pod}`),
    StatefulSet: row(
      'Warning | FailedCreate | statefulset-controller | create Pod db-0 in StatefulSet db failed',
    ),
    PersistentVolumeClaim: row(
      `Normal | ProvisioningSucceeded | persistentvolume-controller | Successfully provisioned volume ${n.pv}`,
    ),
    PersistentVolume: row(`Normal | VolumeMounted | kubelet | Mounted on ${n.node}`),
    Node: row('Normal | Starting | kubelet | Starting kubelet.'),
    Namespace: row('Normal | Labelled | fleet-admin | team=blue'),
    Widget: row('Normal | Synced | widget-controller | Widget synced'),
  };
}

/** A core/v1 Event as its component would write it, in namespace `home`. */
function event(home: string, involvedObject: Obj, [type, reason, from, message]: EventRow): Obj {
  const t = now();
  const name = `${String(involvedObject.name)}.${reason.toLowerCase()}`;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: home },
    involvedObject,
    ...{ reason, message, type, count: 1, firstTimestamp: t, lastTimestamp: t },
    ...{ source: { component: from }, reportingComponent: from },
  };
}

const owner = (kind: string, name: string, uid: string): Obj => ({
  ...{ apiVersion: 'apps/v1', kind, name, uid },
  ...{ controller: true, blockOwnerDeletion: true },
});
const RS_LABELS = { app: 'shop', 'pod-template-hash': HASH };
const rwo = (storage: string): Obj => ({
  accessModes: ['ReadWriteOnce'],
  resources: { requests: { storage } },
});

/** The objects with no owner: Deployment, StatefulSet, PVC, PV, Node, its Lease, a Widget. */
export function roots(n: Names, t: string): Obj[] {
  const app = (name: string) => ({ matchLabels: { app: name } });
  const inNs = (o: Obj): Obj => ({ ...o, metadata: { ...(o.metadata as Obj), namespace: n.ns } });
  return [
    inNs(
      deploymentWith('shop', [{ name: 'web', image: 'nginx:1.27' }], {
        replicas: 2,
      }) as unknown as Obj,
    ),
    inNs({
      ...{ apiVersion: 'apps/v1', kind: 'StatefulSet' },
      metadata: { name: 'db', labels: { app: 'db' } },
      spec: {
        ...{ replicas: 3, serviceName: 'db', selector: app('db') },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'pg', image: 'postgres:16' }] },
        },
        volumeClaimTemplates: [{ metadata: { name: 'pgdata' }, spec: rwo('2Gi') }],
      },
    }),
    inNs({
      ...{ apiVersion: 'v1', kind: 'PersistentVolumeClaim' },
      metadata: { name: 'data', labels: { app: 'shop' } },
      spec: { ...rwo('1Gi'), volumeName: n.pv },
    }),
    {
      ...{ apiVersion: 'v1', kind: 'PersistentVolume' },
      metadata: { name: n.pv, labels: { tier: 'disk' } },
      spec: {
        ...{ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] },
        ...{ persistentVolumeReclaimPolicy: 'Retain', hostPath: { path: `/srv/${n.pv}` } },
        claimRef: { kind: 'PersistentVolumeClaim', namespace: n.ns, name: 'data' },
      },
    },
    {
      ...{ apiVersion: 'v1', kind: 'Node' },
      metadata: { name: n.node, labels: { 'kubernetes.io/hostname': n.node } },
      spec: { podCIDR: '10.244.1.0/24' },
    },
    {
      ...{ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
      metadata: { name: n.node, namespace: 'kube-node-lease' },
      spec: {
        holderIdentity: n.node,
        leaseDurationSeconds: 40,
        renewTime: t.replace('Z', '.000000Z'),
      },
    },
    inNs(widget('w1', { size: 'small', owner: 'alice' }) as unknown as Obj),
  ];
}

/** The ReplicaSet the Deployment would own (its template plus the pod-template-hash label). */
export function replicaSet(n: Names, deploymentUid: string): Obj {
  return {
    ...{ apiVersion: 'apps/v1', kind: 'ReplicaSet' },
    metadata: {
      ...{ name: n.rs, namespace: n.ns, labels: RS_LABELS },
      annotations: { 'deployment.kubernetes.io/revision': '1' },
      ownerReferences: [owner('Deployment', 'shop', deploymentUid)],
    },
    spec: {
      ...{ replicas: 2, selector: { matchLabels: RS_LABELS } },
      template: {
        metadata: { labels: RS_LABELS },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
  };
}

/** The ReplicaSet's pod, on the node, mounting the claim. */
export function pod(n: Names, rsUid: string): Obj {
  const mounts = [{ name: 'data', mountPath: '/data' }];
  return {
    ...{ apiVersion: 'v1', kind: 'Pod' },
    metadata: {
      ...{ name: n.pod, namespace: n.ns, labels: RS_LABELS },
      ownerReferences: [owner('ReplicaSet', n.rs, rsUid)],
    },
    spec: {
      nodeName: n.node,
      containers: [{ name: 'web', image: 'nginx:1.27', volumeMounts: mounts }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    },
  };
}

/** What the kubelet would write on the pod: running, ready, one container started. */
export function podStatus(t: string): Obj {
  return {
    ...{ phase: 'Running', hostIP: '192.0.2.12', startTime: t },
    ...{ podIP: '10.244.1.5', podIPs: [{ ip: '10.244.1.5' }] },
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }],
    containerStatuses: [
      {
        ...{ name: 'web', image: 'nginx:1.27', imageID: 'docker.io/library/nginx@sha256:0a1b2c' },
        ...{ containerID: 'containerd://3d4e5f', ready: true, started: true, restartCount: 0 },
        state: { running: { startedAt: t } },
      },
    ],
  };
}

/** What the kubelet would write on the node. */
export function nodeStatus(t: string): Obj {
  const ready = { type: 'Ready', status: 'True', reason: 'KubeletReady' };
  return {
    capacity: { cpu: '4', memory: '8Gi', pods: '110' },
    allocatable: { cpu: '3800m', memory: '7Gi', pods: '110' },
    addresses: [{ type: 'InternalIP', address: '192.0.2.12' }],
    conditions: [
      {
        ...ready,
        message: 'kubelet is posting ready status',
        ...{ lastHeartbeatTime: t, lastTransitionTime: t },
      },
    ],
  };
}

/** The objects `create -o json` printed: one JSON document per object, each from column 0. */
export function created(stdout: string): KubeObject[] {
  return stdout
    .split(/\n(?=\{)/)
    .filter((d) => d.trim() !== '')
    .map((d) => JSON.parse(d) as KubeObject);
}

/** The PVC's status once bound (the same size and access mode as its spec). */
export const BOUND_CLAIM_STATUS: Obj = {
  phase: 'Bound',
  ...rwo('1Gi'),
  capacity: { storage: '1Gi' },
};

/**
 * One Event about every object: a namespaced object's in its namespace, a cluster-scoped one's
 * in `default`. `uid` gives each object's uid (for the Node, its name, as the kubelet writes).
 */
export function eventsAbout(n: Names, uid: (kind: string, name: string) => string): Obj[] {
  const rows = eventRows(n);
  const about = (kind: EventKind, name: string, apiVersion: string, scoped = true) =>
    event(
      scoped ? n.ns : 'default',
      { kind, name, apiVersion, namespace: scoped ? n.ns : '', uid: uid(kind, name) },
      rows[kind],
    );
  return [
    about('Pod', n.pod, 'v1'),
    about('Deployment', 'shop', 'apps/v1'),
    about('ReplicaSet', n.rs, 'apps/v1'),
    about('StatefulSet', 'db', 'apps/v1'),
    about('PersistentVolumeClaim', 'data', 'v1'),
    about('PersistentVolume', n.pv, 'v1', false),
    about('Node', n.node, 'v1', false),
    about('Namespace', n.ns, 'v1', false),
    about('Widget', 'w1', `${WIDGET_GROUP}/v1`),
  ];
}
