/**
 * `checkGates` (docs/design/operator.md §2.3), table-driven: the first failing gate wins, in the order
 * pause, isolation attestation, ServiceAccount, StorageClass contract; `hostpath.csi.k8s.io`
 * passes only with `--local-test`, and a Bucket fleet is not held to the StorageClass contract.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { checkGates, isPaused } from './gates.js';
import { fleetObject, observation } from './testing/observation.js';

const SA: KubeObject = { metadata: { name: 'orders-celld', namespace: 'default' } };

function storageClass(provisioner: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name: 'disks' },
    provisioner,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
    ...extra,
  };
}

const EBS = storageClass('ebs.csi.aws.com');
const HOSTPATH = storageClass('hostpath.csi.k8s.io');

function spec(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    profile: 'PersistentFleet',
    serviceAccountName: 'orders-celld',
    storage: { bucket: 'b', region: 'r', storageClassName: 'disks' },
    ...over,
  };
}

interface Case {
  name: string;
  spec: Record<string, unknown>;
  sa?: KubeObject;
  sc?: KubeObject;
  enforced?: boolean;
  localTest?: boolean;
  /** [kind, reason], or undefined when every gate passes. */
  want: [string, string] | undefined;
}

const cases: Case[] = [
  { name: 'all pass (ebs)', spec: spec(), sa: SA, sc: EBS, want: undefined },
  {
    name: 'pause first, even with every other gate failing',
    spec: spec({ maintenance: { paused: true } }),
    enforced: false,
    want: ['paused', 'MaintenancePaused'],
  },
  {
    name: 'isolation before the ServiceAccount',
    spec: spec(),
    enforced: false,
    want: ['blocked', 'IsolationUnverified'],
  },
  {
    name: 'ServiceAccount before the StorageClass',
    spec: spec(),
    want: ['blocked', 'ServiceAccountMissing'],
  },
  {
    name: 'missing StorageClass',
    spec: spec(),
    sa: SA,
    want: ['blocked', 'StorageClassMissing'],
  },
  {
    name: 'hostpath refused without --local-test',
    spec: spec(),
    sa: SA,
    sc: HOSTPATH,
    localTest: false,
    want: ['blocked', 'InvalidStorageClass'],
  },
  {
    name: 'hostpath allowed with --local-test',
    spec: spec(),
    sa: SA,
    sc: HOSTPATH,
    want: undefined,
  },
  {
    name: 'Immediate binding refused',
    spec: spec(),
    sa: SA,
    sc: storageClass('ebs.csi.aws.com', { volumeBindingMode: 'Immediate' }),
    want: ['blocked', 'InvalidStorageClass'],
  },
  {
    name: 'Retain refused',
    spec: spec(),
    sa: SA,
    sc: storageClass('ebs.csi.aws.com', { reclaimPolicy: 'Retain' }),
    want: ['blocked', 'InvalidStorageClass'],
  },
  {
    name: 'a Bucket fleet has no StorageClass gate',
    spec: spec({ profile: 'Bucket', storage: { bucket: 'b', region: 'r' } }),
    sa: SA,
    localTest: false,
    want: undefined,
  },
];

describe('checkGates', () => {
  for (const c of cases) {
    it(c.name, () => {
      const obs = observation(fleetObject(c.spec), {
        ...(c.sa ? { serviceAccount: c.sa } : {}),
        ...(c.sc ? { storageClass: c.sc } : {}),
      });
      const got = checkGates(obs, {
        networkPolicyEnforced: c.enforced ?? true,
        localTest: c.localTest ?? true,
      });
      assert.deepEqual(got === undefined ? undefined : [got.kind, got.reason], c.want);
    });
  }

  it('names the account, the namespace and the flag in its messages', () => {
    const obs = observation(fleetObject(spec()));
    const sa = checkGates(obs, { networkPolicyEnforced: true, localTest: true });
    assert.equal(
      sa?.message,
      'ServiceAccount "orders-celld" was not found in namespace "default"; create it with the bucket\'s permissions',
    );
    const iso = checkGates(obs, { networkPolicyEnforced: false, localTest: true });
    assert.match(iso?.message ?? '', /--network-policy-enforced/);
    const sc = checkGates(
      observation(fleetObject(spec()), { serviceAccount: SA, storageClass: HOSTPATH }),
      {
        networkPolicyEnforced: true,
        localTest: false,
      },
    );
    assert.match(
      sc?.message ?? '',
      /provisioner is hostpath\.csi\.k8s\.io \(allowed only when local testing is enabled\)/,
    );
  });

  it('isPaused reads maintenance.paused only when it is exactly true', () => {
    assert.equal(isPaused(fleetObject(spec({ maintenance: { paused: true } }))), true);
    assert.equal(isPaused(fleetObject(spec({ maintenance: { paused: false } }))), false);
    assert.equal(isPaused(fleetObject(spec())), false);
  });
});
