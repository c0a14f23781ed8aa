/**
 * Cron schedule evaluation against robfig/cron v3's documented behaviour: a table of worked
 * cases (descriptors, `@every`, `?`, names, `N/step`, day-of-month OR day-of-week, DST gaps and
 * overlaps, the five-year limit), then fast-check properties across zones and DST transitions:
 * the next time is later, its wall-clock fields match the schedule in the zone, and no absolute
 * minute in between matches (robfig walks absolute hours and minutes, so a brute-force scan over
 * absolute minutes finds the same first match, the skipped and repeated DST hours included).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { CronSpec } from '../../api/kinds/batch-cronjob-schedule.js';
import { parseCronSchedule } from '../../api/kinds/batch-cronjob-schedule.js';
import { cronJobSchedule, GO_ZERO_TIME, nextTime, offsetAt } from './schedule.js';

function runs(expr: string, zone: string, start: string, n: number): string[] {
  const p = parseCronSchedule(expr);
  assert.ok(p.ok, p.ok ? '' : p.error);
  const out: string[] = [];
  let t = Date.parse(start);
  for (let i = 0; i < n; i++) {
    t = nextTime(p.schedule, t, zone);
    out.push(new Date(t).toISOString().replace('.000Z', 'Z'));
  }
  return out;
}

describe('nextTime: robfig/cron v3 worked cases', () => {
  const cases: ReadonlyArray<[string, string, string, string, string[]]> = [
    [
      'every 10 minutes',
      '*/10 * * * *',
      'UTC',
      '2026-01-01T00:00:00Z',
      ['2026-01-01T00:10:00Z', '2026-01-01T00:20:00Z'],
    ],
    ['from mid-minute', '* * * * *', 'UTC', '2026-01-01T00:00:30.5Z', ['2026-01-01T00:01:00Z']],
    [
      'N/step is N-max/step',
      '5/15 * * * *',
      'UTC',
      '2026-01-01T00:00:00Z',
      [
        '2026-01-01T00:05:00Z',
        '2026-01-01T00:20:00Z',
        '2026-01-01T00:35:00Z',
        '2026-01-01T00:50:00Z',
      ],
    ],
    [
      'dom and dow both set: either',
      '0 0 1 * 1',
      'UTC',
      '2026-01-01T00:00:00Z',
      [
        '2026-01-05T00:00:00Z',
        '2026-01-12T00:00:00Z',
        '2026-01-19T00:00:00Z',
        '2026-01-26T00:00:00Z',
        '2026-02-01T00:00:00Z',
      ],
    ],
    [
      '*/2 is not a star: either',
      '0 0 */2 * 1',
      'UTC',
      '2026-01-01T00:00:00Z',
      ['2026-01-03T00:00:00Z', '2026-01-05T00:00:00Z'],
    ],
    [
      '? and day names',
      '0 0 ? * MON-FRI',
      'UTC',
      '2026-01-02T12:00:00Z',
      ['2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z'],
    ],
    [
      'month names',
      '0 12 1 jun,Dec *',
      'UTC',
      '2026-01-01T00:00:00Z',
      ['2026-06-01T12:00:00Z', '2026-12-01T12:00:00Z'],
    ],
    [
      '@hourly',
      '@hourly',
      'UTC',
      '2026-01-01T00:10:00Z',
      ['2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z'],
    ],
    [
      '@weekly is Sunday midnight',
      '@weekly',
      'UTC',
      '2026-01-01T00:00:00Z',
      ['2026-01-04T00:00:00Z'],
    ],
    ['@monthly', '@monthly', 'UTC', '2026-01-15T00:00:00Z', ['2026-02-01T00:00:00Z']],
    ['@yearly', '@annually', 'UTC', '2026-01-15T00:00:00Z', ['2027-01-01T00:00:00Z']],
    [
      '@every from the given time',
      '@every 1h30m',
      'UTC',
      '2026-01-01T00:10:20.7Z',
      ['2026-01-01T01:40:20Z', '2026-01-01T03:10:20Z'],
    ],
    [
      '@every under a second is one second',
      '@every 10ms',
      'UTC',
      '2026-01-01T00:00:00Z',
      ['2026-01-01T00:00:01Z'],
    ],
    [
      'a TZ= prefix wins over the default zone',
      'TZ=Asia/Tokyo 0 9 * * *',
      'UTC',
      '2026-01-01T00:00:00Z',
      ['2026-01-02T00:00:00Z'],
    ],
    ['leap day', '0 0 29 2 *', 'UTC', '2026-01-01T00:00:00Z', ['2028-02-29T00:00:00Z']],
    [
      'Berlin spring forward: 02:30 skipped',
      '30 2 * * *',
      'Europe/Berlin',
      '2026-03-28T12:00:00Z',
      ['2026-03-30T00:30:00Z', '2026-03-31T00:30:00Z'],
    ],
    [
      'Berlin spring forward: 03:30 kept',
      '30 3 * * *',
      'Europe/Berlin',
      '2026-03-28T12:00:00Z',
      ['2026-03-29T01:30:00Z'],
    ],
    [
      'Berlin fall back: 02:30 twice',
      '30 2 * * *',
      'Europe/Berlin',
      '2026-10-24T12:00:00Z',
      ['2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z', '2026-10-26T01:30:00Z'],
    ],
    [
      'New York fall back: 01:30 twice',
      '30 1 * * *',
      'America/New_York',
      '2026-10-31T12:00:00Z',
      ['2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z', '2026-11-02T06:30:00Z'],
    ],
    [
      'New York spring forward: hourly skips 02:00',
      '0 * * * *',
      'America/New_York',
      '2026-03-08T06:30:00Z',
      ['2026-03-08T07:00:00Z', '2026-03-08T08:00:00Z'],
    ],
    [
      'Sao Paulo: no midnight on 2018-11-04',
      '0 0 * * *',
      'America/Sao_Paulo',
      '2018-11-02T12:00:00Z',
      ['2018-11-03T03:00:00Z', '2018-11-05T02:00:00Z'],
    ],
    [
      'Kolkata half-hour offset',
      '0 9 * * *',
      'Asia/Kolkata',
      '2026-01-01T00:00:00Z',
      ['2026-01-01T03:30:00Z'],
    ],
  ];
  for (const [name, expr, zone, start, want] of cases) {
    it(name, () => assert.deepEqual(runs(expr, zone, start, want.length), want));
  }

  it('no time within five years is Go zero time', () => {
    const p = parseCronSchedule('0 0 30 2 *');
    assert.ok(p.ok);
    assert.equal(nextTime(p.schedule, Date.parse('2026-01-01T00:00:00Z')), GO_ZERO_TIME);
  });
});

describe('cronJobSchedule (upstream formatSchedule)', () => {
  it('timeZone becomes the zone; TZ in the schedule wins and is reported', () => {
    const withZone = cronJobSchedule({ schedule: '0 9 * * *', timeZone: 'Asia/Tokyo' });
    assert.ok('schedule' in withZone);
    assert.equal(withZone.schedule.location, 'Asia/Tokyo');
    assert.equal(withZone.usesTZ, false);
    const inline = cronJobSchedule({
      schedule: 'CRON_TZ=Europe/Berlin 0 9 * * *',
      timeZone: 'Asia/Tokyo',
    });
    assert.ok('schedule' in inline);
    assert.equal(inline.schedule.location, 'Europe/Berlin');
    assert.equal(inline.usesTZ, true);
  });

  it('reports an unknown zone and an unparseable schedule with upstream reasons', () => {
    assert.deepEqual(cronJobSchedule({ schedule: '* * * * *', timeZone: 'Mars/Olympus' }), {
      reason: 'UnknownTimeZone',
      message: 'invalid timeZone: "Mars/Olympus": unknown time zone Mars/Olympus',
    });
    assert.deepEqual(cronJobSchedule({ schedule: '61 * * * *' }), {
      reason: 'UnparseableSchedule',
      message: 'unparseable schedule: "61 * * * *" : end of range (61) above maximum (59): 61',
    });
  });
});

/** The schedule's match on an absolute instant's wall-clock fields in `zone`. */
function matchesAt(s: CronSpec, t: number, zone: string): boolean {
  const d = new Date(t + offsetAt(zone, t));
  const dom = s.dom.bits[d.getUTCDate()] === true;
  const dow = s.dow.bits[d.getUTCDay()] === true;
  const day = s.dom.star || s.dow.star ? dom && dow : dom || dow;
  return (
    d.getUTCSeconds() === 0 &&
    s.minute.bits[d.getUTCMinutes()] === true &&
    s.hour.bits[d.getUTCHours()] === true &&
    s.month.bits[d.getUTCMonth() + 1] === true &&
    day
  );
}

/**
 * Lord Howe's 30-minute DST shift is left out: there robfig's hour walk keeps the half hour
 * (the worked case above), so a brute-force scan finds an earlier time than robfig.
 */
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Tehran'];
/** Instants around the 2026 DST transitions of those zones, and ordinary ones. */
const ANCHORS = [
  '2026-03-29T00:00:00Z', // Berlin spring forward at 01:00Z
  '2026-10-25T00:00:00Z', // Berlin fall back at 01:00Z
  '2026-03-08T05:00:00Z', // New York spring forward at 07:00Z
  '2026-11-01T04:00:00Z', // New York fall back at 06:00Z
  '2026-06-15T12:34:56Z',
].map(Date.parse);

/** Five-field schedules that fire at least every few days, so a brute-force scan stays short. */
const frequentSchedule = fc
  .tuple(
    fc.constantFrom('*', '0', '30', '*/10', '5/15', '0,30,45', '10-20'),
    fc.constantFrom('*', '1', '2', '1-3', '*/2', '0,12', '?'),
    fc.constantFrom('*', '?', '1-31'),
    fc.constantFrom('*', '?'),
    fc.constantFrom('*', '?', '0', 'MON-FRI', 'sun,sat', '*/2'),
  )
  .map((f) => f.join(' '));

describe('nextTime properties across zones and DST transitions', () => {
  it('is later, matches in the zone, and no absolute minute in between matches', () => {
    fc.assert(
      fc.property(
        frequentSchedule,
        fc.constantFrom(...ZONES),
        fc.constantFrom(...ANCHORS),
        fc.integer({ min: -3 * 60, max: 3 * 60 }),
        (expr, zone, anchor, minutes) => {
          const parsed = parseCronSchedule(expr);
          if (!parsed.ok || parsed.schedule.kind !== 'spec') return false;
          const spec = parsed.schedule;
          const from = anchor + minutes * 60_000 + 17_000;
          const next = nextTime(spec, from, zone);
          assert.ok(next > from, `${expr} in ${zone} from ${new Date(from).toISOString()}`);
          assert.ok(matchesAt(spec, next, zone), `${new Date(next).toISOString()} does not match`);
          for (let t = Math.floor(from / 60_000) * 60_000 + 60_000; t < next; t += 60_000) {
            assert.ok(!matchesAt(spec, t, zone), `${new Date(t).toISOString()} was skipped`);
          }
          return true;
        },
      ),
      { numRuns: 60, seed: 17 },
    );
  });

  it('@every n is n seconds after the whole second', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 2 ** 41 }),
        (n, t) => {
          const p = parseCronSchedule(`@every ${n}s`);
          assert.ok(p.ok);
          assert.equal(nextTime(p.schedule, t), Math.floor(t / 1000) * 1000 + n * 1000);
        },
      ),
    );
  });
});
