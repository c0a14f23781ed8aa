import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBuiltinResources } from '../../api/kinds/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { FakeClock } from '../../util/clock.js';
import { ObjectStore } from '../store/object-store.js';
import { composeAdmission } from './chain.js';
import { defaultStorageClassAdmission } from './default-storage-class.js';
import { persistentVolumeClaimResizeAdmission, RESIZE_NOT_ALLOWED } from './pvc-resize.js';
import { storageObjectInUseProtectionAdmission } from './storage-object-in-use-protection.js';

const resources = createBuiltinResources();
function def(group: string, plural: string): ResourceDefinition {
  const d = resources.find((r) => r.group === group && r.plural === plural);
  assert.ok(d, plural);
  return d;
}
const PVC = def('', 'persistentvolumeclaims');
const PV = def('', 'persistentvolumes');
const SC = def('storage.k8s.io', 'storageclasses');

/** An object store with the three storage plugins, on a fake clock (seconds apart per class). */
function setup() {
  const backend = createMemoryBackend();
  const clock = new FakeClock();
  const store = new ObjectStore({
    backend,
    clock,
    admission: composeAdmission(
      defaultStorageClassAdmission(backend),
      storageObjectInUseProtectionAdmission(),
      persistentVolumeClaimResizeAdmission(backend),
    ),
  });
  const addClass = async (name: string, extra: Record<string, unknown> = {}, isDefault = '') => {
    await store.create(SC, '', {
      metadata: {
        name,
        ...(isDefault === '' ? {} : { annotations: { [isDefault]: 'true' } }),
      },
      provisioner: 'fleetyard.io/local',
      ...extra,
    });
    await clock.step(1000);
  };
  const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
    metadata: { name: 'data', ...(annotations ? { annotations } : {}) },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  });
  const createClaim = async (c: KubeObject) => (await store.create(PVC, 'default', c)).object;
  return { backend, store, addClass, claim, createClaim };
}

const DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';

describe('DefaultStorageClass', () => {
  const cases: {
    name: string;
    classes: Array<[string, string]>;
    claim: (c: ReturnType<typeof setup>['claim']) => KubeObject;
    want: unknown;
  }[] = [
    {
      name: 'no default class: unchanged',
      classes: [['a', '']],
      claim: (c) => c(),
      want: undefined,
    },
    {
      name: 'the default class',
      classes: [
        ['a', ''],
        ['b', DEFAULT],
      ],
      claim: (c) => c(),
      want: 'b',
    },
    {
      name: 'the beta annotation counts',
      classes: [['a', BETA_DEFAULT]],
      claim: (c) => c(),
      want: 'a',
    },
    {
      name: 'several defaults: the newest',
      classes: [
        ['old', DEFAULT],
        ['new', DEFAULT],
      ],
      claim: (c) => c(),
      want: 'new',
    },
    {
      name: 'an explicit "" is kept',
      classes: [['a', DEFAULT]],
      claim: (c) => c({ storageClassName: '' }),
      want: '',
    },
    {
      name: 'an explicit class is kept',
      classes: [
        ['a', DEFAULT],
        ['b', ''],
      ],
      claim: (c) => c({ storageClassName: 'b' }),
      want: 'b',
    },
    {
      name: 'the beta claim annotation counts as a class',
      classes: [['a', DEFAULT]],
      claim: (c) => c({}, { 'volume.beta.kubernetes.io/storage-class': 'x' }),
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const s = setup();
      for (const [name, annotation] of c.classes) await s.addClass(name, {}, annotation);
      const created = await s.createClaim(c.claim(s.claim));
      assert.equal((created.spec as Record<string, unknown>).storageClassName, c.want);
    });
  }

  it('several defaults created in the same second: the first by name', async () => {
    const s = setup();
    for (const name of ['zeta', 'alpha']) {
      await s.store.create(SC, '', {
        metadata: { name, annotations: { [DEFAULT]: 'true' } },
        provisioner: 'p',
      });
    }
    const created = await s.createClaim(s.claim());
    assert.equal((created.spec as Record<string, unknown>).storageClassName, 'alpha');
  });
});

describe('StorageObjectInUseProtection', () => {
  const cases: { name: string; def: ResourceDefinition; obj: KubeObject; want: string[] }[] = [
    {
      name: 'a new claim gets pvc-protection',
      def: PVC,
      obj: {
        metadata: { name: 'c' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
      want: ['kubernetes.io/pvc-protection'],
    },
    {
      name: 'a new volume gets pv-protection after its own finalizers',
      def: PV,
      obj: {
        metadata: { name: 'v', finalizers: ['example.com/x'] },
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          hostPath: { path: '/d' },
        },
      },
      want: ['example.com/x', 'kubernetes.io/pv-protection'],
    },
    {
      name: 'not added twice',
      def: PVC,
      obj: {
        metadata: { name: 'c', finalizers: ['kubernetes.io/pvc-protection'] },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
      want: ['kubernetes.io/pvc-protection'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const s = setup();
      const ns = c.def.namespaced ? 'default' : '';
      const created = (await s.store.create(c.def, ns, c.obj)).object;
      assert.deepEqual(created.metadata?.finalizers, c.want);
    });
  }

  it('other kinds are untouched', async () => {
    const s = setup();
    await s.addClass('a');
    const sc = s.store.get(SC, '', 'a');
    assert.equal(sc.metadata?.finalizers, undefined);
  });
});

describe('PersistentVolumeClaimResize', () => {
  const FORBIDDEN = `persistentvolumeclaims "data" is forbidden: ${RESIZE_NOT_ALLOWED}`;
  const cases: {
    name: string;
    expansion: boolean | undefined;
    className: string;
    bound: boolean;
    size: string;
    want: string | undefined;
  }[] = [
    {
      name: 'grows when the class allows it',
      expansion: true,
      className: 'sc',
      bound: true,
      size: '2Gi',
      want: undefined,
    },
    {
      name: 'refused when the class does not say so',
      expansion: undefined,
      className: 'sc',
      bound: true,
      size: '2Gi',
      want: FORBIDDEN,
    },
    {
      name: 'refused when the class says false',
      expansion: false,
      className: 'sc',
      bound: true,
      size: '2Gi',
      want: FORBIDDEN,
    },
    {
      name: 'refused without a class',
      expansion: true,
      className: '',
      bound: true,
      size: '2Gi',
      want: FORBIDDEN,
    },
    {
      name: 'refused when the class is gone',
      expansion: true,
      className: 'missing',
      bound: true,
      size: '2Gi',
      want: FORBIDDEN,
    },
    {
      name: 'same size is not a resize',
      expansion: undefined,
      className: 'sc',
      bound: true,
      size: '1Gi',
      want: undefined,
    },
    {
      name: "shrinking is the validation's business",
      expansion: undefined,
      className: 'sc',
      bound: true,
      size: '512Mi',
      want: 'field can not be less than status.capacity',
    },
    {
      name: 'unbound: the PVC validation answers (422)',
      expansion: true,
      className: 'sc',
      bound: false,
      size: '2Gi',
      want: 'spec is immutable after creation',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const s = setup();
      await s.addClass(
        'sc',
        c.expansion === undefined ? {} : { allowVolumeExpansion: c.expansion },
      );
      await s.createClaim(s.claim({ storageClassName: c.className }));
      if (c.bound) {
        await s.store.update(
          PVC,
          'default',
          'data',
          (o) => ({ ...o, status: { phase: 'Bound', capacity: { storage: '1Gi' } } }),
          { subresource: 'status' },
        );
      }
      const grow = s.store.update(PVC, 'default', 'data', (o) => {
        const spec = o.spec as { resources: { requests: Record<string, string> } };
        spec.resources.requests.storage = c.size;
        return o;
      });
      if (c.want === undefined) {
        await grow;
        const stored = s.store.get(PVC, 'default', 'data');
        const spec = stored.spec as { resources: { requests: Record<string, string> } };
        assert.equal(spec.resources.requests.storage, c.size);
      } else {
        await assert.rejects(grow, (e: Error) => e.message.includes(c.want as string));
      }
    });
  }

  it('the status subresource is not checked', async () => {
    const s = setup();
    await s.createClaim(s.claim({ storageClassName: 'none' }));
    await s.store.update(
      PVC,
      'default',
      'data',
      (o) => ({ ...o, status: { phase: 'Bound', capacity: { storage: '5Gi' } } }),
      { subresource: 'status' },
    );
    assert.equal((s.store.get(PVC, 'default', 'data').status as { phase: string }).phase, 'Bound');
  });
});
