/**
 * The PVC and PV protection controllers against a real API server: the finalizers are added,
 * a deleting claim stays while a scheduled pod (even a finished one) uses it, a deleting volume
 * stays while Bound. "Stays" is checked against a control object deleted at the same time,
 * whose removal proves the controller has processed the deletes.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type Pod } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import {
  claimInUse,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  pvcProtectionController,
  pvProtectionController,
} from './index.js';

const NS = 'default';
const claimRef = (name: string) => ({ ...RESOURCES.persistentvolumeclaims, namespace: NS, name });
const podRef = (name: string) => ({ ...RESOURCES.pods, namespace: NS, name });
const volumeRef = (name: string) => ({ ...RESOURCES.persistentvolumes, name });

function pod(name: string, claim: string, nodeName?: string, phase?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: {
      ...(nodeName === undefined ? {} : { nodeName }),
      containers: [{ name: 'c', image: 'nginx' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }],
    },
    ...(phase === undefined ? {} : { status: { phase } }),
  };
}

describe('claimInUse', () => {
  const claim: KubeObject = { metadata: { name: 'data', namespace: NS } };
  const cases: { name: string; pods: Pod[]; want: boolean }[] = [
    { name: 'no pods', pods: [], want: false },
    { name: 'a running pod on a node', pods: [pod('p', 'data', 'n', 'Running')], want: true },
    { name: 'an unscheduled pod', pods: [pod('p', 'data')], want: false },
    // Upstream: a terminated pod's volumes may still be mounted until the pod is deleted.
    { name: 'a succeeded pod', pods: [pod('p', 'data', 'n', 'Succeeded')], want: true },
    { name: 'a failed pod', pods: [pod('p', 'data', 'n', 'Failed')], want: true },
    { name: 'another claim', pods: [pod('p', 'other', 'n')], want: false },
    {
      name: 'another namespace',
      pods: [{ ...pod('p', 'data', 'n'), metadata: { name: 'p', namespace: 'x' } }],
      want: false,
    },
    {
      name: 'an ephemeral volume names <pod>-<volume>, not the claim',
      pods: [
        asKind(
          {
            metadata: { name: 'web', namespace: NS },
            spec: { nodeName: 'n', volumes: [{ name: 'x', ephemeral: {} }] },
          },
          'Pod',
        ),
      ],
      want: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(claimInUse(claim, c.pods), c.want));
  }
  const eph = (metadata: Record<string, unknown>): Pod =>
    asKind(
      {
        metadata: { name: 'web', namespace: NS, ...metadata },
        spec: { nodeName: 'n', volumes: [{ name: 'data', ephemeral: {} }] },
      },
      'Pod',
    );
  const ephClaim: KubeObject = { metadata: { name: 'web-data', namespace: NS } };
  it('an ephemeral claim is used by its pod', () => {
    assert.equal(claimInUse(ephClaim, [eph({})]), true);
  });
  it('an ephemeral claim is free once its pod is force-deleted', () => {
    const shutDown = eph({
      deletionTimestamp: '2026-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 0,
    });
    assert.equal(claimInUse(ephClaim, [shutDown]), false);
  });
});

describe('protection controllers', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    h.run(pvcProtectionController(), pvProtectionController());
  });
  after(async () => {
    await h.close();
  });

  async function createClaim(name: string): Promise<void> {
    await h.client.create(
      { ...RESOURCES.persistentvolumeclaims, namespace: NS },
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName: '',
          resources: { requests: { storage: '1Gi' } },
        },
      },
    );
    await eventually(async () =>
      (await h.get(claimRef(name)))?.metadata?.finalizers?.includes(PVC_PROTECTION_FINALIZER),
    );
  }

  async function createVolume(name: string, phase: string): Promise<void> {
    const pv = await h.client.create(RESOURCES.persistentvolumes, {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: `/data/${name}` },
      },
    });
    await h.client.updateStatus(volumeRef(name), { ...pv, status: { phase } });
    await eventually(async () => {
      const cur = await h.get(volumeRef(name));
      const phased = (cur?.status as { phase?: string } | undefined)?.phase === phase;
      return phased && cur?.metadata?.finalizers?.includes(PV_PROTECTION_FINALIZER);
    });
  }

  it('keeps a deleting claim while a scheduled pod uses it', async () => {
    await createClaim('used');
    await createClaim('unused');
    await createClaim('finished');
    await h.client.create({ ...RESOURCES.pods, namespace: NS }, pod('runner', 'used', 'node-a'));
    await h.client.create({ ...RESOURCES.pods, namespace: NS }, pod('waiter', 'unused'));
    const finished = await h.client.create(
      { ...RESOURCES.pods, namespace: NS },
      pod('finished', 'finished', 'node-a'),
    );
    await h.client.updateStatus(podRef('finished'), {
      ...finished,
      status: { phase: 'Succeeded' },
    });

    await h.client.delete(claimRef('used'));
    await h.client.delete(claimRef('unused'));
    await h.client.delete(claimRef('finished'));
    await eventually(async () => (await h.get(claimRef('unused'))) === undefined);
    for (const name of ['used', 'finished']) {
      const kept = await h.get(claimRef(name));
      assert.ok(kept?.metadata?.deletionTimestamp, name);
      assert.ok(kept.metadata.finalizers?.includes(PVC_PROTECTION_FINALIZER), name);
    }

    // Immediately: a graceful delete leaves a terminating pod, which still holds the claim.
    for (const name of ['runner', 'finished']) {
      await h.client.delete(podRef(name), { gracePeriodSeconds: 0 });
    }
    await eventually(async () => (await h.get(claimRef('used'))) === undefined);
    await eventually(async () => (await h.get(claimRef('finished'))) === undefined);
  });

  it('keeps a deleting volume while it is Bound', async () => {
    await createVolume('bound-pv', 'Bound');
    await createVolume('free-pv', 'Available');
    await h.client.delete(volumeRef('bound-pv'));
    await h.client.delete(volumeRef('free-pv'));
    await eventually(async () => (await h.get(volumeRef('free-pv'))) === undefined);
    const kept = await h.get(volumeRef('bound-pv'));
    assert.ok(kept?.metadata?.deletionTimestamp);

    await h.client.updateStatus(volumeRef('bound-pv'), { ...kept, status: { phase: 'Released' } });
    await eventually(async () => (await h.get(volumeRef('bound-pv'))) === undefined);
  });
});
