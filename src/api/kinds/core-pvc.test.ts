import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { persistentVolumeClaimResource } from './core-pvc.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import { builtinResources } from './index.js';

type Spec = Record<string, unknown>;
const pvResource = builtinResources.find((d) => d.kind === 'PersistentVolume');
const pvc = (spec: Spec = {}): KubeObject => ({
  metadata: { name: 'data', namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const pv = (spec: Spec = {}): KubeObject => ({
  metadata: { name: 'pv-1' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    capacity: { storage: '10Gi' },
    hostPath: { path: '/data' },
    ...spec,
  },
});

describe('PersistentVolumeClaim', () => {
  it('defaults volumeMode and starts Pending', () => {
    const { object, errors } = simulateCreate(persistentVolumeClaimResource, {
      ...pvc(),
      status: { phase: 'Bound' },
    });
    assert.deepEqual(errors, []);
    assert.equal((object.spec as Spec).volumeMode, 'Filesystem');
    assert.deepEqual(object.status, { phase: 'Pending' });
  });

  const cases: { name: string; spec: Spec; want: string[] }[] = [
    {
      name: 'access modes required',
      spec: { accessModes: [] },
      want: ['spec.accessModes: Required value: at least 1 access mode is required'],
    },
    {
      name: 'unknown access mode',
      spec: { accessModes: ['ReadWriteSometimes'] },
      want: [
        'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      ],
    },
    {
      name: 'ReadWriteOncePod alone',
      spec: { accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] },
      want: ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes'],
    },
    {
      name: 'storage request required',
      spec: { resources: {} },
      want: ['spec.resources[storage]: Required value'],
    },
    {
      name: 'storage request positive',
      spec: { resources: { requests: { storage: '0' } } },
      want: ['spec.resources[storage]: Invalid value: "0": must be greater than zero'],
    },
  ];
  for (const c of cases)
    it(c.name, () =>
      assert.deepEqual(simulateCreate(persistentVolumeClaimResource, pvc(c.spec)).messages, c.want),
    );

  const stored = (phase: string): KubeObject => ({
    ...simulateCreate(persistentVolumeClaimResource, pvc()).object,
    status: { phase, capacity: { storage: '1Gi' } },
  });
  const withStorage = (old: KubeObject, storage: string): KubeObject => {
    const next = structuredClone(old);
    (next.spec as { resources: { requests: Spec } }).resources.requests.storage = storage;
    return next;
  };
  it('lets a bound claim grow', () => {
    const bound = stored('Bound');
    assert.deepEqual(
      simulateUpdate(persistentVolumeClaimResource, withStorage(bound, '2Gi'), bound).messages,
      [],
    );
  });
  it('freezes the spec otherwise, with upstream text', () => {
    const pending = stored('Pending');
    const [msg, ...rest] = simulateUpdate(
      persistentVolumeClaimResource,
      withStorage(pending, '2Gi'),
      pending,
    ).messages;
    assert.deepEqual(rest, []);
    assert.ok(
      msg?.startsWith(
        'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n',
      ),
      msg,
    );
  });
  it('lets volumeName be set once, and a class be set where none was', () => {
    const pending = stored('Pending');
    const next = structuredClone(pending);
    Object.assign(next.spec as Spec, { volumeName: 'pv-1', storageClassName: 'fast' });
    assert.deepEqual(simulateUpdate(persistentVolumeClaimResource, next, pending).messages, []);
  });
  it('does not shrink below the provisioned capacity', () => {
    const bound = stored('Bound');
    assert.deepEqual(
      simulateUpdate(persistentVolumeClaimResource, withStorage(bound, '512Mi'), bound).messages,
      ['spec.resources.requests.storage: Forbidden: field can not be less than status.capacity'],
    );
  });
});

describe('PersistentVolume', () => {
  it('defaults reclaim policy and volume mode', () => {
    assert.ok(pvResource);
    const { object, errors } = simulateCreate(pvResource, pv());
    assert.deepEqual(errors, []);
    assert.equal((object.spec as Spec).persistentVolumeReclaimPolicy, 'Retain');
    assert.equal((object.spec as Spec).volumeMode, 'Filesystem');
    assert.deepEqual((object.spec as { hostPath: Spec }).hostPath, { path: '/data', type: '' });
    assert.equal((object.status as Spec).phase, 'Pending');
  });

  const cases: { name: string; spec: Spec; want: string[] }[] = [
    {
      name: 'access modes required',
      spec: { accessModes: undefined },
      want: ['spec.accessModes: Required value'],
    },
    {
      name: 'capacity is storage only',
      spec: { capacity: { storage: '1Gi', cpu: '1' } },
      want: [
        'spec.capacity: Unsupported value: {"storage":"1Gi","cpu":"1"}: supported values: "storage"',
      ],
    },
    {
      name: 'a source is required',
      spec: { hostPath: undefined },
      want: ['spec: Required value: must specify a volume type'],
    },
    {
      name: 'local needs node affinity',
      spec: { hostPath: undefined, local: { path: '/mnt' } },
      want: ['spec.nodeAffinity: Required value: Local volume requires node affinity'],
    },
    {
      name: 'reclaim policy',
      spec: { persistentVolumeReclaimPolicy: 'Keep' },
      want: [
        'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.ok(pvResource);
      assert.deepEqual(simulateCreate(pvResource, pv(c.spec)).messages, c.want);
    });
  }

  it('keeps the volume source immutable', () => {
    assert.ok(pvResource);
    const stored = simulateCreate(pvResource, pv()).object;
    const next = structuredClone(stored);
    (next.spec as Spec).hostPath = { path: '/other', type: '' };
    const [msg] = simulateUpdate(pvResource, next, stored).messages;
    assert.ok(
      msg?.startsWith(
        'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n',
      ),
      msg,
    );
  });
});
