import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { daemonSetResource, TEMPLATE_GENERATION_ANNOTATION } from './apps-daemonset.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Spec = Record<string, unknown>;
const ds = (spec: Spec = {}, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: {
      metadata: { labels: { app: 'agent' } },
      spec: { containers: [{ name: 'agent', image: 'agent:v1' }] },
    },
    ...spec,
  },
});
const create = (obj: KubeObject) => simulateCreate(daemonSetResource, obj);
const rolling = (rollingUpdate: Spec) => ({
  updateStrategy: { type: 'RollingUpdate', rollingUpdate },
});
const generationOf = (o: KubeObject) => o.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];

describe('DaemonSet defaults', () => {
  it('applies SetDefaults_DaemonSet, a fresh status and template generation 1', () => {
    const { object, errors } = create(ds());
    assert.deepEqual(errors, []);
    const spec = object.spec as Spec;
    assert.deepEqual(spec.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    assert.equal(spec.revisionHistoryLimit, 10);
    const podSpec = (spec.template as { spec: Spec }).spec;
    assert.equal(podSpec.restartPolicy, 'Always');
    assert.equal(podSpec.dnsPolicy, 'ClusterFirst');
    assert.deepEqual(object.status, {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
    assert.equal(generationOf(object), '1');
  });

  it('OnDelete gets no rollingUpdate; a given maxSurge keeps maxUnavailable defaulted', () => {
    const onDelete = create(ds({ updateStrategy: { type: 'OnDelete' } })).object.spec as Spec;
    assert.deepEqual(onDelete.updateStrategy, { type: 'OnDelete' });
    const surge = create(ds(rolling({ maxSurge: '10%', maxUnavailable: 0 })));
    assert.deepEqual(surge.errors, []);
    assert.deepEqual((surge.object.spec as Spec).updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '10%', maxUnavailable: 0 },
    });
  });
});

describe('DaemonSet validation', () => {
  const cases: [string, KubeObject, string[]][] = [
    ['valid', ds(), []],
    [
      'template labels must match the selector',
      ds({ selector: { matchLabels: { app: 'other' } } }),
      [
        'spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'empty selector',
      ds({ selector: {} }),
      ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset'],
    ],
    [
      'missing selector',
      ds({ selector: undefined }),
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'restartPolicy must be Always',
      ds({
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { restartPolicy: 'OnFailure', containers: [{ name: 'a', image: 'a' }] },
        },
      }),
      [
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      ],
    ],
    [
      'both maxSurge and maxUnavailable set',
      ds(rolling({ maxUnavailable: 1, maxSurge: 1 })),
      [
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
      ],
    ],
    [
      'both zero',
      ds(rolling({ maxUnavailable: '0%', maxSurge: 0 })),
      [
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
      ],
    ],
    [
      'percent over 100 and a bad percent',
      ds(rolling({ maxUnavailable: '150%', maxSurge: 'x' })),
      [
        "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
      ],
    ],
    [
      'unknown strategy type',
      ds({ updateStrategy: { type: 'Recreate' } }),
      [
        'spec.updateStrategy: Unsupported value: {"type":"Recreate"}: supported values: "RollingUpdate", "OnDelete"',
      ],
    ],
    [
      'negative minReadySeconds and revisionHistoryLimit',
      ds({ minReadySeconds: -1, revisionHistoryLimit: -2 }),
      [
        'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      ],
    ],
    [
      'OnDelete with a rollingUpdate block is accepted',
      ds({ updateStrategy: { type: 'OnDelete', rollingUpdate: { maxUnavailable: 1 } } }),
      [],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(name, () => {
      assert.deepEqual([...create(obj).messages].sort(), [...want].sort());
    });
  }
});

describe('DaemonSet updates', () => {
  const stored = create(ds()).object;
  const withImage = (o: KubeObject, image: string): KubeObject => {
    const next = structuredClone(o);
    const template = (next.spec as { template: { spec: { containers: Spec[] } } }).template;
    template.spec.containers[0] = { ...template.spec.containers[0], image };
    return next;
  };

  it('a template change bumps the template generation; other spec changes do not', () => {
    const changed = simulateUpdate(daemonSetResource, withImage(stored, 'agent:v2'), stored);
    assert.deepEqual(changed.messages, []);
    assert.equal(generationOf(changed.object), '2');
    const same = simulateUpdate(
      daemonSetResource,
      { ...structuredClone(stored), spec: { ...(stored.spec as Spec), minReadySeconds: 5 } },
      stored,
    );
    assert.deepEqual(same.messages, []);
    assert.equal(generationOf(same.object), '1');
  });

  it('a client sending the template as written (undefaulted) does not change it', () => {
    const raw = ds({}, { [TEMPLATE_GENERATION_ANNOTATION]: '1' });
    const out = simulateUpdate(daemonSetResource, raw, stored);
    assert.deepEqual(out.messages, []);
    assert.equal(generationOf(out.object), '1');
  });

  it('dropping the annotation keeps the stored generation; lowering or raising it alone is refused', () => {
    const dropped = structuredClone(stored);
    delete dropped.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
    assert.equal(generationOf(simulateUpdate(daemonSetResource, dropped, stored).object), '1');
    const bumped = create(ds()).object;
    const v2 = simulateUpdate(daemonSetResource, withImage(bumped, 'agent:v2'), bumped).object;
    const lowered = structuredClone(v2);
    (lowered.metadata as { annotations: Record<string, string> }).annotations[
      TEMPLATE_GENERATION_ANNOTATION
    ] = '1';
    assert.deepEqual(simulateUpdate(daemonSetResource, lowered, v2).messages, [
      'spec.templateGeneration: Invalid value: 1: must not be decremented',
    ]);
    const raised = structuredClone(v2);
    (raised.metadata as { annotations: Record<string, string> }).annotations[
      TEMPLATE_GENERATION_ANNOTATION
    ] = '5';
    assert.deepEqual(simulateUpdate(daemonSetResource, raised, v2).messages, [
      'spec.templateGeneration: Invalid value: 5: must not be incremented without template update',
    ]);
  });

  it('the selector is immutable', () => {
    const next = structuredClone(stored);
    (next.spec as Spec).selector = { matchLabels: { app: 'agent', tier: 'x' } };
    (next.spec as { template: { metadata: Spec } }).template.metadata = {
      labels: { app: 'agent', tier: 'x' },
    };
    const out = simulateUpdate(daemonSetResource, next, stored);
    assert.ok(
      out.messages.some((m) => m.startsWith('spec.selector: Invalid value')),
      out.messages.join(),
    );
  });

  it('status: negative counts and a lower collisionCount are refused', () => {
    const old = { ...stored, status: { ...(stored.status as Spec), collisionCount: 2 } };
    const next = { ...stored, status: { numberReady: -1, collisionCount: 1 } };
    const errs = daemonSetResource.strategy.validateStatusUpdate?.(next, old) ?? [];
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${e.detail}`),
      [
        'status.numberReady: must be greater than or equal to 0',
        'status.collisionCount: cannot be decremented',
      ],
    );
  });
});
