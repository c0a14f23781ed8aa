/**
 * The running storage controllers (`simulatedStorage` plus the protection controllers) against
 * a real API server. There is no scheduler or kubelet here: tests set
 * `volume.kubernetes.io/selected-node` themselves and create Nodes with zone labels.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import {
  ANN_BIND_COMPLETED,
  ANN_SELECTED_NODE,
  FINALIZER_EXTERNAL_PROVISIONER,
  STORAGE_CLASSES,
} from '../../controllers/persistentvolume/index.js';
import {
  pvcProtectionController,
  pvProtectionController,
} from '../../controllers/volume-protection/index.js';
import { STORAGE_FAULTS_CONFIGMAP, simulatedStorage } from './index.js';

const NS = 'default';
const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
const NODES: [string, string][] = [
  ['node-a', 'zone-a'],
  ['node-b', 'zone-b'],
  ['node-c', 'zone-c'],
  ['node-d', 'zone-d'],
];

const claimRef = (name: string) => ({ ...RESOURCES.persistentvolumeclaims, namespace: NS, name });
const volumeRef = (name: string) => ({ ...RESOURCES.persistentvolumes, name });
const phase = (o: KubeObject | undefined) => (o?.status as { phase?: string } | undefined)?.phase;
const spec = (o: KubeObject | undefined) => (o?.spec ?? {}) as Record<string, unknown>;

describe('simulated storage controllers', () => {
  let h: Harness;

  before(async () => {
    h = await startHarness({ logLevel: process.env.PV_LOG ?? 'silent' });
    for (const [name, zone] of NODES) {
      await h.client.create(RESOURCES.nodes, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels: { [HOST]: name, [ZONE]: zone } },
      });
    }
    await h.client.create(STORAGE_CLASSES, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'ebs-now' },
      provisioner: 'ebs.csi.aws.com',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate',
    });
    h.run(
      ...simulatedStorage({ defaultClass: 'standard' }),
      pvcProtectionController(),
      pvProtectionController(),
    );
    await eventually(() => h.get(STORAGE_CLASSES_REF('ebs')));
  });
  after(async () => {
    await h.close();
  });

  async function createClaim(
    name: string,
    storageClassName: string,
    storage: string,
    annotations: Record<string, string> = {},
  ): Promise<KubeObject> {
    return h.client.create(
      { ...RESOURCES.persistentvolumeclaims, namespace: NS },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name, annotations },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName,
          resources: { requests: { storage } },
        },
      },
    );
  }

  async function boundClaim(name: string): Promise<KubeObject> {
    return eventually(async () => {
      const c = await h.get(claimRef(name));
      return phase(c) === 'Bound' ? c : undefined;
    });
  }

  async function selectNode(name: string, node: string): Promise<void> {
    await h.client.patch(
      claimRef(name),
      { metadata: { annotations: { [ANN_SELECTED_NODE]: node } } },
      'merge',
    );
  }

  async function setFaults(data: Record<string, string>): Promise<void> {
    const ref = { ...RESOURCES.configmaps, ...STORAGE_FAULTS_CONFIGMAP };
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { ...STORAGE_FAULTS_CONFIGMAP },
      data,
    };
    const current = await h.get(ref);
    if (current === undefined) {
      await h.client.create({ ...RESOURCES.configmaps, namespace: ref.namespace }, body);
    } else {
      await h.client.update(ref, { ...current, data });
    }
  }

  function eventsFor(name: string, reason: string) {
    return h.events.events.filter((e) => e.object.metadata?.name === name && e.reason === reason);
  }

  it('bootstraps both classes, the chosen one the default', async () => {
    const standard = await h.get(STORAGE_CLASSES_REF('standard'));
    const ebs = await h.get(STORAGE_CLASSES_REF('ebs'));
    assert.equal(standard?.provisioner, 'hostpath.csi.k8s.io');
    assert.equal(
      standard?.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'],
      'true',
    );
    assert.equal(ebs?.provisioner, 'ebs.csi.aws.com');
    assert.equal(ebs?.allowVolumeExpansion, true);
    assert.equal(
      ebs?.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'],
      undefined,
    );
  });

  it('binds an Immediate claim to a pre-created volume; Retain releases it', async () => {
    await h.client.create(RESOURCES.persistentvolumes, {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'manual-pv' },
      spec: {
        capacity: { storage: '5Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: 'manual',
        hostPath: { path: '/data/manual' },
      },
    });
    // Upstream finds new volumes for waiting claims only at the 15 s resync: let the binder
    // see the volume (it marks it Available) before the claim arrives.
    await eventually(async () => phase(await h.get(volumeRef('manual-pv'))) === 'Available');
    const created = await createClaim('manual', 'manual', '3Gi');
    const claim = await boundClaim('manual');
    assert.equal(spec(claim).volumeName, 'manual-pv');
    assert.equal(claim.metadata?.annotations?.[ANN_BIND_COMPLETED], 'yes');
    assert.deepEqual((claim.status as { capacity?: unknown }).capacity, { storage: '5Gi' });
    const pv = await eventually(async () => {
      const v = await h.get(volumeRef('manual-pv'));
      return phase(v) === 'Bound' ? v : undefined;
    });
    assert.equal((spec(pv).claimRef as { uid?: string }).uid, created.metadata?.uid);
    assert.ok(pv.metadata?.finalizers?.includes('kubernetes.io/pv-protection'));

    await h.client.delete(claimRef('manual'));
    await eventually(async () => (await h.get(claimRef('manual'))) === undefined);
    const released = await eventually(async () => {
      const v = await h.get(volumeRef('manual-pv'));
      return phase(v) === 'Released' ? v : undefined;
    });
    assert.equal(released.metadata?.deletionTimestamp, undefined);
  });

  it('provisions an Immediate ebs claim in a node zone; reclaim Delete removes the volume', async () => {
    const created = await createClaim('ebs-now', 'ebs-now', '1500Mi');
    const claim = await boundClaim('ebs-now');
    const name = `pvc-${created.metadata?.uid}`;
    assert.equal(spec(claim).volumeName, name);
    const pv = await h.get(volumeRef(name));
    assert.deepEqual(spec(pv).capacity, { storage: '2Gi' });
    const term = (
      spec(pv).nodeAffinity as {
        required: {
          nodeSelectorTerms: { matchExpressions: { key: string; values: string[] }[] }[];
        };
      }
    ).required.nodeSelectorTerms[0]?.matchExpressions[0];
    assert.equal(term?.key, ZONE);
    assert.ok(NODES.some(([, z]) => z === term?.values[0]));
    assert.ok(pv?.metadata?.finalizers?.includes(FINALIZER_EXTERNAL_PROVISIONER));
    for (const key of [
      'volume.kubernetes.io/storage-provisioner',
      'volume.beta.kubernetes.io/storage-provisioner',
    ]) {
      assert.equal(claim.metadata?.annotations?.[key], 'ebs.csi.aws.com');
    }
    assert.ok(eventsFor('ebs-now', 'ExternalProvisioning').length > 0);
    assert.ok(eventsFor('ebs-now', 'Provisioning').length > 0);
    assert.deepEqual(
      eventsFor('ebs-now', 'ProvisioningSucceeded').map((e) => e.message),
      [`Successfully provisioned volume ${name}`],
    );

    await h.client.delete(claimRef('ebs-now'));
    await eventually(async () => (await h.get(volumeRef(name))) === undefined);
  });

  const wffc = [
    { claim: 'wffc-hostpath', cls: 'standard', node: 'node-b', key: HOST, value: 'node-b' },
    { claim: 'wffc-ebs', cls: 'ebs', node: 'node-a', key: ZONE, value: 'zone-a' },
  ];
  for (const c of wffc) {
    it(`waits for the first consumer, then provisions on its node (${c.cls})`, async () => {
      await createClaim(c.claim, c.cls, '1Gi');
      await eventually(() => eventsFor(c.claim, 'WaitForFirstConsumer').length > 0);
      const pending = await h.get(claimRef(c.claim));
      assert.equal(phase(pending), 'Pending');
      assert.equal(spec(pending).volumeName, undefined);

      await selectNode(c.claim, c.node);
      const claim = await boundClaim(c.claim);
      const pv = await h.get(volumeRef(String(spec(claim).volumeName)));
      assert.deepEqual(spec(pv).nodeAffinity, {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: c.key, operator: 'In', values: [c.value] }] },
          ],
        },
      });
      assert.equal(phase(pv), 'Bound');
    });
  }

  it('a failing zone fails provisioning and drops the selected node', async () => {
    await setFaults({ 'failing-zones': 'zone-c' });
    try {
      await createClaim('failing', 'ebs', '1Gi', { [ANN_SELECTED_NODE]: 'node-c' });
      const claim = await eventually(async () => {
        const cur = await h.get(claimRef('failing'));
        return cur?.metadata?.annotations?.[ANN_SELECTED_NODE] === undefined ? cur : undefined;
      });
      const failed = eventsFor('failing', 'ProvisioningFailed');
      assert.ok(failed.length > 0);
      assert.equal(failed[0]?.type, 'Warning');
      assert.match(
        failed[0]?.message ?? '',
        /^failed to provision volume with StorageClass "ebs": /,
      );
      assert.equal(spec(claim).volumeName, undefined);
      const pvs = await h.list(RESOURCES.persistentvolumes);
      assert.ok(!pvs.some((v) => v.metadata?.name === `pvc-${claim.metadata?.uid}`));
    } finally {
      await setFaults({});
    }
  });

  it('drops a selected node that does not exist', async () => {
    await createClaim('ghost', 'standard', '1Gi', { [ANN_SELECTED_NODE]: 'node-gone' });
    await eventually(async () => {
      const cur = await h.get(claimRef('ghost'));
      return cur?.metadata?.annotations?.[ANN_SELECTED_NODE] === undefined;
    });
    assert.ok(eventsFor('ghost', 'ProvisioningFailed').length > 0);
  });

  it('fails with ResourceExhausted beyond a zone capacity', async () => {
    await setFaults({ 'zone-capacity': '10Gi' });
    try {
      await createClaim('big-1', 'ebs', '8Gi', { [ANN_SELECTED_NODE]: 'node-d' });
      await boundClaim('big-1');
      await createClaim('big-2', 'ebs', '4Gi', { [ANN_SELECTED_NODE]: 'node-d' });
      const claim = await eventually(async () => {
        const cur = await h.get(claimRef('big-2'));
        return cur?.metadata?.annotations?.[ANN_SELECTED_NODE] === undefined ? cur : undefined;
      });
      assert.equal(phase(claim), 'Pending');
      const failed = eventsFor('big-2', 'ProvisioningFailed');
      assert.match(failed[0]?.message ?? '', /ResourceExhausted/);
    } finally {
      await setFaults({});
    }
  });

  it('marks a bound claim Lost when its volume disappears', async () => {
    await createClaim('doomed', 'standard', '1Gi', { [ANN_SELECTED_NODE]: 'node-a' });
    const claim = await boundClaim('doomed');
    const ref = volumeRef(String(spec(claim).volumeName));
    // What `fleetyard chaos lose-volume` does: strip the finalizers, delete.
    const pv = await h.client.get(ref);
    await h.client.update(ref, { ...pv, metadata: { ...pv.metadata, finalizers: [] } });
    await h.client.delete(ref);
    const lost = await eventually(async () => {
      const cur = await h.get(claimRef('doomed'));
      return phase(cur) === 'Lost' ? cur : undefined;
    });
    assert.equal(spec(lost).volumeName, ref.name);
    const events = eventsFor('doomed', 'ClaimLost');
    assert.deepEqual(
      events.map((e) => [e.type, e.message]),
      [['Warning', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!']],
    );
  });
});

function STORAGE_CLASSES_REF(name: string) {
  return { ...STORAGE_CLASSES, name };
}
