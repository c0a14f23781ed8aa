/**
 * The StorageClass contract: reclaim Delete, WaitForFirstConsumer, and the EBS provisioner
 * (hostpath only under local testing).
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { diskScope, storageClassContract } from './storage-class.js';

function sc(fields: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'disks' },
    provisioner: 'ebs.csi.aws.com',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
    ...fields,
  };
}

describe('storageClassContract', () => {
  const cases: {
    name: string;
    sc: KubeObject | undefined;
    local: boolean;
    reason?: string;
    mentions?: RegExp[];
  }[] = [
    { name: 'EBS with the contract', sc: sc({}), local: false },
    { name: 'reclaim defaults to Delete', sc: sc({ reclaimPolicy: undefined }), local: false },
    {
      name: 'missing',
      sc: undefined,
      local: false,
      reason: 'StorageClassMissing',
      mentions: [/"disks" was not found/, /ebs\.csi\.aws\.com/],
    },
    {
      name: 'Retain',
      sc: sc({ reclaimPolicy: 'Retain' }),
      local: false,
      reason: 'InvalidStorageClass',
      mentions: [/reclaimPolicy is Retain/],
    },
    {
      name: 'binding defaults to Immediate',
      sc: sc({ volumeBindingMode: undefined }),
      local: false,
      reason: 'InvalidStorageClass',
      mentions: [/volumeBindingMode is Immediate/],
    },
    {
      name: 'hostpath refused without local testing',
      sc: sc({ provisioner: 'hostpath.csi.k8s.io' }),
      local: false,
      reason: 'InvalidStorageClass',
      mentions: [/hostpath\.csi\.k8s\.io \(allowed only when local testing is enabled\)/],
    },
    {
      name: 'hostpath with local testing',
      sc: sc({ provisioner: 'hostpath.csi.k8s.io' }),
      local: true,
    },
    {
      name: 'hostpath with local testing still needs the contract',
      sc: sc({ provisioner: 'hostpath.csi.k8s.io', volumeBindingMode: 'Immediate' }),
      local: true,
      reason: 'InvalidStorageClass',
      mentions: [/volumeBindingMode is Immediate/, /ebs\.csi\.aws\.com or hostpath\.csi\.k8s\.io/],
    },
    {
      name: 'another provisioner, all problems listed',
      sc: sc({ provisioner: 'pd.csi.storage.gke.io', reclaimPolicy: 'Retain' }),
      local: true,
      reason: 'InvalidStorageClass',
      mentions: [/reclaimPolicy is Retain, provisioner is pd\.csi\.storage\.gke\.io/],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = storageClassContract(c.sc, { localTesting: c.local, className: 'disks' });
      if (c.reason === undefined) {
        assert.deepEqual(got, { ok: true });
        return;
      }
      assert.equal(got.ok, false);
      if (got.ok) return;
      assert.equal(got.reason, c.reason);
      for (const m of c.mentions ?? []) assert.match(got.message, m);
    });
  }
});

describe('diskScope', () => {
  it('hostpath disks pin a member to a node; EBS disks (and a missing class) to a zone', () => {
    const sc = (provisioner: string): KubeObject => ({ metadata: { name: 'x' }, provisioner });
    assert.equal(diskScope(sc('hostpath.csi.k8s.io')), 'node');
    assert.equal(diskScope(sc('ebs.csi.aws.com')), 'zone');
    assert.equal(diskScope(undefined), 'zone');
  });
});
