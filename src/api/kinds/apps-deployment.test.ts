import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { controllerRevisionResource } from './apps-controllerrevision.js';
import { deploymentResource } from './apps-deployment.js';
import { replicaSetResource } from './apps-replicaset.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Spec = Record<string, unknown>;
const template = (labels: Spec = { app: 'web' }, spec: Spec = {}): Spec => ({
  metadata: { labels },
  spec: { containers: [{ name: 'web', image: 'nginx:1.25' }], ...spec },
});
const workload = (kind: string, spec: Spec): KubeObject => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});
const deployment = (spec: Spec = {}) => workload('Deployment', spec);

describe('Deployment', () => {
  it('defaults as SetDefaults_Deployment and clears status', () => {
    const { object, errors } = simulateCreate(deploymentResource, {
      ...deployment(),
      status: { replicas: 5 },
    });
    assert.deepEqual(errors, []);
    const spec = object.spec as Spec;
    assert.equal(spec.replicas, 1);
    assert.deepEqual(spec.strategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
    });
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.progressDeadlineSeconds, 600);
    assert.deepEqual(object.status, {});
    const podSpec = (spec.template as { spec: Spec }).spec;
    assert.equal(podSpec.restartPolicy, 'Always');
    assert.equal(podSpec.enableServiceLinks, undefined, 'pod-only defaults stay out of templates');
    assert.equal(podSpec.tolerations, undefined, 'admission defaults stay out of templates');
  });

  it('leaves Recreate without rollingUpdate', () => {
    const { object } = simulateCreate(
      deploymentResource,
      deployment({ strategy: { type: 'Recreate' } }),
    );
    assert.deepEqual((object.spec as Spec).strategy, { type: 'Recreate' });
  });

  const cases: { name: string; spec: Spec; want: string[] }[] = [
    {
      name: 'missing selector (upstream also reports the mismatch)',
      spec: { selector: undefined },
      want: [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      ],
    },
    {
      name: 'empty selector',
      spec: { selector: {} },
      want: ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'],
    },
    {
      name: 'selector does not match',
      spec: { selector: { matchLabels: { app: 'db' } } },
      want: [
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      ],
    },
    {
      name: 'invalid selector operator',
      spec: { selector: { matchExpressions: [{ key: 'app', operator: 'Is', values: ['web'] }] } },
      want: [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Is","values":["web"]}]}: invalid label selector',
      ],
    },
    {
      name: 'negative replicas',
      spec: { replicas: -1 },
      want: ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    },
    {
      name: 'restartPolicy must be Always',
      spec: { template: template({ app: 'web' }, { restartPolicy: 'Never' }) },
      want: [
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      ],
    },
    {
      name: 'activeDeadlineSeconds is forbidden',
      spec: { template: template({ app: 'web' }, { activeDeadlineSeconds: 5 }) },
      want: [
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
      ],
    },
    {
      name: 'template pod spec is validated',
      spec: { template: template({ app: 'web' }, { containers: [{ name: 'web' }] }) },
      want: ['spec.template.spec.containers[0].image: Required value'],
    },
    {
      name: 'both surge and unavailable zero',
      spec: {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
      },
      want: [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
      ],
    },
    {
      name: 'maxUnavailable above 100%',
      spec: {
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: '200%', maxUnavailable: '110%' },
        },
      },
      want: [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%',
      ],
    },
    {
      name: 'Recreate with rollingUpdate',
      spec: { strategy: { type: 'Recreate', rollingUpdate: {} } },
      want: [
        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
      ],
    },
    {
      name: 'unknown strategy',
      spec: { strategy: { type: 'BlueGreen' } },
      want: [
        'spec.strategy: Unsupported value: {"type":"BlueGreen"}: supported values: "Recreate", "RollingUpdate"',
      ],
    },
    {
      name: 'progress deadline not above minReadySeconds',
      spec: { minReadySeconds: 600 },
      want: [
        'spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () =>
      assert.deepEqual(simulateCreate(deploymentResource, deployment(c.spec)).messages, c.want),
    );
  }

  it('keeps the selector immutable and lets the template change', () => {
    const stored = simulateCreate(deploymentResource, deployment()).object;
    const moved = structuredClone(stored);
    (moved.spec as Spec).selector = { matchLabels: { app: 'web', tier: 'x' } };
    ((moved.spec as Spec).template as { metadata: Spec }).metadata.labels = {
      app: 'web',
      tier: 'x',
    };
    assert.deepEqual(simulateUpdate(deploymentResource, moved, stored).messages, [
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable',
    ]);
    const scaled = structuredClone(stored);
    (scaled.spec as Spec).replicas = 5;
    ((scaled.spec as Spec).template as { metadata: Spec }).metadata.labels = { app: 'web', v: '2' };
    assert.deepEqual(simulateUpdate(deploymentResource, scaled, stored).messages, []);
  });
});

describe('ReplicaSet', () => {
  it('defaults replicas and shows status.replicas 0', () => {
    const { object, errors } = simulateCreate(replicaSetResource, workload('ReplicaSet', {}));
    assert.deepEqual(errors, []);
    assert.equal((object.spec as Spec).replicas, 1);
    assert.deepEqual(object.status, { replicas: 0 });
  });
  it('says "deployment" for an empty selector, as upstream does', () => {
    assert.deepEqual(
      simulateCreate(replicaSetResource, workload('ReplicaSet', { selector: { matchLabels: {} } }))
        .messages,
      [
        'spec.selector: Invalid value: {"matchLabels":{}}: empty selector is invalid for deployment',
      ],
    );
  });
  it('selects on status.replicas', () => {
    assert.deepEqual(replicaSetResource.strategy.selectableFields?.({ status: { replicas: 3 } }), {
      'status.replicas': '3',
    });
    assert.deepEqual(replicaSetResource.strategy.selectableFields?.({}), {
      'status.replicas': '0',
    });
  });
  it('keeps the selector immutable', () => {
    const stored = simulateCreate(replicaSetResource, workload('ReplicaSet', {})).object;
    const next = structuredClone(stored);
    (next.spec as Spec).selector = {
      matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }],
    };
    assert.equal(
      simulateUpdate(replicaSetResource, next, stored).messages[0]?.endsWith('field is immutable'),
      true,
    );
  });
});

describe('ControllerRevision', () => {
  const rev = (extra: Spec = {}): KubeObject => ({
    metadata: { name: 'web-1', namespace: 'default' },
    data: { spec: {} },
    revision: 1,
    ...extra,
  });
  it('requires data and a non-negative revision', () => {
    assert.deepEqual(simulateCreate(controllerRevisionResource, rev()).messages, []);
    assert.deepEqual(
      simulateCreate(controllerRevisionResource, rev({ data: undefined, revision: -1 })).messages,
      [
        'data: Required value: data is mandatory',
        'revision: Invalid value: -1: must be greater than or equal to 0',
      ],
    );
  });
  it('keeps data immutable', () => {
    const stored = simulateCreate(controllerRevisionResource, rev()).object;
    assert.deepEqual(
      simulateUpdate(controllerRevisionResource, { ...stored, data: { spec: { x: 1 } } }, stored)
        .messages,
      ['data: Invalid value: {"spec":{"x":1}}: field is immutable'],
    );
  });
});
