/**
 * The normalization of proposals against upstream's `horizontal_test.go` tables
 * (`TestScalingWithRules`, `TestNormalizeDesiredReplicasWithBehavior`,
 * `TestNormalizeDesiredReplicas`, `TestStoreScaleEvents`, `TestConvertDesiredReplicasWithRules`),
 * the docs' worked example, and fast-check invariants: the result stays within [min, max] and a
 * scale-down never goes below the highest recommendation of its stabilization window.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { HPAScalingRules } from '../../api/model/index.js';
import {
  convertWithBehaviorRate,
  convertWithRules,
  type Recommendation,
  type ScaleEvent,
  scaleDownLimitWithRules,
  scaleDownRules,
  scaleUpLimitWithRules,
  scaleUpRules,
  stabilizeRecommendation,
  stabilizeWithBehaviors,
  storeScaleEvent,
} from './behavior.js';
import { numbers, tableRows } from './testing/upstream-cases.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const FIVE_MIN = 300_000;

/** Upstream `generateScalingRules(pods, podsPeriod, percent, percentPeriod, window)`. */
type RulesSpec = [number, number, number, number, number];
function rules([pods, podsPeriod, percent, percentPeriod, window]: RulesSpec): HPAScalingRules {
  const policies = [
    ...(pods !== 0 ? [{ type: 'Pods', value: pods, periodSeconds: podsPeriod }] : []),
    ...(percent !== 0 ? [{ type: 'Percent', value: percent, periodSeconds: percentPeriod }] : []),
  ];
  return { stabilizationWindowSeconds: window, selectPolicy: 'Max', policies };
}

/** Upstream `generateEventsUniformDistribution`: each event mid-segment of the last period. */
function events(changes: number[], periodSeconds: number): ScaleEvent[] {
  const segment = periodSeconds / changes.length;
  return changes.map((change, i) => ({
    change,
    at: NOW - Math.trunc(periodSeconds - segment * (i + 1) + segment / 2) * 1000,
    outdated: false,
  }));
}

/**
 * Upstream's cases: name | current | desired | min | max | scale-up rules | scale-down rules
 * (`pods,podsPeriod,percent,percentPeriod,window` as `generateScalingRules`; `-`: defaults) |
 * scale-up events | scale-down events (changes spread over the last 120 s) | want | reason.
 */
const RATE_CASES = tableRows(`
within range                       |5  |7   |3  |8   |-              |-               |-        |-        |7  |DesiredWithinRange
< minReplicas                      |3  |1   |2  |8   |-              |-               |-        |-        |2  |TooFewReplicas
within range, minReplicas 0        |1  |0   |0  |10  |-              |-               |-        |-        |0  |DesiredWithinRange
maxReplicas < scaleUpLimit         |20 |1000|1  |10  |-              |-               |-        |-        |10 |TooManyReplicas
more than the maximum              |100|1000|100|150 |-              |-               |-        |-        |150|TooManyReplicas
user scale-up policy limits        |3  |1000|1  |2000|0,0,1,60,0     |-               |-        |-        |4  |ScaleUpLimit
user scale-down policy limits      |1000|3  |3  |2000|-              |20,60,0,0,0     |-        |-        |980|ScaleDownLimit
scaleUp with default behavior      |10 |50  |1  |1000|-              |-               |-        |-        |20 |ScaleUpLimit
pods policy larger than percent    |10 |500 |1  |1000|100,60,100,60,0|-               |-        |-        |110|ScaleUpLimit
percent policy larger than pods    |10 |500 |1  |1000|2,60,100,60,0  |-               |-        |-        |20 |ScaleUpLimit
large pod policy                   |10 |50  |1  |1000|100,60,0,0,0   |-               |-        |-        |50 |DesiredWithinRange
pod policy limitation              |10 |50  |1  |1000|30,60,0,0,0    |-               |-        |-        |40 |ScaleUpLimit
percent policy limitation          |10 |50  |1  |1000|0,0,200,60,0   |-               |-        |-        |30 |ScaleUpLimit
down: percent larger than pods     |100|2   |1  |1000|-              |20,60,1,60,300  |-        |-        |80 |ScaleDownLimit
down: pods larger than percent     |100|2   |1  |1000|-              |2,60,1,60,300   |-        |-        |98 |ScaleDownLimit
down: min with large pod policy    |10 |0   |1  |1000|-              |100,60,0,0,300  |-        |-        |1  |TooFewReplicas
down: min with large percent policy|10 |2   |5  |1000|-              |0,0,100,60,300  |-        |-        |5  |TooFewReplicas
down: pod policy limitation        |10 |2   |1  |1000|-              |5,60,0,0,300    |-        |-        |5  |ScaleDownLimit
down: percent policy limitation    |10 |5   |1  |1000|-              |0,0,50,60,300   |-        |-        |5  |DesiredWithinRange
up: max, large pods, events        |100|500 |1  |200 |300,60,0,0,0   |-               |1,5,9    |-        |200|TooManyReplicas
up: max, large percent, events     |100|500 |1  |200 |0,0,10000,60,0 |-               |1,5,9    |-        |200|TooManyReplicas
up: many recent events             |100|500 |1  |1000|5,120,0,0,0    |-               |1,5,9    |-        |100|ScaleUpLimit
up: pods and previous events       |100|500 |1  |1000|150,120,0,0,0  |-               |1,5,9    |-        |235|ScaleUpLimit
up: percent and previous events    |100|500 |1  |1000|0,0,200,120,0  |-               |1,5,9    |-        |255|ScaleUpLimit
down: default and previous events  |10 |5   |1  |1000|-              |-               |-        |1,5,9    |5  |DesiredWithinRange
down: min, large pods, events      |100|0   |1  |1000|-              |115,120,0,0,300 |-        |1,5,9    |1  |TooFewReplicas
down: min 5, large pods, events    |100|0   |5  |1000|-              |130,120,0,0,300 |-        |1,5,9    |5  |TooFewReplicas
down: min 5, 100 %, events         |100|2   |5  |1000|-              |0,0,100,120,300 |-        |1,5,9    |5  |TooFewReplicas
down: pods and previous events     |100|2   |1  |1000|-              |5,120,0,0,300   |-        |1,5,9    |100|ScaleDownLimit
down: percent and previous events  |100|0   |1  |1000|-              |0,0,50,120,300  |-        |2,4,6    |56 |ScaleDownLimit
down: events prevent more          |100|0   |1  |1000|-              |0,0,10,120,300  |-        |10,10,10 |100|ScaleDownLimit
down: events still allow more      |10 |5   |1  |1000|-              |0,0,1000,120,300|-        |10,10,10 |5  |DesiredWithinRange
up: outdated events, one policy    |100|200 |1  |1000|1000,60,0,0,0  |-               |8,12,9,11|-        |200|DesiredWithinRange
up: events of two policies         |100|200 |1  |1000|1000,120,100,60,0|-             |8,12,9,11|-        |200|DesiredWithinRange
up: outdated for two policies      |100|200 |1  |1000|1000,30,100,60,0|-              |8,12,9,11|-        |200|DesiredWithinRange
down: outdated events, one policy  |100|5   |1  |1000|-              |1000,60,0,0,300 |-        |8,12,9,11|5  |DesiredWithinRange
down: events of two policies       |100|5   |1  |1000|-              |1000,120,100,60,300|-     |8,12,9,11|5  |DesiredWithinRange
down: outdated for two policies    |100|5   |1  |1000|-              |1000,30,100,60,300|-      |8,12,9,11|5  |DesiredWithinRange
`);

function rulesOf(cell: string | undefined): HPAScalingRules | undefined {
  const n = numbers(cell);
  return n.length === 5 ? rules(n as RulesSpec) : undefined;
}

describe('convertWithBehaviorRate: upstream TestScalingWithRules', () => {
  for (const [
    name = '',
    current,
    desired,
    min,
    max,
    up,
    down,
    upEv,
    downEv,
    want,
    why,
  ] of RATE_CASES) {
    it(name, () => {
      const args = {
        up: scaleUpRules(rulesOf(up)),
        down: scaleDownRules(rulesOf(down), FIVE_MIN),
        minReplicas: Number(min),
        maxReplicas: Number(max),
        currentReplicas: Number(current),
        desiredReplicas: Number(desired),
        now: NOW,
      };
      const got = convertWithBehaviorRate(
        args,
        events(numbers(upEv), 120),
        events(numbers(downEv), 120),
      );
      assert.deepEqual([got.replicas, got.reason], [Number(want), why]);
    });
  }

  it('Min select policy: the smallest change (TestCalculateScale{Up,Down}Limit…)', () => {
    const r = {
      stabilizationWindowSeconds: 300,
      selectPolicy: 'Min',
      policies: [
        { type: 'Pods', value: 2, periodSeconds: 60 },
        { type: 'Percent', value: 50, periodSeconds: 60 },
      ],
    };
    assert.equal(scaleUpLimitWithRules(1, [], [], r, NOW), 2);
    assert.equal(scaleDownLimitWithRules(5, [], [], r, NOW), 3);
    assert.equal(scaleUpLimitWithRules(7, [], [], { ...r, selectPolicy: 'Disabled' }, NOW), 7);
  });

  it("the docs' example: −10 % per minute from 80 removes 8, then 8 again (72 → 64)", () => {
    const down = scaleDownRules(
      { policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
      FIVE_MIN,
    );
    const args = {
      up: scaleUpRules(undefined),
      down,
      minReplicas: 1,
      maxReplicas: 100,
      now: NOW,
      desiredReplicas: 10,
    };
    assert.equal(convertWithBehaviorRate({ ...args, currentReplicas: 80 }, [], []).replicas, 72);
    // A minute later the first event left the period.
    const later = { ...args, currentReplicas: 72, now: NOW + 61_000 };
    const past = [{ change: 8, at: NOW, outdated: false }];
    assert.equal(convertWithBehaviorRate(later, [], past).replicas, 64);
    // Within the minute nothing more may go.
    assert.equal(convertWithBehaviorRate({ ...later, now: NOW + 30_000 }, [], past).replicas, 72);
  });
});

/** `4@2,5@1`: recommendations of 4 two minutes ago and 5 one minute ago. */
function recommendations(cell: string | undefined): Recommendation[] {
  if (cell === undefined || cell === '-') return [];
  return cell.split(',').map((r) => {
    const [replicas, minutes] = r.split('@').map(Number);
    return { replicas: replicas ?? 0, at: NOW - (minutes ?? 0) * 60_000 };
  });
}

/**
 * Upstream's cases: name | recommendations | current | desired | scale-up window s | scale-down
 * window s | want | the recommendations stored after (replicas).
 */
const STAB_CASES = tableRows(`
empty, scaling down                    |-                   |100|5  |0  |0  |5  |5
simple scale down stabilization        |4@2,5@1             |100|3  |0  |180|5  |4,5,3
simple scale up stabilization          |4@2,5@1             |1  |7  |300|0  |4  |4,5,7
no scale down stabilization            |1@2,2@1             |100|3  |300|0  |3  |1,2,3
no scale up stabilization              |4@2,5@1             |1  |3  |0  |300|3  |4,5,3
no scale down stabilization, reuse     |10@10,9@9           |100|3  |0  |0  |3  |10,3
no scale up stabilization, reuse       |10@10,9@9           |1  |100|0  |0  |100|10,100
scale down stabilization, reuse old    |10@10,4@1,5@2,9@9   |100|3  |0  |180|5  |10,4,5,3
scale up stabilization, reuse old      |10@100,6@1,5@2,9@3  |1  |100|300|0  |5  |100,6,5,9
`);

describe('stabilizeWithBehaviors: upstream TestNormalizeDesiredReplicasWithBehavior', () => {
  for (const [name = '', recs, current, desired, upWin, downWin, want, stored] of STAB_CASES) {
    it(name, () => {
      const args = {
        up: { ...scaleUpRules(undefined), stabilizationWindowSeconds: Number(upWin) },
        down: {
          ...scaleDownRules(undefined, FIVE_MIN),
          stabilizationWindowSeconds: Number(downWin),
        },
        minReplicas: 1,
        maxReplicas: 1000,
        currentReplicas: Number(current),
        desiredReplicas: Number(desired),
        now: NOW,
      };
      const s = stabilizeWithBehaviors(recommendations(recs), args);
      assert.equal(s.replicas, Number(want));
      assert.deepEqual(
        s.history.map((r) => r.replicas),
        numbers(stored),
      );
    });
  }
});

/** Upstream TestNormalizeDesiredReplicas: name | recommendations | desired | want | log length. */
const PLAIN_STAB_CASES = tableRows(`
empty log                          |-                |5|5|1
stabilize                          |4@2,5@1          |3|5|3
no stabilize                       |1@2,2@1          |3|3|3
no stabilize - old recommendations |10@10,9@9        |3|3|2
stabilize - old recommendations    |10@10,4@1,5@2,9@9|3|5|4
`);

describe('stabilizeRecommendation and convertWithRules (no behavior)', () => {
  for (const [name = '', recs, desired, want, length] of PLAIN_STAB_CASES) {
    it(name, () => {
      const s = stabilizeRecommendation(recommendations(recs), Number(desired), NOW, FIVE_MIN);
      assert.deepEqual([s.replicas, s.history.length], [Number(want), Number(length)]);
    });
  }

  it('TestConvertDesiredReplicasWithRules: min, max and the doubling limit', () => {
    const cases: [number, number, number, number, number, string][] = [
      [5, 7, 3, 8, 7, 'DesiredWithinRange'],
      [3, 1, 2, 8, 2, 'TooFewReplicas'],
      [1, 0, 0, 10, 0, 'DesiredWithinRange'],
      [20, 1000, 1, 10, 10, 'TooManyReplicas'],
      [3, 1000, 1, 2000, 6, 'ScaleUpLimit'],
      [1, 1000, 1, 2000, 4, 'ScaleUpLimit'],
    ];
    for (const [current, desired, min, max, want, why] of cases) {
      const c = convertWithRules(current, desired, min, max);
      assert.deepEqual([c.replicas, c.reason], [want, why]);
    }
  });
});

/**
 * Upstream TestStoreScaleEvents: name | previous events (`change@seconds ago`) | rules | changes
 * stored | their outdated flags (`0`/`1`), for a change of 5 up and down.
 */
const STORE_CASES = tableRows(`
no behavior: nothing stored        |-                   |-             |-      |-
empty, two policies                |-                   |10,60,100,60,0|5      |0
no behavior: outdated untouched    |7@61                |-             |7      |0
outdated entry replaced            |7@61                |10,60,100,60,0|5      |0
actual entry kept                  |7@58                |10,60,100,60,0|7,5    |0,0
two entries, one replaced          |7@61,6@59           |10,60,0,0,0   |5,6    |0,0
policies with different periods    |8@29,6@59,7@61,9@61 |10,60,100,30,0|8,6,7,5|0,0,1,0
two entries, both actual           |7@58,6@59           |10,120,100,30,0|7,6,5 |0,0,0
`);

describe('storeScaleEvent: upstream TestStoreScaleEvents', () => {
  for (const [name = '', prev, r, changes, outdated] of STORE_CASES) {
    it(name, () => {
      const before: ScaleEvent[] =
        prev === '-'
          ? []
          : (prev ?? '').split(',').map((e) => {
              const [change = 0, ago = 0] = e.split('@').map(Number);
              return { change, at: NOW - ago * 1000, outdated: false };
            });
      const rs = rulesOf(r);
      const empty = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] };
      const up = storeScaleEvent(
        rs && { scaleUp: rs },
        { ...empty, scaleUpEvents: before },
        10,
        15,
        NOW,
        FIVE_MIN,
      );
      const down = storeScaleEvent(
        rs && { scaleDown: rs },
        { ...empty, scaleDownEvents: before },
        10,
        5,
        NOW,
        FIVE_MIN,
      );
      for (const got of [up.scaleUpEvents, down.scaleDownEvents]) {
        assert.deepEqual(
          got.map((e) => e.change),
          numbers(changes),
        );
        assert.deepEqual(
          got.map((e) => (e.outdated ? 1 : 0)),
          numbers(outdated),
        );
      }
    });
  }
});

describe('behavior: invariants', () => {
  const recs = fc.array(
    fc.record({ replicas: fc.integer({ min: 0, max: 50 }), ago: fc.integer({ min: 0, max: 900 }) }),
    { maxLength: 10 },
  );
  const history = (rs: { replicas: number; ago: number }[]): Recommendation[] =>
    rs.map((r) => ({ replicas: r.replicas, at: NOW - r.ago * 1000 }));

  it('the normalized count stays within [min, max] (or at the current count when it is outside)', () => {
    fc.assert(
      fc.property(
        recs,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 10, max: 40 }),
        (rs, current, desired, min, max) => {
          fc.pre(current >= min && current <= max);
          const args = {
            up: scaleUpRules(undefined),
            down: scaleDownRules(undefined, FIVE_MIN),
            minReplicas: min,
            maxReplicas: max,
            currentReplicas: current,
            desiredReplicas: desired,
            now: NOW,
          };
          const s = stabilizeWithBehaviors(history(rs), args);
          const c = convertWithBehaviorRate({ ...args, desiredReplicas: s.replicas }, [], []);
          const plain = convertWithRules(
            current,
            stabilizeRecommendation(history(rs), desired, NOW, FIVE_MIN).replicas,
            min,
            max,
          );
          return (
            c.replicas >= min && c.replicas <= max && plain.replicas >= min && plain.replicas <= max
          );
        },
      ),
    );
  });

  it('a scale-down never goes below the highest recommendation of the last 5 minutes', () => {
    fc.assert(
      fc.property(
        recs,
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 50 }),
        (rs, current, desired) => {
          const h = history(rs);
          const args = {
            up: scaleUpRules(undefined),
            down: scaleDownRules(undefined, FIVE_MIN),
            minReplicas: 0,
            maxReplicas: 100,
            currentReplicas: current,
            desiredReplicas: desired,
            now: NOW,
          };
          const s = stabilizeWithBehaviors(h, args);
          const inWindow = (inclusive: boolean) =>
            h.filter((r) => (inclusive ? r.at >= NOW - FIVE_MIN : r.at > NOW - FIVE_MIN));
          const recent = (inclusive: boolean) =>
            Math.max(desired, ...inWindow(inclusive).map((r) => r.replicas));
          const plain = stabilizeRecommendation(h, desired, NOW, FIVE_MIN).replicas;
          // Going down, the count stops at the window's highest recommendation (upstream counts a
          // sample exactly at the cutoff in the window without behavior, outside it with one).
          return (s.replicas >= current || s.replicas >= recent(false)) && plain >= recent(true);
        },
      ),
    );
  });
});
