import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { clusterNowMs, countdownText, formatDuration, parseDuration } from './clock.js';
import type { ClockState } from './json.js';

const base: ClockState = {
  time: '2026-01-01T00:00:00.000Z',
  wallTime: 1000,
  speed: '1',
  paused: false,
  mode: 'virtual',
  state: 'Running',
};
const T0 = Date.parse(base.time);

describe('clusterNowMs', () => {
  const cases: [string, Partial<ClockState>, number, number][] = [
    ['runs at speed 1', {}, 3000, T0 + 2000],
    ['runs at speed 10', { speed: '10' }, 3000, T0 + 20_000],
    ['runs at half speed', { speed: '0.5' }, 3000, T0 + 1000],
    ['stands still while paused', { paused: true, state: 'Paused' }, 9000, T0],
    ['is not guessed at speed max', { speed: 'max' }, 9000, T0],
    ['never goes back for a wall clock behind the sample', {}, 0, T0],
  ];
  for (const [name, patch, wall, want] of cases) {
    it(name, () => assert.equal(clusterNowMs({ ...base, ...patch }, wall), want));
  }
});

describe('formatDuration and countdownText', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [1, '1s'],
    [12_000, '12s'],
    [252_000, '4m 12s'],
    [3_605_000, '1h 0m 5s'],
    [90_061_000, '1d 1h 1m'],
  ];
  for (const [ms, text] of cases)
    it(`${ms} ms → ${text}`, () => assert.equal(formatDuration(ms), text));
  it('counts down to the due time and then says it is due', () => {
    assert.equal(countdownText(T0 + 252_000, T0), 'replaced in 4m 12s');
    assert.equal(countdownText(T0, T0 + 1), 'replacement due now');
  });
});

describe('parseDuration', () => {
  const cases: [string, number | undefined][] = [
    ['5m', 300_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    [' 2m ', 120_000],
    ['', undefined],
    ['5', undefined],
    ['5 m', undefined],
    ['0s', undefined],
    ['-5m', undefined],
  ];
  for (const [text, ms] of cases)
    it(`${JSON.stringify(text)} → ${ms}`, () => assert.equal(parseDuration(text), ms));
  it('reads back what formatDuration writes for whole seconds under a day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 86_399 }), (s) => {
        assert.equal(parseDuration(formatDuration(s * 1000).replaceAll(' ', '')), s * 1000);
      }),
    );
  });
});
