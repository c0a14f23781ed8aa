/**
 * One HPA sync (`planSync`, then `rescaled`/`rescaleFailed`) against upstream `horizontal_test.go`
 * cases: the count written, the conditions' reasons, the events, and the status; then several
 * syncs in a row on a stepped clock (stabilization and `behavior` policies over time).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  HorizontalPodAutoscalerBehavior,
  AutoscalingV2HorizontalPodAutoscaler as Hpa,
  MetricSpec,
} from '../../api/model/index.js';
import type { BehaviorHistory } from './behavior.js';
import { planSync, type ScaleView, type SyncInput, type SyncPlan } from './plan.js';
import { rescaled, rescaleFailed } from './status-draft.js';
import { fixtureMetrics, fixturePods, NOW } from './testing/upstream-cases.js';

const EMPTY: BehaviorHistory = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] };
/** A recommendation older than any window: no stabilization, as upstream's empty test log. */
const STALE: BehaviorHistory = {
  ...EMPTY,
  recommendations: [{ replicas: 1, at: NOW - 3_600_000 }],
};
const OPTIONS = {
  tolerance: 0.1,
  downscaleStabilizationMs: 300_000,
  cpuInitializationPeriodMs: 300_000,
  delayOfInitialReadinessStatusMs: 30_000,
};

interface Case {
  readonly min?: number;
  readonly max: number;
  readonly spec: number;
  readonly cpuTarget?: number;
  readonly metrics?: MetricSpec[];
  readonly levels?: number[];
  readonly requests?: string[];
  readonly behavior?: HorizontalPodAutoscalerBehavior;
  readonly history?: BehaviorHistory;
  readonly scale?: Partial<ScaleView> | { error: string };
  readonly now?: number;
}

function hpaOf(c: Case): Hpa {
  const metrics: MetricSpec[] =
    c.metrics ??
    (c.cpuTarget === undefined
      ? []
      : [
          {
            type: 'Resource',
            resource: {
              name: 'cpu',
              target: { type: 'Utilization', averageUtilization: c.cpuTarget },
            },
          },
        ]);
  return {
    metadata: { name: 'test-hpa', namespace: 'test-namespace' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'test-deployment' },
      ...(c.min !== undefined ? { minReplicas: c.min } : {}),
      maxReplicas: c.max,
      metrics,
      ...(c.behavior !== undefined ? { behavior: c.behavior } : {}),
    },
    status: { currentReplicas: c.spec, desiredReplicas: c.spec },
  };
}

function inputOf(c: Case): SyncInput {
  const levels = c.levels ?? [];
  const requests = c.requests ?? levels.map(() => '1.0');
  // Upstream's pods request half the pod's request per container; usage is split the same way.
  const halves = requests.map((r) => `${Math.round(Number.parseFloat(r) * 500)}m`);
  const pods = fixturePods({ current: requests.length, requests: halves });
  const samples = fixtureMetrics(levels.map((l) => [l / 2, l / 2]));
  const scale =
    c.scale !== undefined && 'error' in c.scale
      ? { ok: false as const, error: c.scale.error }
      : {
          ok: true as const,
          scale: {
            specReplicas: c.spec,
            statusReplicas: c.spec,
            selector: 'name=test-pod',
            ...c.scale,
          },
        };
  return {
    hpa: hpaOf(c),
    now: c.now ?? NOW,
    scale,
    pods,
    otherSelectors: [],
    metrics: () =>
      samples.size === 0
        ? { ok: false, error: 'no metrics returned from resource metrics API' }
        : { ok: true, metrics: samples, timestampMs: NOW },
    history: c.history ?? STALE,
    options: OPTIONS,
  };
}

/** A sync whose `/scale` write succeeds (or fails with `failWith`). */
function sync(input: SyncInput, failWith?: string): SyncPlan {
  const plan = planSync(input);
  if (plan.rescale === undefined) return plan;
  return failWith === undefined
    ? rescaled(input, plan, plan.rescale)
    : rescaleFailed(input, plan, plan.rescale, failWith);
}

function reasons(plan: SyncPlan): Record<string, string> {
  return Object.fromEntries(
    (plan.status.conditions ?? []).map((c) => [c.type, `${c.status} ${c.reason}`]),
  );
}

const OK = {
  AbleToScale: 'True SucceededRescale',
  ScalingActive: 'True ValidMetricFound',
  ScalingLimited: 'False DesiredWithinRange',
};

describe('planSync: upstream horizontal_test.go cases', () => {
  it('TestScaleUp: 3 → 5, with the SuccessfulRescale event and the current metric', () => {
    const p = sync(inputOf({ min: 2, max: 6, spec: 3, cpuTarget: 30, levels: [300, 500, 700] }));
    assert.equal(p.status.desiredReplicas, 5);
    assert.deepEqual(reasons(p), OK);
    assert.deepEqual(p.events, [
      {
        type: 'Normal',
        reason: 'SuccessfulRescale',
        message:
          'New size: 5; reason: cpu resource utilization (percentage of request) above target',
      },
    ]);
    assert.deepEqual(p.status.currentMetrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: 50, averageValue: '500m' } },
      },
    ]);
    assert.equal(p.status.currentReplicas, 3);
    assert.equal(p.status.lastScaleTime, '2026-01-01T00:00:00Z');
  });

  it('TestScaleDown: 5 → 3 ("All metrics below target")', () => {
    const p = sync(
      inputOf({ min: 2, max: 6, spec: 5, cpuTarget: 50, levels: [100, 300, 500, 250, 250] }),
    );
    assert.equal(p.status.desiredReplicas, 3);
    assert.equal(p.events[0]?.message, 'New size: 3; reason: All metrics below target');
  });

  it('TestScaleDownStabilizeInitialSize: the first sync keeps the count (ScaleDownStabilized)', () => {
    const p = sync(
      inputOf({
        min: 2,
        max: 6,
        spec: 5,
        cpuTarget: 50,
        levels: [100, 300, 500, 250, 250],
        history: EMPTY,
      }),
    );
    assert.equal(p.rescale, undefined);
    assert.equal(p.status.desiredReplicas, 5);
    assert.equal(reasons(p).AbleToScale, 'True ScaleDownStabilized');
    assert.deepEqual(
      p.history.recommendations.map((r) => r.replicas),
      [5, 3],
    );
  });

  it('TestTolerance: within 10 % nothing is written but the status', () => {
    const p = sync(
      inputOf({
        min: 1,
        max: 5,
        spec: 3,
        cpuTarget: 100,
        levels: [1010, 1030, 1020],
        requests: ['0.9', '1.0', '1.1'],
      }),
    );
    assert.equal(p.rescale, undefined);
    assert.deepEqual(reasons(p), { ...OK, AbleToScale: 'True ReadyForNewScale' });
    assert.equal(p.events.length, 0);
  });

  it('TestMinReplicas / TestMaxReplicas: ScalingLimited with TooFewReplicas / TooManyReplicas', () => {
    const low = sync(inputOf({ min: 2, max: 5, spec: 3, cpuTarget: 90, levels: [10, 95, 10] }));
    assert.equal(low.status.desiredReplicas, 2);
    assert.equal(reasons(low).ScalingLimited, 'True TooFewReplicas');
    const high = sync(
      inputOf({ min: 2, max: 5, spec: 3, cpuTarget: 90, levels: [8000, 9500, 1000] }),
    );
    assert.equal(high.status.desiredReplicas, 5);
    assert.equal(reasons(high).ScalingLimited, 'True TooManyReplicas');
  });

  it('without behavior one sync at most doubles (ScaleUpLimit)', () => {
    const p = sync(
      inputOf({ min: 1, max: 100, spec: 3, cpuTarget: 10, levels: [1000, 1000, 1000] }),
    );
    assert.equal(p.status.desiredReplicas, 6);
    assert.equal(reasons(p).ScalingLimited, 'True ScaleUpLimit');
  });

  it('TestZeroReplicas: scaling disabled, nothing written', () => {
    const p = sync(inputOf({ min: 3, max: 5, spec: 0, cpuTarget: 90 }));
    assert.equal(p.rescale, undefined);
    assert.deepEqual(reasons(p), {
      AbleToScale: 'True SucceededGetScale',
      ScalingActive: 'False ScalingDisabled',
    });
    assert.equal(p.status.desiredReplicas, 0);
  });

  it('TestTooFewReplicas / TestTooManyReplicas: brought into [min, max] without metrics', () => {
    const few = sync(inputOf({ min: 3, max: 5, spec: 2, cpuTarget: 90 }));
    assert.equal(few.status.desiredReplicas, 3);
    assert.equal(
      few.events[0]?.message,
      'New size: 3; reason: Current number of replicas below Spec.MinReplicas',
    );
    const many = sync(inputOf({ min: 3, max: 5, spec: 10, cpuTarget: 90 }));
    assert.equal(many.status.desiredReplicas, 5);
    assert.equal(
      many.events[0]?.message,
      'New size: 5; reason: Current number of replicas above Spec.MaxReplicas',
    );
  });

  it('TestEmptyMetrics: FailedGetResourceMetric, FailedComputeMetricsReplicas, no write', () => {
    const p = sync(
      inputOf({ min: 2, max: 6, spec: 4, cpuTarget: 100, requests: ['1.0', '1.0', '1.0', '1.0'] }),
    );
    assert.equal(p.rescale, undefined);
    assert.deepEqual(reasons(p), {
      AbleToScale: 'True SucceededGetScale',
      ScalingActive: 'False FailedGetResourceMetric',
    });
    const inner =
      'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    assert.deepEqual(p.events, [
      { type: 'Warning', reason: 'FailedGetResourceMetric', message: inner },
      {
        type: 'Warning',
        reason: 'FailedComputeMetricsReplicas',
        message: `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}`,
      },
    ]);
    assert.equal(
      p.status.conditions?.find((c) => c.type === 'ScalingActive')?.message,
      `the HPA was unable to compute the replica count: ${inner}`,
    );
  });

  it('FailedGetScale: the condition and event carry the error', () => {
    const p = sync(
      inputOf({
        max: 6,
        spec: 3,
        cpuTarget: 50,
        scale: { error: 'deployments.apps "test-deployment" not found' },
      }),
    );
    assert.deepEqual(reasons(p), { AbleToScale: 'False FailedGetScale' });
    assert.deepEqual(p.events[0], {
      type: 'Warning',
      reason: 'FailedGetScale',
      message: 'deployments.apps "test-deployment" not found',
    });
  });

  it('InvalidSelector: a scale without a selector', () => {
    const p = sync(
      inputOf({ max: 6, spec: 3, cpuTarget: 50, levels: [1, 1, 1], scale: { selector: '' } }),
    );
    assert.equal(reasons(p).ScalingActive, 'False InvalidSelector');
    assert.equal(p.events[0]?.reason, 'SelectorRequired');
  });

  it('a failed /scale write: FailedUpdateScale, FailedRescale, the old desired count', () => {
    const p = sync(
      inputOf({ min: 2, max: 6, spec: 3, cpuTarget: 30, levels: [300, 500, 700] }),
      'conflict',
    );
    assert.equal(reasons(p).AbleToScale, 'False FailedUpdateScale');
    assert.equal(p.status.desiredReplicas, 3);
    assert.equal(
      p.events.at(-1)?.message,
      'New size: 5; reason: cpu resource utilization (percentage of request) above target; error: conflict',
    );
  });

  it('a metric type without a served API does not block a scale-up from the others', () => {
    const metrics: MetricSpec[] = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 30 } },
      },
      {
        type: 'Pods',
        pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
      },
    ];
    const p = sync(inputOf({ min: 2, max: 6, spec: 3, metrics, levels: [300, 500, 700] }));
    assert.equal(p.status.desiredReplicas, 5);
    assert.deepEqual(p.status.currentMetrics?.[1], { type: '' });
    assert.match(p.error ?? '', /^invalid metrics \(1 invalid out of 2\)/);
  });
});

describe('planSync over time', () => {
  it('scale-down waits for the 5-minute window, then follows the highest recent recommendation', () => {
    let history = EMPTY;
    let spec = 4;
    const at = (s: number, levels: number[]) => {
      const p = sync({
        ...inputOf({ min: 1, max: 10, spec, cpuTarget: 50, levels, now: NOW + s * 1000 }),
        history,
      });
      history = p.history;
      spec = p.status.desiredReplicas;
      return spec;
    };
    assert.equal(at(0, [1000, 1000, 1000, 1000]), 8); // 100 % of requests vs 50 %: doubles
    assert.equal(at(15, [100, 100, 100, 100, 100, 100, 100, 100]), 8); // stabilized at 8
    assert.equal(at(200, [100, 100, 100, 100, 100, 100, 100, 100]), 8);
    assert.equal(at(301, [100, 100, 100, 100, 100, 100, 100, 100]), 2); // the 8 left the window
  });

  it('behavior: Pods 1 per 60 s scales down one pod a minute', () => {
    const behavior = {
      scaleDown: {
        stabilizationWindowSeconds: 0,
        policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }],
      },
    };
    let history = EMPTY;
    let spec = 5;
    const counts: number[] = [];
    for (const s of [0, 15, 30, 61, 122]) {
      const p = sync({
        ...inputOf({
          min: 1,
          max: 10,
          spec,
          cpuTarget: 50,
          levels: Array.from({ length: spec }, () => 100),
          behavior,
          now: NOW + s * 1000,
        }),
        history,
      });
      history = p.history;
      spec = p.status.desiredReplicas;
      counts.push(spec);
    }
    assert.deepEqual(counts, [4, 4, 4, 3, 2]);
  });

  it('behavior tolerance (HPAConfigurableTolerance): 5 % above target scales up with a 1 % tolerance', () => {
    const behavior = { scaleUp: { tolerance: '0.01' } };
    const plain = sync(
      inputOf({ min: 1, max: 10, spec: 4, cpuTarget: 100, levels: [1050, 1050, 1050, 1050] }),
    );
    assert.equal(plain.status.desiredReplicas, 4);
    const tight = sync(
      inputOf({
        min: 1,
        max: 10,
        spec: 4,
        cpuTarget: 100,
        levels: [1050, 1050, 1050, 1050],
        behavior,
      }),
    );
    assert.equal(tight.status.desiredReplicas, 5);
  });
});
