import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import {
  csiDriverResource,
  csiNodeResource,
  csiStorageCapacityResource,
  volumeAttachmentResource,
} from './storage-csi.js';

type Spec = Record<string, unknown>;

describe('CSIDriver', () => {
  const driver = (spec: Spec, name = 'hostpath.csi.k8s.io'): KubeObject => ({
    metadata: { name },
    spec,
  });

  it('fills upstream defaults', () => {
    const { object, errors } = simulateCreate(csiDriverResource, driver({}));
    assert.deepEqual(errors, []);
    assert.deepEqual(object.spec, {
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      seLinuxMount: false,
      volumeLifecycleModes: ['Persistent'],
    });
  });

  const cases: [string, KubeObject, string[]][] = [
    [
      'an unknown fsGroupPolicy and mode',
      driver({ fsGroupPolicy: 'Always', volumeLifecycleModes: ['Forever'] }),
      [
        'spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"',
        'spec.volumeLifecycleModes: Unsupported value: "Forever": supported values: "Ephemeral", "Persistent"',
      ],
    ],
    [
      'token requests',
      driver({ tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }] }),
      [
        'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
        'spec.tokenRequests[1].audience: Duplicate value: "a"',
      ],
    ],
    [
      'a long name',
      driver({}, `${'a'.repeat(64)}.io`),
      ['name: Too long: may not be more than 63 bytes'],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(csiDriverResource, obj).messages, want);
    });
  }

  it('keeps attachRequired immutable', () => {
    const old = simulateCreate(csiDriverResource, driver({})).object;
    const { messages } = simulateUpdate(csiDriverResource, driver({ attachRequired: false }), old);
    assert.deepEqual(messages, ['spec.attachRequired: Invalid value: false: field is immutable']);
  });
});

describe('CSINode', () => {
  const node = (drivers: unknown[]): KubeObject => ({
    metadata: { name: 'n1' },
    spec: { drivers },
  });
  const d = {
    name: 'hostpath.csi.k8s.io',
    nodeID: 'n1',
    topologyKeys: ['topology.kubernetes.io/zone'],
  };

  it('validates drivers', () => {
    assert.deepEqual(simulateCreate(csiNodeResource, node([d])).messages, []);
    assert.deepEqual(
      simulateCreate(csiNodeResource, node([d, { ...d, nodeID: '', allocatable: { count: -1 } }]))
        .messages,
      [
        'spec.drivers[1].nodeID: Required value',
        'spec.drivers[1].allocatable.count: Invalid value: -1: must be greater than or equal to 0',
        'spec.drivers[1].name: Duplicate value: "hostpath.csi.k8s.io"',
      ],
    );
  });

  it("keeps a driver's node ID", () => {
    const old = simulateCreate(csiNodeResource, node([d])).object;
    const { messages } = simulateUpdate(csiNodeResource, node([{ ...d, nodeID: 'n2' }]), old);
    assert.deepEqual(messages, ['spec.drivers[0].nodeID: Invalid value: "n2": field is immutable']);
  });
});

describe('VolumeAttachment', () => {
  const va = (spec: Spec): KubeObject => ({
    metadata: { name: 'va' },
    spec: { attacher: 'hostpath.csi.k8s.io', nodeName: 'n1', ...spec },
  });

  it('starts detached', () => {
    const { object, errors } = simulateCreate(
      volumeAttachmentResource,
      va({ source: { persistentVolumeName: 'pv' } }),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(object.status, { attached: false });
  });

  const cases: [string, Spec, string[]][] = [
    [
      'no source',
      { source: {} },
      [
        'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      ],
    ],
    [
      'two sources',
      { source: { persistentVolumeName: 'pv', inlineVolumeSpec: {} } },
      [
        'spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      ],
    ],
    [
      'no attacher',
      { attacher: '', source: { persistentVolumeName: 'pv' } },
      ['spec.attacher: Required value'],
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(volumeAttachmentResource, va(spec)).messages, want);
    });
  }

  it('never changes its spec', () => {
    const old = simulateCreate(
      volumeAttachmentResource,
      va({ source: { persistentVolumeName: 'pv' } }),
    ).object;
    const { messages } = simulateUpdate(
      volumeAttachmentResource,
      va({ source: { persistentVolumeName: 'pv2' } }),
      old,
    );
    assert.equal(messages.length, 1);
    assert.match(messages[0] ?? '', /^spec: Invalid value: .*: field is immutable$/);
  });
});

describe('CSIStorageCapacity', () => {
  const cap = (fields: Spec): KubeObject => ({
    metadata: { name: 'c', namespace: 'default' },
    storageClassName: 'standard',
    ...fields,
  });
  it('validates the class, the topology and the quantities', () => {
    assert.deepEqual(
      simulateCreate(csiStorageCapacityResource, cap({ capacity: '10Gi' })).messages,
      [],
    );
    assert.deepEqual(
      simulateCreate(
        csiStorageCapacityResource,
        cap({ capacity: '-1', nodeTopology: { matchLabels: { 'a b': 'x' } } }),
      ).messages.map((m) => m.split(':')[0]),
      ['nodeTopology.matchLabels', 'capacity'],
    );
  });
  it('keeps the class immutable', () => {
    const old = simulateCreate(csiStorageCapacityResource, cap({})).object;
    const { messages } = simulateUpdate(
      csiStorageCapacityResource,
      cap({ storageClassName: 'fast' }),
      old,
    );
    assert.deepEqual(messages, ['storageClassName: Invalid value: "fast": field is immutable']);
  });
});
