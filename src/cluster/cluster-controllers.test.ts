import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControllerDefinition } from '../controller/context.js';
import { clusterControllers, selectControllers } from './cluster-controllers.js';

const all: ControllerDefinition[] = ['a', 'b', 'c'].map((name) => ({
  name,
  start: async () => {},
}));

describe('--controllers selection', () => {
  const cases: [string, string[]][] = [
    ['*', ['a', 'b', 'c']],
    ['*,-b', ['a', 'c']],
    ['a,c', ['a', 'c']],
    ['a,-a', []],
    ['', []],
    ['-a', []],
  ];
  for (const [selection, want] of cases) {
    it(`${JSON.stringify(selection)} → ${want.join(',') || 'none'}`, () => {
      assert.deepEqual(
        selectControllers(all, selection).map((c) => c.name),
        want,
      );
    });
  }
  it('refuses an unknown name', () => {
    assert.throws(() => selectControllers(all, '*,-nope'), /unknown controller "nope"/);
  });
  it('the cluster has each controller once, nodes and scheduler first', () => {
    const names = clusterControllers({
      nodes: 3,
      zones: ['a'],
      defaultStorageClass: 'standard',
      signingCaDir: 'pki',
    }).map((c) => c.name);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(names.slice(0, 2), ['kubelet', 'default-scheduler']);
    for (const name of [
      'replicaset-controller',
      'deployment-controller',
      'garbage-collector',
      'disruption-controller',
      'node-lifecycle-controller',
      'taint-eviction-controller',
      'pod-garbage-collector',
      'statefulset',
      'persistentvolume-binder',
      'csi-provisioner-hostpath',
      'csi-provisioner-ebs',
      'storageclass-bootstrap',
      'pvc-protection-controller',
      'pv-protection-controller',
      'endpoint-controller',
      'endpointslice',
      'resourcequota-controller',
      'serviceaccount-controller',
      'root-ca-certificate-publisher-controller',
      'replicationcontroller-controller',
      'job-controller',
      'ttl-after-finished-controller',
      'cronjob-controller',
      'daemonset-controller',
      'horizontal-pod-autoscaler-controller',
      'certificatesigningrequest-signing-controller',
      'certificatesigningrequest-cleaner-controller',
    ]) {
      assert.ok(names.includes(name), name);
    }
  });
});
