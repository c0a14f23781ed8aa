import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import {
  createStatefulSetResource,
  FORBIDDEN_STATEFULSET_UPDATE,
  statefulSetResource,
} from './apps-statefulset.js';
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
      spec: { updateStrategy: { type: 'Rolling' } },
      want: [
        `spec.updateStrategy: Invalid value: {"type":"Rolling"}: must be 'RollingUpdate' or 'OnDelete'`,
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
      // The gate is off: maxUnavailable is dropped before validation, as upstream.
      want: [
        'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
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
  // v1.33 (the version served) keeps revisionHistoryLimit immutable; kubernetes#130263 made it
  // updatable in a later release.
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
    assert.equal(forbidden, `spec: Forbidden: ${FORBIDDEN_STATEFULSET_UPDATE}`);
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
      (s: Spec) => {
        s.selector = { matchExpressions: [{ key: 'app', operator: 'Exists' }] };
      },
    ]) {
      assert.deepEqual(simulateUpdate(statefulSetResource, edit(f), stored).messages, [forbidden]);
    }
  });
});

/** The harness leaves out `validateCreate`, where the Recreate gate is checked on create. */
function createMessages(def: ResourceDefinition, obj: KubeObject): string[] {
  const { object, messages } = simulateCreate(def, obj);
  return [...messages, ...(def.strategy.validateCreate?.(object) ?? []).map(fieldErrorText)];
}

describe('StatefulSet feature gates', () => {
  const off = statefulSetResource;
  const on = createStatefulSetResource({
    maxUnavailableStatefulSet: true,
    statefulSetRecreateStrategy: true,
  });
  const rolling = (maxUnavailable?: unknown): Spec => ({
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: maxUnavailable === undefined ? { partition: 0 } : { maxUnavailable },
    },
  });
  const strategyOf = (o: KubeObject) => (o.spec as Spec).updateStrategy;

  const createCases: { name: string; gates: typeof on; spec: Spec; strategy: unknown }[] = [
    {
      name: 'gate off drops maxUnavailable on create',
      gates: off,
      spec: rolling(2),
      strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    },
    {
      name: 'gate on keeps maxUnavailable',
      gates: on,
      spec: rolling('50%'),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%', partition: 0 } },
    },
    {
      name: 'gate on defaults maxUnavailable to 1',
      gates: on,
      spec: {},
      strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
    },
    {
      name: 'gate on accepts Recreate',
      gates: on,
      spec: { updateStrategy: { type: 'Recreate' } },
      strategy: { type: 'Recreate' },
    },
  ];
  for (const c of createCases) {
    it(c.name, () => {
      const { object } = simulateCreate(c.gates, sts(c.spec));
      assert.deepEqual(createMessages(c.gates, sts(c.spec)), []);
      assert.deepEqual(strategyOf(object), c.strategy);
    });
  }

  it('gate off refuses Recreate on create', () => {
    assert.deepEqual(createMessages(off, sts({ updateStrategy: { type: 'Recreate' } })), [
      `spec.updateStrategy: Invalid value: {"type":"Recreate"}: must be 'RollingUpdate' or 'OnDelete'`,
    ]);
  });

  it('gate on validates maxUnavailable', () => {
    assert.deepEqual(createMessages(on, sts(rolling(0))), [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0',
    ]);
  });

  it('Recreate takes no rollingUpdate', () => {
    const spec = { updateStrategy: { type: 'Recreate', rollingUpdate: { partition: 1 } } };
    assert.deepEqual(createMessages(on, sts(spec)), [
      `spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy 'RollingUpdate'`,
    ]);
  });

  // Stored objects are written with only the Recreate gate on, so no maxUnavailable default.
  const recreateOnly = createStatefulSetResource({
    maxUnavailableStatefulSet: false,
    statefulSetRecreateStrategy: true,
  });
  const storedWith = (spec: Spec): KubeObject => {
    const maxUnavailable = rollingUpdateOf(spec)?.maxUnavailable !== undefined;
    return simulateCreate(maxUnavailable ? on : recreateOnly, sts(spec)).object;
  };
  const rollingUpdateOf = (spec: Spec) =>
    (spec.updateStrategy as { rollingUpdate?: Spec } | undefined)?.rollingUpdate;
  const withStrategy = (o: KubeObject, strategy: unknown): KubeObject => {
    const next = structuredClone(o);
    (next.spec as Spec).updateStrategy = strategy;
    return next;
  };
  const updateCases: {
    name: string;
    old: Spec;
    strategy: unknown;
    want: unknown;
    errs: string[];
  }[] = [
    {
      name: 'gate off drops a new maxUnavailable on update',
      old: rolling(),
      strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
      want: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      errs: [],
    },
    {
      name: 'gate off keeps maxUnavailable the stored object already uses',
      old: rolling(3),
      strategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
      want: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
      errs: [],
    },
    {
      name: 'gate off refuses a change to Recreate',
      old: rolling(),
      strategy: { type: 'Recreate' },
      want: { type: 'Recreate' },
      errs: [
        `spec.updateStrategy: Invalid value: {"type":"Recreate"}: must be 'RollingUpdate' or 'OnDelete'`,
      ],
    },
    {
      name: 'gate off keeps a stored Recreate writable',
      old: { updateStrategy: { type: 'Recreate' } },
      strategy: { type: 'Recreate' },
      want: { type: 'Recreate' },
      errs: [],
    },
  ];
  for (const c of updateCases) {
    it(c.name, () => {
      const stored = storedWith(c.old);
      const { object, messages } = simulateUpdate(off, withStrategy(stored, c.strategy), stored);
      assert.deepEqual(messages, c.errs);
      assert.deepEqual(strategyOf(object), c.want);
    });
  }
});
