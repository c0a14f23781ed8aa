import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JsonObject, KubeObject } from '../object.js';
import { hpaV1Resource, hpaV1ToStorage } from './autoscaling-hpa.js';
import {
  BEHAVIOR_ANNOTATION,
  CONDITIONS_ANNOTATION,
  hpaToV1,
  hpaToV2,
  METRIC_SPECS_ANNOTATION,
  METRIC_STATUSES_ANNOTATION,
} from './autoscaling-hpa-conversion.js';

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const cpu = (u: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: u } },
});

function v2(
  spec: JsonObject,
  status: JsonObject = { desiredReplicas: 0 },
  meta: JsonObject = {},
): KubeObject {
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    metadata: { name: 'web', namespace: 'default', ...meta },
    spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, ...spec },
    status,
  };
}

describe('autoscaling/v2 → v1 (upstream conversion.go)', () => {
  const cases: Array<[string, KubeObject, (v1: KubeObject) => void]> = [
    [
      'a CPU utilization target is targetCPUUtilizationPercentage, no annotation',
      v2({ metrics: [cpu(55)] }),
      (o) => {
        assert.equal((o.spec as JsonObject).targetCPUUtilizationPercentage, 55);
        assert.equal(o.metadata?.annotations, undefined);
      },
    ],
    [
      'a memory metric goes to the metrics annotation as a v1 MetricSpec',
      v2({
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } },
          },
        ],
      }),
      (o) => {
        assert.equal((o.spec as JsonObject).targetCPUUtilizationPercentage, undefined);
        assert.deepEqual(JSON.parse(o.metadata?.annotations?.[METRIC_SPECS_ANNOTATION] ?? ''), [
          { type: 'Resource', resource: { name: 'memory', targetAverageValue: '1Gi' } },
        ]);
      },
    ],
    [
      'the behavior is marshalled with Go field names',
      v2({
        metrics: [cpu(80)],
        behavior: {
          scaleDown: {
            selectPolicy: 'Max',
            policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }],
          },
        },
      }),
      (o) => {
        assert.deepEqual(JSON.parse(o.metadata?.annotations?.[BEHAVIOR_ANNOTATION] ?? ''), {
          ScaleUp: null,
          ScaleDown: {
            StabilizationWindowSeconds: null,
            SelectPolicy: 'Max',
            Policies: [{ Type: 'Percent', Value: 10, PeriodSeconds: 60 }],
            Tolerance: null,
          },
        });
      },
    ],
    [
      'current metrics and conditions go to annotations; the CPU one is also the percentage',
      v2(
        { metrics: [cpu(50)] },
        {
          currentReplicas: 2,
          desiredReplicas: 3,
          currentMetrics: [
            {
              type: 'Resource',
              resource: { name: 'cpu', current: { averageValue: '120m', averageUtilization: 60 } },
            },
          ],
          conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' }],
        },
      ),
      (o) => {
        assert.deepEqual(o.status, {
          currentReplicas: 2,
          desiredReplicas: 3,
          currentCPUUtilizationPercentage: 60,
        });
        assert.deepEqual(JSON.parse(o.metadata?.annotations?.[METRIC_STATUSES_ANNOTATION] ?? ''), [
          {
            type: 'Resource',
            resource: { name: 'cpu', currentAverageUtilization: 60, currentAverageValue: '120m' },
          },
        ]);
        assert.deepEqual(JSON.parse(o.metadata?.annotations?.[CONDITIONS_ANNOTATION] ?? ''), [
          { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' },
        ]);
      },
    ],
    [
      'stale round-trip annotations on the stored object are replaced',
      v2(
        { metrics: [cpu(50)] },
        { desiredReplicas: 0 },
        { annotations: { [METRIC_SPECS_ANNOTATION]: '[]', keep: 'me' } },
      ),
      (o) => assert.deepEqual(o.metadata?.annotations, { keep: 'me' }),
    ],
  ];
  for (const [name, input, check] of cases) it(name, () => check(hpaToV1(input)));
});

describe('autoscaling/v1 → v2', () => {
  it('a v1 HPA without a target gets upstream’s implicit 80 % CPU', () => {
    const out = hpaToV2({ metadata: { name: 'a' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } });
    assert.deepEqual((out.spec as JsonObject).metrics, [cpu(80)]);
  });
  it('the annotation’s metrics come first, the CPU target last, and the annotations are dropped', () => {
    const out = hpaToV2({
      metadata: {
        name: 'a',
        annotations: {
          [METRIC_SPECS_ANNOTATION]: JSON.stringify([
            { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
          ]),
          [BEHAVIOR_ANNOTATION]:
            '{"scaleup":{"selectpolicy":"Min","policies":[{"type":"Pods","value":1,"periodSeconds":30}]}}',
        },
      },
      spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 40 },
    });
    const spec = out.spec as JsonObject;
    assert.deepEqual(spec.metrics, [
      {
        type: 'Pods',
        pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
      },
      cpu(40),
    ]);
    // encoding/json matches keys ignoring case.
    assert.deepEqual(spec.behavior, {
      scaleUp: { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] },
    });
    assert.equal(out.metadata?.annotations, undefined);
  });
  it('an annotation that does not decode is ignored, as upstream', () => {
    const out = hpaToV2({
      metadata: { name: 'a', annotations: { [METRIC_SPECS_ANNOTATION]: '{not json' } },
      spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 40 },
    });
    assert.deepEqual((out.spec as JsonObject).metrics, [cpu(40)]);
  });
});

// Canonical v2 forms (what the store holds after defaulting): every value Go would write back.
const quantity = fc.constantFrom('1', '250m', '2Gi', '10');
const identifier = fc.record({ name: fc.constantFrom('qps', 'queue') });
const otherMetric = fc.oneof(
  quantity.map((q) => ({
    type: 'Resource',
    resource: { name: 'memory', target: { type: 'AverageValue', averageValue: q } },
  })),
  fc.record({ metric: identifier, q: quantity }).map(({ metric, q }) => ({
    type: 'Pods',
    pods: { metric, target: { type: 'AverageValue', averageValue: q } },
  })),
  fc.record({ metric: identifier, q: quantity }).map(({ metric, q }) => ({
    type: 'Object',
    object: { describedObject: ref, target: { type: 'Value', value: q }, metric },
  })),
  fc.record({ metric: identifier, q: quantity }).map(({ metric, q }) => ({
    type: 'External',
    external: { metric, target: { type: 'AverageValue', averageValue: q } },
  })),
  fc.integer({ min: 1, max: 100 }).map((u) => ({
    type: 'ContainerResource',
    containerResource: {
      name: 'cpu',
      target: { type: 'Utilization', averageUtilization: u },
      container: 'app',
    },
  })),
);
const rules = fc.record({
  stabilizationWindowSeconds: fc.integer({ min: 0, max: 3600 }),
  selectPolicy: fc.constantFrom('Max', 'Min', 'Disabled'),
  policies: fc.array(
    fc.record({
      type: fc.constantFrom('Pods', 'Percent'),
      value: fc.integer({ min: 1, max: 100 }),
      periodSeconds: fc.integer({ min: 1, max: 1800 }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
});
const canonicalV2 = fc
  .record({
    others: fc.array(otherMetric, { maxLength: 3 }),
    cpuTarget: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
    behavior: fc.option(fc.record({ scaleUp: rules, scaleDown: rules }), { nil: undefined }),
    current: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
    replicas: fc.integer({ min: 1, max: 10 }),
  })
  .filter((r) => r.others.length > 0 || r.cpuTarget !== undefined)
  .map((r) => {
    const metrics = [...r.others, ...(r.cpuTarget === undefined ? [] : [cpu(r.cpuTarget)])];
    const status: JsonObject = { currentReplicas: r.replicas, desiredReplicas: r.replicas };
    if (r.current !== undefined) {
      status.currentMetrics = [
        {
          type: 'Resource',
          resource: {
            name: 'cpu',
            current: { averageValue: '100m', averageUtilization: r.current },
          },
        },
      ];
    }
    const hpa = v2(
      { metrics, ...(r.behavior === undefined ? {} : { behavior: r.behavior }) },
      status,
    );
    // Plain JSON objects, as decoded from storage (fast-check may build prototype-less ones).
    return JSON.parse(JSON.stringify(hpa)) as KubeObject;
  });

describe('round trips', () => {
  it('v2 → v1 → v2 is the identity on stored (canonical) HPAs', () => {
    fc.assert(
      fc.property(canonicalV2, (hpa) => {
        assert.deepEqual(hpaV1ToStorage(hpaToV1(hpa)), hpa);
      }),
    );
  });
  it('v1 → v2 → v1 keeps what a v1 client wrote, and is stable from then on', () => {
    const canonicalV1 = fc
      .record({
        target: fc.integer({ min: 1, max: 100 }),
        min: fc.integer({ min: 1, max: 5 }),
        extra: fc.integer({ min: 0, max: 5 }),
        label: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
      })
      .map(
        (r): KubeObject => ({
          kind: 'HorizontalPodAutoscaler',
          apiVersion: 'autoscaling/v1',
          metadata: {
            name: 'web',
            ...(r.label === undefined ? {} : { annotations: { note: r.label } }),
          },
          spec: {
            scaleTargetRef: ref,
            minReplicas: r.min,
            maxReplicas: r.min + r.extra,
            targetCPUUtilizationPercentage: r.target,
          },
          status: { currentReplicas: 0, desiredReplicas: 0 },
        }),
      );
    fc.assert(
      fc.property(canonicalV1, (hpa) => {
        const once = hpaToV1(hpaV1ToStorage(hpa));
        assert.deepEqual(once, hpa);
        assert.deepEqual(hpaToV1(hpaV1ToStorage(once)), once);
      }),
    );
  });
});

describe('autoscaling/v1 strategy', () => {
  it('defaults minReplicas and validates on the v2 form', () => {
    const obj: KubeObject = {
      metadata: { name: 'a' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'w' }, maxReplicas: 0 },
    };
    hpaV1Resource.strategy.defaults?.(obj);
    assert.equal((obj.spec as JsonObject).minReplicas, 1);
    const errors = hpaV1Resource.strategy.validate?.(obj) ?? [];
    assert.deepEqual(
      errors.map((e) => `${e.field}: ${e.detail}`),
      [
        'spec.maxReplicas: must be greater than 0',
        'spec.maxReplicas: must be greater than or equal to `minReplicas`',
      ],
    );
  });
});
