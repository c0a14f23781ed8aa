/**
 * Missed-schedule arithmetic (upstream `mostRecentScheduleTime`): a table of upstream's cases
 * and a fast-check property that the shortcut (estimate the count from two consecutive times,
 * then walk from one interval before) finds the same most recent time as walking every time
 * from the last one, for regular, irregular and `@every` schedules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type CronSchedule, parseCronSchedule } from '../../api/kinds/batch-cronjob-schedule.js';
import { mostRecentScheduleTime, nextScheduleDelay, owedScheduleTime } from './missed.js';
import { nextTime } from './schedule.js';

const T = (iso: string): number => Date.parse(iso);
function schedule(expr: string): CronSchedule {
  const p = parseCronSchedule(expr);
  assert.ok(p.ok);
  return p.schedule;
}

describe('mostRecentScheduleTime', () => {
  const hourly = schedule('0 * * * *');
  const cases: ReadonlyArray<
    [string, string, string | undefined, string, string | undefined, string]
  > = [
    // name, creation, lastScheduleTime, now, most recent, missed
    [
      'nothing due yet',
      '2026-01-01T00:10:00Z',
      undefined,
      '2026-01-01T00:50:00Z',
      undefined,
      'none',
    ],
    [
      'one due',
      '2026-01-01T00:10:00Z',
      undefined,
      '2026-01-01T01:10:00Z',
      '2026-01-01T01:00:00Z',
      'none',
    ],
    [
      'five missed',
      '2026-01-01T00:10:00Z',
      '2026-01-01T01:00:00Z',
      '2026-01-01T06:30:00Z',
      '2026-01-01T06:00:00Z',
      'few',
    ],
    [
      'over a hundred',
      '2026-01-01T00:10:00Z',
      undefined,
      '2026-01-06T00:30:00Z',
      '2026-01-06T00:00:00Z',
      'many',
    ],
  ];
  for (const [name, created, last, now, want, missed] of cases) {
    it(name, () => {
      const r = mostRecentScheduleTime(
        { creationTime: T(created), ...(last === undefined ? {} : { lastScheduleTime: T(last) }) },
        T(now),
        hourly,
        true,
      );
      assert.equal(r.mostRecent, want === undefined ? undefined : T(want));
      assert.equal(r.missed, missed);
    });
  }

  it('the deadline moves the earliest time up', () => {
    const r = owedScheduleTime(
      { creationTime: T('2026-01-01T00:00:00Z'), startingDeadlineSeconds: 600 },
      T('2026-01-01T05:05:00Z'),
      hourly,
    );
    assert.deepEqual(r, { time: T('2026-01-01T05:00:00Z'), tooMany: false });
  });

  it('requeues 100 ms after the next time', () => {
    const wait = nextScheduleDelay(
      { creationTime: T('2026-01-01T00:00:00Z') },
      T('2026-01-01T00:20:00Z'),
      hourly,
    );
    assert.equal(wait, 40 * 60_000 + 100);
  });
});

/**
 * Upstream's shortcut estimates the count of missed times from the first two; for a schedule
 * whose gaps vary a lot (at :15 and :45 of every third hour: 30 min, then 2 h 30 min) it can
 * start past the real latest time and find none, and then runs nothing until the next time.
 * Kept as upstream.
 */
describe('mostRecentScheduleTime property', () => {
  const walk = (s: CronSchedule, last: number, now: number): number | undefined => {
    let walked: number | undefined;
    for (let t = nextTime(s, last); t <= now; t = nextTime(s, t)) walked = t;
    return walked;
  };
  const arbitraries = [
    fc.integer({ min: 0, max: 30 * 24 * 60 }),
    fc.integer({ min: 0, max: 3 * 24 * 60 }),
  ] as const;
  const run = (expr: string, startMinutes: number, spanMinutes: number) => {
    const s = schedule(expr);
    const last = T('2026-01-01T00:00:00Z') + startMinutes * 60_000 + 13_000;
    const now = last + spanMinutes * 60_000;
    const r = mostRecentScheduleTime({ creationTime: 0, lastScheduleTime: last }, now, s, false);
    return { found: r, walked: walk(s, last, now) };
  };

  it('equals walking every time from the last one, for evenly spaced schedules', () => {
    const even = ['*/10 * * * *', '0 0 * * *', '@every 47m', '0 */6 * * *'];
    fc.assert(
      fc.property(fc.constantFrom(...even), ...arbitraries, (expr, start, span) => {
        const { found, walked } = run(expr, start, span);
        assert.equal(found.mostRecent, walked);
      }),
      { numRuns: 150, seed: 3 },
    );
  });

  it('finds the walked time or, overshooting, none (never a wrong one) otherwise', () => {
    const uneven = ['*/7 * * * *', '30 6-16/4 * * 1-5', '15,45 */3 * * *'];
    fc.assert(
      fc.property(fc.constantFrom(...uneven), ...arbitraries, (expr, start, span) => {
        const { found, walked } = run(expr, start, span);
        if (found.mostRecent !== undefined) assert.equal(found.mostRecent, walked);
        else if (walked !== undefined) assert.notEqual(found.missed, 'none');
      }),
      { numRuns: 150, seed: 3 },
    );
  });

  it('the overshoot, as upstream', () => {
    const { found, walked } = run('15,45 */3 * * *', 0, 1695);
    assert.equal(walked, T('2026-01-02T03:45:00Z'));
    assert.equal(found.mostRecent, undefined);
  });
});
