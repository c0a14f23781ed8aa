import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type Pod } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import type { VolumeBindingHook } from '../../scheduler/volume-binding-hook.js';
import { node, storageClass } from './testing/fixtures.js';
import { createVolumeBinding } from './volume-binding.js';
import { ANN_SELECTED_NODE, STORAGE_CLASSES } from './volume-util.js';

const claims = { ...RESOURCES.persistentvolumeclaims, namespace: 'default' };

function claimObject(name: string, className: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      storageClassName: className,
    },
  };
}

function podObject(name: string, claimName: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      containers: [{ name: 'c', image: 'nginx' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
    },
  };
}

function volumeObject(
  name: string,
  zone: string,
  className: string,
  claim?: KubeObject,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
      storageClassName: className,
      persistentVolumeReclaimPolicy: 'Retain',
      csi: { driver: 'ebs.csi.aws.com', volumeHandle: `vol-${name}` },
      ...(claim
        ? {
            claimRef: {
              kind: 'PersistentVolumeClaim',
              namespace: 'default',
              name: claim.metadata?.name,
              uid: claim.metadata?.uid,
            },
          }
        : {}),
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] },
              ],
            },
          ],
        },
      },
    },
  };
}

describe('createVolumeBinding', () => {
  let h: Harness;
  let hook: VolumeBindingHook;
  let requeues = 0;

  /** What the PV controller does once a PV names the claim: bind the claim to it. */
  async function bindClaim(name: string, pvName: string): Promise<void> {
    const current = await h.client.get({ ...claims, name });
    const updated = await h.client.update(
      { ...claims, name },
      {
        ...current,
        metadata: {
          ...current.metadata,
          annotations: {
            ...(current.metadata?.annotations ?? {}),
            'pv.kubernetes.io/bind-completed': 'yes',
          },
        },
        spec: { ...(current.spec as object), volumeName: pvName },
      },
    );
    await h.client.updateStatus({ ...claims, name }, { ...updated, status: { phase: 'Bound' } });
  }

  async function claimOf(name: string): Promise<KubeObject> {
    return h.client.get({ ...claims, name });
  }

  before(async () => {
    h = await startHarness();
    for (const [n, z] of [
      ['node-a', 'local-a'],
      ['node-b', 'local-b'],
    ] as const) {
      await h.client.create(RESOURCES.nodes, node(n, z));
    }
    await h.client.create(STORAGE_CLASSES, storageClass('ebs', { wffc: true }));
    await h.client.create(
      STORAGE_CLASSES,
      storageClass('local', { wffc: true, provisioner: 'kubernetes.io/no-provisioner' }),
    );
    hook = createVolumeBinding(h.ctx, () => requeues++, {
      bindTimeoutMs: 2_000,
      csiDrivers: new Map([['ebs.csi.aws.com', { topologyKey: 'topology.kubernetes.io/zone' }]]),
    });
    // As the scheduler does: decide only from synced caches (under load the node informer
    // could otherwise still be empty at the first preBind: "node \"node-a\" not found").
    assert.ok(await h.ctx.informers.waitForSync(hook.informers ?? [], h.ctx.signal));
  });
  after(() => h.close());

  it('annotates the claim with the node and resolves once the provisioned claim is bound', async () => {
    await h.client.create(claims, claimObject('www-web-0', 'ebs'));
    const pod = podObject('web-0', 'www-web-0');
    await eventually(() => hook.preFilter?.(pod) === null);
    const nodeA = asKind(await h.client.get({ ...RESOURCES.nodes, name: 'node-a' }), 'Node');
    assert.equal(hook.filter(pod, nodeA, []), null);

    const stop = new AbortController();
    const bound = hook.preBind?.(pod, 'node-a', stop.signal);
    const annotated = await eventually(async () => {
      const c = await claimOf('www-web-0');
      return c.metadata?.annotations?.[ANN_SELECTED_NODE] === 'node-a' && c;
    });
    // The provisioner's part: a PV in the node's zone pre-bound to the claim, then the binding.
    await h.client.create(
      RESOURCES.persistentvolumes,
      volumeObject(`pvc-${annotated.metadata?.uid}`, 'local-a', 'ebs', annotated),
    );
    await bindClaim('www-web-0', `pvc-${annotated.metadata?.uid}`);
    await bound;
    assert.ok(requeues > 0, 'claim events wake unschedulable pods');
  });

  it('rejects when the provisioner removes the selected-node annotation', async () => {
    await h.client.create(claims, claimObject('www-web-1', 'ebs'));
    const pod = podObject('web-1', 'www-web-1');
    await eventually(() => hook.preFilter?.(pod) === null);
    const bound = hook.preBind?.(pod, 'node-b', new AbortController().signal);
    await eventually(async () => {
      const c = await claimOf('www-web-1');
      return c.metadata?.annotations?.[ANN_SELECTED_NODE] === 'node-b';
    });
    await h.client.patch(
      { ...claims, name: 'www-web-1' },
      { metadata: { annotations: { [ANN_SELECTED_NODE]: null } } },
      'merge',
    );
    await assert.rejects(bound ?? Promise.resolve(), {
      message: 'binding volumes: provisioning failed for PVC "www-web-1"',
    });
  });

  it('pre-binds a matching static PV in the node zone', async () => {
    const pv = await h.client.create(
      RESOURCES.persistentvolumes,
      volumeObject('static-a', 'local-a', 'local'),
    );
    await h.client.updateStatus(
      { ...RESOURCES.persistentvolumes, name: 'static-a' },
      { ...pv, status: { phase: 'Available' } },
    );
    await h.client.create(claims, claimObject('data-static', 'local'));
    const pod = podObject('static', 'data-static');
    const [nodeA, nodeB] = await Promise.all(
      ['node-a', 'node-b'].map(async (name) =>
        asKind(await h.client.get({ ...RESOURCES.nodes, name }), 'Node'),
      ),
    );
    await eventually(
      () =>
        hook.preFilter?.(pod) === null &&
        nodeA !== undefined &&
        nodeB !== undefined &&
        hook.filter(pod, nodeA, []) === null &&
        hook.filter(pod, nodeB, []) !== null,
    );
    const bound = hook.preBind?.(pod, 'node-a', new AbortController().signal);
    const claimed = await eventually(async () => {
      const v = await h.client.get({ ...RESOURCES.persistentvolumes, name: 'static-a' });
      return (v.spec as { claimRef?: { name?: string } }).claimRef?.name === 'data-static' && v;
    });
    assert.equal(claimed.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller'], 'yes');
    await bindClaim('data-static', 'static-a');
    await bound;
    const c = await claimOf('data-static');
    assert.equal(c.metadata?.annotations?.[ANN_SELECTED_NODE], undefined);
  });

  it('gives up after the bind timeout', async () => {
    await h.client.create(claims, claimObject('slow', 'ebs'));
    const pod = podObject('slow', 'slow');
    await eventually(() => hook.preFilter?.(pod) === null);
    await assert.rejects(
      hook.preBind?.(pod, 'node-a', new AbortController().signal) ?? Promise.resolve(),
      {
        message: 'binding volumes: context deadline exceeded',
      },
    );
  });
});
