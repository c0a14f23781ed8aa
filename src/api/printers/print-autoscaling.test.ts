import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { formatHpaMetrics, printHorizontalPodAutoscaler } from './print-autoscaling.js';
import { printReplicationController } from './print-replicationcontroller.js';

const now = new Date('2026-01-01T00:10:00Z');
const cpu = (target: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } },
});

describe('formatHPAMetrics (upstream printers.go)', () => {
  const cases: Array<[string, Record<string, unknown>[], Record<string, unknown>[], string]> = [
    ['no metrics', [], [], '<none>'],
    ['a CPU target before the first measurement', [cpu(80)], [], 'cpu: <unknown>/80%'],
    [
      'a measured CPU target',
      [cpu(80)],
      [
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 50 } },
        },
      ],
      'cpu: 50%/80%',
    ],
    [
      'a raw resource value',
      [
        {
          type: 'Resource',
          resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } },
        },
      ],
      [],
      'memory: <unknown>/1Gi',
    ],
    [
      'pods and an average object metric',
      [
        {
          type: 'Pods',
          pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
        },
        {
          type: 'Object',
          object: { metric: { name: 'hits' }, target: { type: 'AverageValue', averageValue: '5' } },
        },
      ],
      [],
      '<unknown>/10, <unknown>/5 (avg)',
    ],
    [
      'more than two',
      [cpu(10), cpu(20), cpu(30), cpu(40)],
      [],
      'cpu: <unknown>/10%, cpu: <unknown>/20% + 2 more...',
    ],
  ];
  for (const [name, specs, statuses, want] of cases) {
    it(name, () => assert.equal(formatHpaMetrics(specs, statuses), want));
  }
});

describe('printHorizontalPodAutoscaler', () => {
  it('prints v1 and v2 objects alike', () => {
    const meta = { name: 'web', creationTimestamp: '2026-01-01T00:00:00Z' };
    const target = { kind: 'Deployment', name: 'web' };
    const v2: KubeObject = {
      apiVersion: 'autoscaling/v2',
      metadata: meta,
      spec: { scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, metrics: [cpu(50)] },
      status: { currentReplicas: 2, desiredReplicas: 2 },
    };
    const v1: KubeObject = {
      apiVersion: 'autoscaling/v1',
      metadata: meta,
      spec: {
        scaleTargetRef: target,
        minReplicas: 1,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 50,
      },
      status: { currentReplicas: 2, desiredReplicas: 2 },
    };
    const want = ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', 5, 2, '10m'];
    assert.deepEqual(printHorizontalPodAutoscaler(v2, now).cells, want);
    assert.deepEqual(printHorizontalPodAutoscaler(v1, now).cells, want);
  });
});

describe('printReplicationController', () => {
  it('prints desired, current, ready and the wide columns', () => {
    const rc: KubeObject = {
      metadata: { name: 'legacy', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        replicas: 3,
        selector: { app: 'legacy', tier: 'web' },
        template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
      },
      status: { replicas: 2, readyReplicas: 1 },
    };
    assert.deepEqual(printReplicationController(rc, now).cells, [
      'legacy',
      3,
      2,
      1,
      '10m',
      'web',
      'nginx:1.27',
      'app=legacy,tier=web',
    ]);
  });
});
