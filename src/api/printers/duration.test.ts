/**
 * Ages at every boundary of upstream `HumanDuration` / `ShortHumanDuration` (values from
 * apimachinery's `duration_test.go`), and timestamp parsing.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  humanDuration,
  parseRfc3339,
  shortHumanDuration,
  translateTimestampSince,
} from './duration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

describe('humanDuration', () => {
  const cases: Array<[number, string]> = [
    [-2 * s, '<invalid>'],
    [-1999, '0s'], // -1.999 s truncates to -1: tolerated clock skew
    [-1 * s, '0s'],
    [0, '0s'],
    [1 * s, '1s'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [120 * s, '2m'],
    [121 * s, '2m1s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m, '10m'],
    [10 * m + 59 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 30 * m, '3h30m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h, '8h'],
    [47 * h + 59 * m, '47h'],
    [48 * h, '2d'],
    [48 * h + 5 * h, '2d5h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d, '8d'],
    [2 * y - d, '729d'],
    [2 * y, '2y'],
    [2 * y + 10 * d, '2y10d'],
    [8 * y - d, '7y364d'],
    [8 * y, '8y'],
    [100 * y, '100y'],
  ];
  for (const [ms, want] of cases)
    it(`${ms} ms → ${want}`, () => assert.equal(humanDuration(ms), want));

  it('never yields more than two units', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 * y }), (ms) => {
        assert.match(humanDuration(ms), /^\d+[smhdy](\d+[smhdy])?$/);
      }),
    );
  });
});

describe('shortHumanDuration', () => {
  const cases: Array<[number, string]> = [
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [59 * s, '59s'],
    [60 * s, '1m'],
    [59 * m, '59m'],
    [60 * m, '1h'],
    [23 * h, '23h'],
    [24 * h, '1d'],
    [364 * d, '364d'],
    [365 * d, '1y'],
  ];
  for (const [ms, want] of cases)
    it(`${ms} ms → ${want}`, () => assert.equal(shortHumanDuration(ms), want));
});

describe('parseRfc3339 and translateTimestampSince', () => {
  const now = new Date('2024-05-01T12:00:00Z');
  it('parses offsets and fractions', () => {
    assert.equal(parseRfc3339('2024-05-01T12:00:00Z'), now.getTime());
    assert.equal(parseRfc3339('2024-05-01T14:00:00+02:00'), now.getTime());
    assert.equal(parseRfc3339('2024-05-01T11:59:59.5Z'), now.getTime() - 500);
  });
  it('agrees with Date for every ISO timestamp of years 0000–9999', () => {
    const date = fc.date({
      min: new Date('0000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(fc.property(date, (d) => assert.equal(parseRfc3339(d.toISOString()), d.getTime())));
  });
  it('rejects what Go rejects', () => {
    for (const bad of [
      '2024-05-01',
      '2024-05-01 12:00:00Z',
      '2024-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-05-01T24:00:00Z',
      '2024-05-01T12:00:00.Z',
      '2024-05-01T12:00:00+2:00',
      '2024-05-01T12:00:00z',
      'x',
    ]) {
      assert.equal(parseRfc3339(bad), undefined, bad);
    }
  });
  it('renders <unknown> for unset and zero times', () => {
    for (const v of [undefined, null, '', '0001-01-01T00:00:00Z']) {
      assert.equal(translateTimestampSince(v, now), '<unknown>');
    }
    assert.equal(translateTimestampSince('2024-05-01T11:55:00Z', now), '5m');
  });
});
