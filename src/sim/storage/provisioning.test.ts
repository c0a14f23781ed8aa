/**
 * The simulated CSI drivers' provisioning: per driver (zonal EBS-like, node-local hostpath),
 * capacity rounding, capacity exhaustion and allowedTopologies.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claim, node, storageClass } from '../../controllers/persistentvolume/testing/fixtures.js';
import { EBS_DRIVER, HOSTPATH_DRIVER, provision } from './provisioning.js';

// biome-ignore lint/suspicious/noExplicitAny: a test reads nested spec fields directly.
type SpecView = Record<string, any>;

describe('provision', () => {
  const wffc = storageClass('gp3', { wffc: true });
  const c = claim({ className: 'gp3', size: '1500Mi' });
  it('ebs: zonal affinity, GiB rounding, finalizer and annotations', () => {
    const r = provision(c, wffc, node('n1', 'zone-a'), EBS_DRIVER, new Map());
    assert.equal(r.ok, true);
    if (!r.ok) return;
    const spec = r.volume.spec as SpecView;
    assert.equal(r.volume.metadata?.name, 'pvc-uid-data');
    assert.deepEqual(spec.capacity, { storage: '2Gi' });
    assert.deepEqual(spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions, [
      { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
    ]);
    assert.equal(spec.persistentVolumeReclaimPolicy, 'Delete');
    assert.equal(spec.csi.driver, 'ebs.csi.aws.com');
    assert.deepEqual(r.volume.metadata?.finalizers, [
      'external-provisioner.volume.kubernetes.io/finalizer',
    ]);
    assert.equal(
      r.volume.metadata?.annotations?.['pv.kubernetes.io/provisioned-by'],
      'ebs.csi.aws.com',
    );
    assert.deepEqual(
      r.events.map((e) => e.message),
      [
        'External provisioner is provisioning volume for claim "default/data"',
        'Successfully provisioned volume pvc-uid-data',
      ],
    );
  });
  it('hostpath: node affinity, exact capacity, Retain keeps no finalizer', () => {
    const sc = storageClass('hp', {
      provisioner: 'hostpath.csi.k8s.io',
      wffc: true,
      reclaimPolicy: 'Retain',
    });
    const r = provision(
      claim({ className: 'hp', size: '1500Mi' }),
      sc,
      node('n2', 'zone-b'),
      HOSTPATH_DRIVER,
      new Map(),
    );
    assert.equal(r.ok, true);
    if (!r.ok) return;
    const spec = r.volume.spec as SpecView;
    assert.deepEqual(spec.capacity, { storage: '1500Mi' });
    assert.deepEqual(spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values, [
      'n2',
    ]);
    assert.deepEqual(r.volume.metadata?.finalizers, []);
  });
  it('zone capacity exhausted', () => {
    const r = provision(c, wffc, node('n1', 'zone-a'), EBS_DRIVER, new Map([['zone-a', 1n]]));
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.match(
      r.message,
      /^failed to provision volume with StorageClass "gp3": rpc error: code = ResourceExhausted/,
    );
    assert.equal(r.reschedule, true);
  });
  it('allowedTopologies excluding the node', () => {
    const sc = storageClass('gp3', { wffc: true, allowedZones: ['zone-b'] });
    const r = provision(c, sc, node('n1', 'zone-a'), EBS_DRIVER, new Map());
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(
      r.message,
      `failed to provision volume with StorageClass "gp3": selected node '"n1"' topology '[{topology.kubernetes.io/zone zone-a}]' is not in allowed topologies: [[{topology.kubernetes.io/zone zone-b}]]`,
    );
  });
  it('Immediate: a zone from allowedTopologies', () => {
    const sc = storageClass('gp3', { allowedZones: ['zone-c'] });
    const r = provision(c, sc, undefined, EBS_DRIVER, new Map());
    assert.equal(r.ok && r.domain, 'zone-c');
  });
});
