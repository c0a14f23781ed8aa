/**
 * The replica calculator against upstream's `replica_calculator_test.go` cases (same pods,
 * samples and expectations; the case names are upstream's test names), plus fast-check
 * invariants: within tolerance nothing changes, and pods without a usable sample never push the
 * count past what the ready pods alone ask for.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatTime } from '../../api/time.js';
import {
  calculateRequests,
  groupPods,
  plainMetricReplicas,
  resourceReplicas,
} from './replica-calculator.js';
import {
  fixtureMetrics,
  fixturePods,
  levels,
  NOW,
  type PodFixture,
  parseTable,
  type TableRow,
  TEST_TIMING,
  TEST_TOLERANCES,
} from './testing/upstream-cases.js';

/**
 * Upstream's cases, one per line (`parseTable` says what the columns mean): name | current |
 * readiness | phases | deleting | starts | requests | levels | container | target utilization |
 * want (replicas, utilization, raw average) or `!error`.
 */
const R = (n: number) => Array.from({ length: n }, () => '1.0');

const RESOURCE_CASES = parseTable(`
DisjointResourcesMetrics         |1|-    |-      |-      |-    |1.0*1|100|-|100|!no metrics returned matched known pods
ScaleUp                          |3|-    |-      |-      |-    |1.0*3|300,500,700|-|30|5 50 1000
ContainerScaleUp                 |3|-    |-      |-      |-    |1.0*3|1000/300,1000/500,1000/700|container2|30|5 50 500
ScaleUpUnreadyLessScale          |3|FTT  |-      |-      |-    |1.0*3|300,500,700|-|30|4 60 1200
ScaleUpContainerHotCpuLessScale  |3|-    |-      |-      |hcc  |1.0*3|0/300,0/500,0/700|container2|30|4 60 600
ScaleUpHotCpuLessScale           |3|-    |-      |-      |hcc  |1.0*3|300,500,700|-|30|4 60 1200
ScaleUpUnreadyNoScale            |3|TFF  |-      |-      |-    |1.0*3|400,500,700|-|30|3 40 800
ScaleHotCpuNoScale               |3|TFF  |-      |-      |chh  |1.0*3|400,500,700|-|30|3 40 800
ScaleUpIgnoresFailedPods         |2|TTFF |RRFF   |-      |-    |1.0*4|500,700|-|30|4 60 1200
MissingContainerMetricScaleUpIgnoresFailedPods|2|TTFF|RRFF|-|-|1.0*4|1000/500,9000/700,=1000,=9000|container2|30|4 60 600
ScaleUpContainerIgnoresFailedPods|2|TTFF |RRFF   |-      |-    |1.0*4|1000/500,9000/700|container2|30|4 60 600
ScaleUpIgnoresDeletionPods       |2|TTFF |RRRR   |0011   |-    |1.0*4|500,700|-|30|4 60 1200
ScaleUpContainerIgnoresDeletionPods|2|TTFF|RRRR  |0011   |-    |1.0*4|500,700|container1|30|4 60 600
ScaleDown                        |5|-    |-      |-      |-    |1.0*5|100,300,500,250,250|-|50|3 28 560
ContainerScaleDown               |5|-    |-      |-      |-    |1.0*5|1000/100,1000/300,1000/500,1000/250,1000/250|container2|50|3 28 280
ScaleDownExcludeUnreadyPods      |5|TTTFF|-      |-      |-    |1.0*5|100,300,500,250,250|-|50|2 30 600
ScaleDownContainerExcludeUnreadyPods|5|TTTFF|-   |-      |-    |1.0*5|1000/100,1000/300,1000/500,1000/250,1000/250|container2|50|2 30 300
ScaleDownExcludeUnscheduledPods  |5|TFFFF|RPPPP  |-      |-    |1.0*5|100|-|50|1 10 200
ScaleDownContainerExcludeUnscheduledPods|5|TFFFF|RPPPP|-|-   |1.0*5|1000/100,1000/300,1000/500,1000/250,1000/250|container2|50|1 10 100
ScaleDownIgnoreHotCpuPods        |5|-    |-      |-      |ccchh|1.0*5|100,300,500,250,250|-|50|2 30 600
ScaleDownContainerIgnoreHotCpuPods|5|-   |-      |-      |ccchh|1.0*5|1000/100,1000/300,1000/500,1000/1000,1000/1000|container2|50|2 30 300
ScaleDownIgnoresFailedPods       |5|TTTTTFF|RRRRRFF|-    |-    |1.0*7|100,300,500,250,250|-|50|3 28 560
ScaleDownContainerIgnoresFailedPods|5|TTTTTFF|RRRRRFF|-  |-    |1.0*7|1000/100,1000/300,1000/500,1000/250,1000/250|container2|50|3 28 280
ScaleDownIgnoresDeletionPods     |5|TTTTTFF|RRRRRRR|0000011|-  |1.0*7|100,300,500,250,250|-|50|3 28 560
ScaleDownIgnoresDeletionPods_StillRunning|5|TTTTTFF|RRRRRRR|0000011|-|1.0*7|1000/100,1000/300,1000/500,1000/250,1000/250|container2|50|3 28 280
Tolerance                        |3|-    |-      |-      |-    |0.9,1.0,1.1|1010,1030,1020|-|100|3 102 2040
SuperfluousMetrics               |4|-    |-      |-      |-    |1.0*4|4000,9500,3000,7000,3200,2000|-|100|24 587 11750
MissingMetrics                   |4|-    |-      |-      |-    |1.0*4|400,95|-|100|3 24 495
EmptyCPURequest                  |1|-    |-      |-      |-    |-    |200|-|100|!missing request for
MissingMetricsNoChangeEq         |2|-    |-      |-      |-    |1.0*2|1000|-|100|2 100 2000
MissingMetricsNoChangeGt         |2|-    |-      |-      |-    |1.0*2|1900|-|100|2 190 3800
MissingMetricsNoChangeLt         |2|-    |-      |-      |-    |1.0*2|600|-|100|2 60 1200
MissingMetricsUnreadyChange      |3|FTT  |-      |-      |-    |1.0*3|100,450|-|50|3 45 900
MissingMetricsHotCpuNoChange     |3|-    |-      |-      |hcc  |1.0*3|100,450|-|50|3 45 900
MissingMetricsUnreadyScaleUp     |3|FTT  |-      |-      |-    |1.0*3|100,2000|-|50|4 200 4000
MissingMetricsHotCpuScaleUp      |3|FTT  |-      |-      |hcc  |1.0*3|100,2000|-|50|4 200 4000
MissingMetricsUnreadyScaleDown   |4|FTTT |-      |-      |-    |1.0*4|100,100,100|-|50|3 10 200
MissingMetricsScaleDownTargetOver100|4|FTTT|-    |-      |-    |1.0,1.0,2.0,2.0|200,100,100|-|300|2 6 200
DuringRollingUpdateWithMaxSurge  |2|-    |RRR    |-      |-    |1.0*3|100,100|-|50|2 10 200
`);

const DISJOINT_NAMES = ['an-older-pod-name'];

function runResource(c: TableRow) {
  const names = c.name === 'DisjointResourcesMetrics' ? DISJOINT_NAMES : [];
  return resourceReplicas(
    {
      currentReplicas: c.current,
      pods: fixturePods(c),
      metrics: fixtureMetrics(c.levels, c.container, names),
      resource: 'cpu',
      container: c.container,
      tolerances: TEST_TOLERANCES,
      timing: TEST_TIMING,
    },
    c.target,
  );
}

describe('resourceReplicas: upstream TestReplicaCalc* cases', () => {
  for (const c of RESOURCE_CASES) {
    it(c.name, () => {
      const r = runResource(c);
      if (typeof c.want === 'string') {
        assert.ok(!r.ok && r.error.startsWith(c.want), JSON.stringify(r));
        return;
      }
      const [replicas, utilization, rawUtilization] = c.want;
      assert.deepEqual(r, { ok: true, replicas, utilization, rawUtilization });
    });
  }

  it('ComputedToleranceAlgImplementation: just past the tolerance scales, just inside does not', () => {
    // 10 pods using 150m per container of ~300m requested: 50 % utilization.
    const perPod = 300;
    const deltas = [100, -100, 10, -10, 2, -2, 1, -1, 0, 0];
    const base: PodFixture = { current: 10, requests: deltas.map((d) => `${perPod + d}m`) };
    const metrics = fixtureMetrics(levels(...deltas.map(() => 150)));
    const run = (target: number) =>
      resourceReplicas(
        {
          currentReplicas: 10,
          pods: fixturePods(base),
          metrics,
          resource: 'cpu',
          container: '',
          tolerances: TEST_TOLERANCES,
          timing: TEST_TIMING,
        },
        target,
      );
    // int32((1/(2·0.9) + 0.01)·100) = 56 → ratio 50/56 breaches 0.9 → ⌈0.893·10⌉ = 9.
    assert.deepEqual(run(56), { ok: true, replicas: 9, utilization: 50, rawUtilization: 300 });
    // … + 0.004 → 55 → ratio 0.909 is within tolerance.
    assert.deepEqual(run(55), { ok: true, replicas: 10, utilization: 50, rawUtilization: 300 });
  });
});

/** Upstream's Pods-metric cases (AverageValue targets): want is replicas and usage. */
const PLAIN_CASES = parseTable(`
ScaleUpCM                                |3|-  |-  |-|-  |-|20000/0,10000/0,30000/0|-|15000|4 20000
ScaleUpCMUnreadyHotCpuNoLessScale        |3|TTF|-  |-|cch|-|50000/0,10000/0,30000/0|-|15000|6 30000
ScaleUpCMUnreadyHotCpuScaleWouldScaleDown|3|FTF|-  |-|hch|-|50000/0,15000/0,30000/0|-|15000|7 31666
ScaleDownCM                              |5|-  |-  |-|-  |-|12000/0,12000/0,12000/0,12000/0,12000/0|-|20000|3 12000
ToleranceCM                              |3|-  |-  |-|-  |-|20000/0,21000/0,21000/0|-|20000|3 20666
PlainMetricReplicaCalcMissingMetricsNoChangeEq|5|-|-|-|-|-|20000/0,19000/0,21000/0|-|20000|5 20000
DuringRollingUpdateWithMaxSurgeCM        |2|-  |RRR|-|-  |-|10000/0,10000/0|-|17000|2 10000
`);

describe('plainMetricReplicas: upstream TestReplicaCalc*CM cases', () => {
  for (const c of PLAIN_CASES) {
    it(c.name, () => {
      const input = {
        currentReplicas: c.current,
        pods: fixturePods(c),
        metrics: fixtureMetrics(c.levels),
        resource: 'qps',
        container: '',
        tolerances: TEST_TOLERANCES,
        timing: TEST_TIMING,
      };
      const [replicas, usage] = c.want;
      assert.deepEqual(plainMetricReplicas(input, c.target), { ok: true, replicas, usage });
    });
  }
});

describe("the docs' algorithm example (AverageValue 100m)", () => {
  // desiredReplicas = ceil(currentReplicas × currentMetricValue / desiredMetricValue)
  const cases: [string, number, number][] = [
    ['200m doubles', 100, 4],
    ['50m halves', 25, 1],
    ['104m is within the 0.1 tolerance', 52, 2],
  ];
  for (const [name, perContainer, want] of cases) {
    it(name, () => {
      const pods = fixturePods({ current: 2, requests: R(2), start: ['cool', 'cool'] });
      const metrics = fixtureMetrics(levels(perContainer, perContainer));
      const input = {
        currentReplicas: 2,
        pods,
        metrics,
        resource: 'cpu',
        container: '',
        tolerances: TEST_TOLERANCES,
        timing: TEST_TIMING,
      };
      const r = plainMetricReplicas(input, 100);
      assert.ok(r.ok && r.replicas === want, JSON.stringify(r));
    });
  }
});

describe('groupPods and calculateRequests: upstream TestGroupPods / TestCalculatePodRequests', () => {
  it('ignores deleted and Failed pods and unreadies Pending ones', () => {
    const pods = fixturePods({
      current: 4,
      requests: R(4),
      phase: ['Running', 'Pending', 'Failed', 'Running'],
      deleting: [false, false, false, true],
      start: ['cool', 'cool', 'cool', 'cool'],
    });
    const g = groupPods(pods, fixtureMetrics(levels(1, 1, 1, 1)), 'cpu', TEST_TIMING);
    assert.equal(g.readyPodCount, 1);
    assert.deepEqual([...g.unready], ['test-pod-1']);
    assert.deepEqual([...g.ignored].sort(), ['test-pod-2', 'test-pod-3']);
  });

  // [case, start, Ready's last transition, Ready status, sample window; all ago from now] → ready?
  const INIT: [string, number, number, string, number, boolean][] = [
    ['ready, fresh sample in the initialization period', 60, 30, 'True', 30, true],
    ['ready, sample older than a window after becoming ready', 60, 30, 'True', 60, false],
    ['unready in the initialization period', 600, 594, 'False', 60, false],
    ['unready after it, but was ready', 600, 540, 'False', 60, true],
    ['unready after it, changed exactly at the readiness delay', 600, 590, 'False', 60, true],
  ];
  for (const [name, start, transition, status, window, ready] of INIT) {
    it(`CPU: ${name}`, () => {
      const ago = (s: number) => formatTime(NOW - s * 1000);
      const pod = {
        metadata: { name: 'p' },
        status: {
          phase: 'Running',
          startTime: ago(start),
          conditions: [{ type: 'Ready', status, lastTransitionTime: ago(transition) }],
        },
      };
      const sample = { value: 1, timestampMs: NOW, windowMs: window * 1000 };
      const timing = { ...TEST_TIMING, cpuInitializationPeriodMs: 2 * 60_000 };
      const g = groupPods([pod], new Map([['p', sample]]), 'cpu', timing);
      assert.equal(g.readyPodCount, ready ? 1 : 0);
    });
  }

  it('a pod without a Ready condition is unready for CPU, ready for memory', () => {
    const [pod] = fixturePods({ current: 1, requests: R(1), start: ['cool'] });
    assert.ok(pod?.status);
    const bare = { ...pod, status: { ...pod.status, conditions: [] } };
    const metrics = fixtureMetrics(levels(1));
    assert.equal(groupPods([bare], metrics, 'cpu', TEST_TIMING).unready.size, 1);
    assert.equal(groupPods([bare], metrics, 'memory', TEST_TIMING).readyPodCount, 1);
  });

  it('sums containers and restartable init containers, or one container', () => {
    const pod = {
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'c1', resources: { requests: { cpu: '100m' } } },
          { name: 'c2', resources: { requests: { cpu: '50m' } } },
        ],
        initContainers: [
          { name: 'init', resources: { requests: { cpu: '20m' } } },
          { name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '50m' } } },
        ],
      },
    };
    assert.deepEqual(calculateRequests([pod], '', 'cpu'), {
      ok: true,
      requests: new Map([['p', 200]]),
    });
    assert.deepEqual(calculateRequests([pod], 'c1', 'cpu'), {
      ok: true,
      requests: new Map([['p', 100]]),
    });
    assert.deepEqual(calculateRequests([pod], 'nope', 'cpu'), {
      ok: false,
      error: 'container nope not found in Pod p',
    });
    const bare = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c1' }] } };
    assert.deepEqual(calculateRequests([bare], '', 'cpu'), {
      ok: false,
      error: 'missing request for cpu in container c1 of Pod p',
    });
  });
});

function row(current: number, requests: number, perPod: number[], target: number): TableRow {
  const reqs = Array.from({ length: requests }, () => '1.0');
  return {
    name: 'p',
    current,
    requests: reqs,
    levels: levels(...perPod),
    container: '',
    target,
    want: [],
  };
}

describe('resourceReplicas: invariants', () => {
  const usage = fc.array(fc.integer({ min: 0, max: 4000 }), { minLength: 1, maxLength: 12 });

  it('a ratio within tolerance never changes the count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 90, max: 110 }), (n, pct) => {
        // Two containers of pct·5 m each on 2 cores requested: pct/2 % against a 50 % target.
        const r = runResource(
          row(
            n,
            n,
            Array.from({ length: n }, () => pct * 5),
            50,
          ),
        );
        return r.ok && r.replicas === n;
      }),
    );
  });

  it('pods without a sample never turn the count against the measured usage', () => {
    fc.assert(
      fc.property(
        usage,
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 10, max: 200 }),
        (sampled, extra, target) => {
          const n = sampled.length + extra;
          const r = runResource(row(n, n, sampled, target));
          if (!r.ok) return true;
          const ratio = r.utilization / target;
          if (ratio > 1) return r.replicas >= n;
          if (ratio < 1) return r.replicas <= n;
          return r.replicas === n;
        },
      ),
    );
  });
});
