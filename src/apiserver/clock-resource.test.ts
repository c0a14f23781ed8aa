import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseSpeed } from '../util/clock-control.js';
import {
  applyClockSpec,
  type ClockSpec,
  clockObject,
  dryRunStatus,
  formatSpeed,
  readClockSpec,
  serveClock,
  specProblems,
} from './clock-resource.js';
import { FakeClockControl } from './testing/fake-clock-control.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('readClockSpec', () => {
  const ok: [string, unknown, ClockSpec][] = [
    ['a string speed', { speed: '2' }, { speed: 2, paused: false, runUntil: undefined }],
    ['max', { speed: 'max', paused: true }, { speed: 'max', paused: true, runUntil: undefined }],
    ['a number speed', { speed: 0.25 }, { speed: 0.25, paused: false, runUntil: undefined }],
    [
      'a run-until with an offset',
      { speed: '1', runUntil: '2026-01-01T02:00:00+01:00' },
      { speed: 1, paused: false, runUntil: T0 + 3_600_000 },
    ],
    [
      'an empty run-until',
      { speed: '1', runUntil: '' },
      { speed: 1, paused: false, runUntil: undefined },
    ],
    [
      'a null run-until',
      { speed: '1', runUntil: null },
      { speed: 1, paused: false, runUntil: undefined },
    ],
  ];
  for (const [name, spec, want] of ok) {
    it(`reads ${name}`, () => assert.deepEqual(readClockSpec(spec), { spec: want, errors: [] }));
  }

  const bad: [string, unknown, string[]][] = [
    ['no spec', undefined, ['spec.speed']],
    ['a spec that is no object', 'fast', ['spec']],
    ['speed and paused both bad', { speed: 'x', paused: 1 }, ['spec.speed', 'spec.paused']],
    ['an infinite speed', { speed: 'Infinity' }, ['spec.speed']],
    ['a date without a zone', { speed: '1', runUntil: '2026-01-01T00:00:00' }, ['spec.runUntil']],
    ['a numeric run-until', { speed: '1', runUntil: 5 }, ['spec.runUntil']],
  ];
  for (const [name, spec, fields] of bad) {
    it(`reports ${name}`, () => {
      const r = readClockSpec(spec);
      assert.equal(r.spec, undefined);
      assert.deepEqual(
        r.errors.map((e) => e.field),
        fields,
      );
    });
  }

  it('reads back every speed it writes', () => {
    const speed = fc.oneof(
      fc.constant('max' as const),
      fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }),
    );
    fc.assert(
      fc.property(speed, (s) => {
        assert.equal(parseSpeed(formatSpeed(s)), s);
        assert.equal(readClockSpec({ speed: formatSpeed(s) }).spec?.speed, s);
      }),
    );
  });
});

describe('specProblems', () => {
  const status = new FakeClockControl({ now: T0 }).status();
  it('takes a target at or after the clock time, and a running one unchanged', () => {
    assert.deepEqual(specProblems({ speed: 1, paused: false, runUntil: T0 }, status), []);
    const advancing = { ...status, state: 'Advancing' as const, runUntil: T0 - 1 };
    assert.deepEqual(specProblems({ speed: 1, paused: false, runUntil: T0 - 1 }, advancing), []);
  });

  it('names each field a real clock would have to change', () => {
    const real = { ...status, mode: 'real' as const };
    const errors = specProblems({ speed: 2, paused: true, runUntil: undefined }, real);
    assert.deepEqual(
      errors.map((e) => [e.type, e.field]),
      [
        ['FieldValueForbidden', 'spec.speed'],
        ['FieldValueForbidden', 'spec.paused'],
      ],
    );
  });
});

describe('applyClockSpec', () => {
  it('leaves alone what did not change (a real clock throws on any setter)', () => {
    const real = new FakeClockControl({ now: T0, mode: 'real' });
    applyClockSpec(real, { speed: 1, paused: false, runUntil: undefined }, (e) => {
      throw e;
    });
    assert.deepEqual([real.speed, real.paused, real.target], [1, false, undefined]);
  });

  it('sets what changed; a run-until that fails goes to onError, not unhandled', async () => {
    const control = new FakeClockControl({ now: T0, speed: 2 });
    const failure = new Error('stopped');
    control.runUntil = () => Promise.reject(failure);
    const errors: unknown[] = [];
    applyClockSpec(control, { speed: 'max', paused: true, runUntil: T0 + 1 }, (e) =>
      errors.push(e),
    );
    assert.deepEqual([control.speed, control.paused], ['max', true]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(errors, [failure]);
  });
});

describe('clockObject', () => {
  it('shows a run-until only while it is ahead, and the dry-run state', () => {
    const control = new FakeClockControl({ now: T0 });
    const served = serveClock(control);
    const spec: ClockSpec = { speed: 'max', paused: false, runUntil: T0 + 60_000 };
    const dry = clockObject(served, dryRunStatus(spec, control.status()));
    assert.deepEqual(dry.spec, {
      speed: 'max',
      paused: false,
      runUntil: '2026-01-01T00:01:00.000Z',
    });
    assert.equal((dry.status as { state: string }).state, 'Advancing');
    const stopped = dryRunStatus(
      { speed: 0, paused: false, runUntil: undefined },
      control.status(),
    );
    assert.equal(stopped.state, 'Paused');
    assert.deepEqual(clockObject(served).spec, { speed: '1', paused: false });
  });
});
