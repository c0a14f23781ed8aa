/**
 * ReadWriteOnce means one node, on `fleetyard up --nodes 2 --zones a` (two nodes in one zone, so
 * a zonal `ebs` volume can reach both): as upstream, the scheduler places a second user of the
 * claim on the other node, and the volume refuses to attach there while the first user runs —
 * the pod stays ContainerCreating with a Warning `FailedAttachVolume` "Multi-Attach error …" —
 * and starts once the first pod is gone. A second user on the same node shares the volume.
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
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: ['--nodes=2', '--zones=a'] });
const T = 30_000;

interface Pod {
  metadata: { name: string; uid: string };
  spec: { nodeName?: string };
  status?: {
    phase?: string;
    containerStatuses?: { state?: { waiting?: { reason?: string } } }[];
  };
}
interface Ev {
  reason: string;
  type: string;
  message: string;
  involvedObject: { name: string };
}

function podOn(name: string, node: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      terminationGracePeriodSeconds: 0,
      nodeSelector: { 'kubernetes.io/hostname': node },
      containers: [{ name: 'main', image: 'busybox:1.36' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    },
  };
}

describeKubectl('1.33', current, (s) => {
  const ns = 'attach-e2e';
  const { kc, create } = inNamespace(s, ns);
  const pod = async (name: string) => JSON.parse(await kc('get', 'pod', name, '-o', 'json')) as Pod;
  const phase = (name: string, want: string) =>
    pollUntil(
      `${name} ${want}`,
      async () => ((await pod(name)).status?.phase === want ? true : undefined),
      T,
    );

  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
    await create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'ebs',
        resources: { requests: { storage: '1Gi' } },
      },
    });
  });

  it('holds a second user on another node with a Multi-Attach error until the first is gone', async () => {
    await create(podOn('first', 'fleetyard-node-1'));
    await phase('first', 'Running');
    await create(podOn('same-node', 'fleetyard-node-1'));
    await phase('same-node', 'Running');
    await create(podOn('other-node', 'fleetyard-node-2'));
    const event = await pollUntil(
      'FailedAttachVolume',
      async () =>
        (JSON.parse(await kc('get', 'events', '-o', 'json')) as { items: Ev[] }).items.find(
          (e) => e.involvedObject.name === 'other-node' && e.reason === 'FailedAttachVolume',
        ),
      T,
      200,
    );
    assert.equal(event.type, 'Warning');
    const pv = JSON.parse(await kc('get', 'pvc', 'data', '-o', 'json')).spec.volumeName;
    assert.equal(
      event.message,
      `Multi-Attach error for volume "${pv}" Volume is already used by pod(s) first, same-node`,
    );
    const held = await pod('other-node');
    assert.equal(held.spec.nodeName, 'fleetyard-node-2', 'the scheduler does not check RWO');
    assert.equal(held.status?.phase, 'Pending');
    assert.equal(held.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');

    await kc('delete', 'pod', 'first', 'same-node', '--wait=true');
    await phase('other-node', 'Running');
  });
});
