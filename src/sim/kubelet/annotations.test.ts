import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_FAILING_IMAGE,
  formatGoDuration,
  parseGoDuration,
  readSimSettings,
} from './annotations.js';
import { makePod } from './testing/pods.js';

describe('parseGoDuration', () => {
  const cases: [string, number | undefined][] = [
    ['0', 0],
    ['2s', 2000],
    ['500ms', 500],
    ['1m30s', 90_000],
    ['1.5h', 5_400_000],
    ['', undefined],
    ['2', undefined],
    ['-1s', undefined],
    ['2 s', undefined],
    ['1d', undefined],
  ];
  for (const [text, want] of cases)
    it(JSON.stringify(text), () => assert.equal(parseGoDuration(text), want));
});

describe('formatGoDuration', () => {
  const cases: [number, string][] = [
    [10_000, '10s'],
    [40_000, '40s'],
    [80_000, '1m20s'],
    [160_000, '2m40s'],
    [300_000, '5m0s'],
  ];
  for (const [ms, want] of cases) it(want, () => assert.equal(formatGoDuration(ms), want));
});

describe('readSimSettings', () => {
  it('defaults', () => {
    const s = readSimSettings(makePod());
    assert.deepEqual(
      { ...s, exitCodeByName: [...s.exitCodeByName] },
      { startDelayMs: 0, readyDelayMs: 0, readyAllowed: true, exitAfterMs: 0, exitCodeByName: [] },
    );
  });
  it('reads every annotation', () => {
    const s = readSimSettings(
      makePod({
        annotations: {
          'sim.fleetyard.dev/start-delay': '2s',
          'sim.fleetyard.dev/ready-delay': '1m',
          'sim.fleetyard.dev/ready': 'false',
          'sim.fleetyard.dev/exit-code': '3',
          'sim.fleetyard.dev/exit-after': '5s',
        },
      }),
    );
    assert.equal(s.startDelayMs, 2000);
    assert.equal(s.readyDelayMs, 60_000);
    assert.equal(s.readyAllowed, false);
    assert.equal(s.exitCode, 3);
    assert.equal(s.exitAfterMs, 5000);
  });
  it('per-name exit codes, bad entries dropped; bad durations → default', () => {
    const s = readSimSettings(
      makePod({
        annotations: {
          'sim.fleetyard.dev/exit-code': 'app=1,side=x,init=0',
          'sim.fleetyard.dev/start-delay': 'soon',
        },
      }),
    );
    assert.deepEqual(
      [...s.exitCodeByName],
      [
        ['app', 1],
        ['init', 0],
      ],
    );
    assert.equal(s.exitCode, undefined);
    assert.equal(s.startDelayMs, 0);
  });
});

describe('DEFAULT_FAILING_IMAGE', () => {
  const digest = 'a'.repeat(64);
  const cases: [string, boolean][] = [
    ['nginx:nonexistent', true],
    ['registry.example/app:404', true],
    [`registry.example/nonexistent@sha256:${digest}`, true],
    [`registry.example/app@sha256:${digest}`, false],
    [`registry.example/nonexistent-app@sha256:${digest}`, false],
    ['nginx:1.27', false],
  ];
  for (const [image, fails] of cases) {
    it(`${image} ${fails ? 'fails' : 'pulls'}`, () => {
      assert.equal(DEFAULT_FAILING_IMAGE.test(image), fails);
    });
  }
});
