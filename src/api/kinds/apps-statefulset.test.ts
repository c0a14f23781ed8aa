import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { statefulSetResource } from './apps-statefulset.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Spec = Record<string, unknown>;
const sts = (spec: Spec = {}, name = 'db'): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, namespace: 'default' },
  spec: {
    serviceName: 'db',
    selector: { matchLabels: { app: 'db' } },
    template: {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'db', image: 'postgres:16' }] },
    },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ],
    ...spec,
  },
});
const create = (obj: KubeObject) => simulateCreate(statefulSetResource, obj);

describe('StatefulSet defaults', () => {
  it('applies SetDefaults_StatefulSet', () => {
    const { object, errors } = create(sts());
    assert.deepEqual(errors, []);
    const spec = object.spec as Spec;
    assert.equal(spec.replicas, 1);
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(spec.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0 },
    });
    assert.deepEqual(spec.persistentVolumeClaimRetentionPolicy, {
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    assert.deepEqual(spec.volumeClaimTemplates, [
      {
        metadata: { name: 'data' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: '1Gi' } },
          volumeMode: 'Filesystem',
        },
        status: { phase: 'Pending' },
      },
    ]);
    assert.deepEqual(object.status, { replicas: 0, availableReplicas: 0 });
  });

  it('leaves an explicit RollingUpdate without rollingUpdate alone', () => {
    const { object } = create(sts({ updateStrategy: { type: 'RollingUpdate' } }));
    assert.deepEqual((object.spec as Spec).updateStrategy, { type: 'RollingUpdate' });
  });
});

describe('StatefulSet validation', () => {
  const cases: { name: string; spec: Spec; want: string[] }[] = [
    {
      name: 'empty selector',
      spec: { selector: {} },
      want: ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset'],
    },
    {
      name: 'pod management policy',
      spec: { podManagementPolicy: 'Random' },
      want: [
        `spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
      ],
    },
    {
      name: 'OnDelete with rollingUpdate',
      spec: { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } },
      want: [
        `spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy 'RollingUpdate'`,
      ],
    },
    {
      name: 'unknown update strategy',
      spec: { updateStrategy: { type: 'Recreate' } },
      want: [
        `spec.updateStrategy: Invalid value: {"type":"Recreate"}: must be 'RollingUpdate' or 'OnDelete'`,
      ],
    },
    {
      name: 'negative partition and zero maxUnavailable',
      spec: {
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { partition: -1, maxUnavailable: 0 },
        },
      },
      want: [
        'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0',
      ],
    },
    {
      name: 'retention policy',
      spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Delete' } },
      want: [
        'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      ],
    },
    {
      name: 'negative ordinals start',
      spec: { ordinals: { start: -2 } },
      want: ['spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0'],
    },
    {
      name: 'restartPolicy and activeDeadlineSeconds',
      spec: {
        template: {
          metadata: { labels: { app: 'db' } },
          spec: {
            containers: [{ name: 'db', image: 'pg' }],
            restartPolicy: 'OnFailure',
            activeDeadlineSeconds: 1,
          },
        },
      },
      want: [
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
      ],
    },
    {
      name: 'the pod spec itself is not validated (as upstream)',
      spec: {
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db' }] } },
      },
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(create(sts(c.spec)).messages, c.want));
  }

  it('names are DNS labels', () => {
    assert.deepEqual(create(sts({}, 'db.primary')).messages, [
      'metadata.name: Invalid value: "db.primary": must not contain dots',
    ]);
  });
});

describe('StatefulSet updates', () => {
  const stored = create(sts()).object;
  const edit = (f: (spec: Spec) => void): KubeObject => {
    const next = structuredClone(stored);
    f(next.spec as Spec);
    return next;
  };
  it('allows replicas, template, updateStrategy, retention policy, ordinals and minReadySeconds', () => {
    const next = edit((s) => {
      s.replicas = 3;
      s.minReadySeconds = 5;
      s.ordinals = { start: 1 };
      s.updateStrategy = { type: 'OnDelete' };
      s.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Delete' };
      ((s.template as { spec: Spec }).spec.containers as Spec[])[0] = {
        name: 'db',
        image: 'postgres:17',
      };
    });
    assert.deepEqual(simulateUpdate(statefulSetResource, next, stored).messages, []);
  });
  it('forbids anything else with the exact upstream message', () => {
    const forbidden =
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
    for (const f of [
      (s: Spec) => {
        s.serviceName = 'other';
      },
      (s: Spec) => {
        (s.volumeClaimTemplates as Spec[])[0] = {
          metadata: { name: 'x' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } },
        };
      },
      (s: Spec) => {
        s.podManagementPolicy = 'Parallel';
      },
      (s: Spec) => {
        s.revisionHistoryLimit = 3;
      },
    ]) {
      assert.deepEqual(simulateUpdate(statefulSetResource, edit(f), stored).messages, [forbidden]);
    }
  });
});
