/** The scenario progress line's state as a run's records arrive. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunRecord } from '../../sim/scenario/records.js';
import type { ScenarioResult } from '../../sim/scenario/results.js';
import type { Invariant, Scenario, Step } from '../../sim/scenario/types.js';
import { FakeTerminal } from './fake-terminal.js';
import { ProgressLine } from './progress-line.js';
import { elapsed, ScenarioProgress } from './scenario-progress.js';

const T0 = Date.UTC(2026, 0, 1);
const step: Step = {
  index: 1,
  title: 'advance 1m',
  action: { action: 'advance', durationMs: 60_000 },
};
const invariant: Invariant = {
  name: 'three nodes',
  target: { kind: 'Node' },
  rule: { form: 'count', count: { equals: 3 } },
  text: 'count equals 3',
};
const scenario: Scenario = {
  name: 'heal',
  file: 'heal.yaml',
  cluster: {},
  watch: [],
  invariants: [invariant],
  steps: [step, { ...step, index: 2 }, { ...step, index: 3 }],
};
const result: ScenarioResult = {
  name: 'heal',
  file: 'heal.yaml',
  passed: true,
  steps: [],
  invariants: [],
  startTime: T0,
  virtualMs: 0,
  wallMs: 0,
};
const stepEnd = (time: number): RunRecord => ({
  type: 'step-end',
  time,
  result: { step, status: 'passed', startedAt: 0, virtualMs: 0, wallMs: 0 },
});
const violation = (time: number): RunRecord => ({
  type: 'violation',
  violation: { invariant, time, message: 'count is 2, want 3', error: false },
});

describe('ScenarioProgress', () => {
  it('file, steps done, virtual time and violations, record by record', () => {
    const p = new ScenarioProgress(2);
    assert.equal(p.state(), undefined);
    p.startFile('heal', 3);
    assert.deepEqual(p.state(), {
      label: 'scenario 1/2 heal',
      done: 0,
      total: 3,
      detail: 'starting',
    });
    const records: [RunRecord, string, number][] = [
      [{ type: 'scenario-start', scenario, startTime: T0 }, 't+0s', 0],
      [{ type: 'step-start', step, time: T0 }, 't+0s', 0],
      [stepEnd(T0 + 60_000), 't+1m0s', 1],
      [violation(T0 + 90_000), 't+1m30s, 1 violation', 1],
      [stepEnd(T0 + 3_723_000), 't+1h2m3s, 1 violation', 2],
    ];
    for (const [record, detail, done] of records) {
      p.record(record);
      assert.deepEqual(p.state(), { label: 'scenario 1/2 heal', done, total: 3, detail });
    }
    p.record({ type: 'scenario-end', result });
    assert.equal(p.state()?.done, 3);
    p.startFile('second', 5);
    assert.deepEqual(p.state(), {
      label: 'scenario 2/2 second',
      done: 0,
      total: 5,
      detail: 'starting',
    });
  });

  it('one file: no file count', () => {
    const p = new ScenarioProgress(1);
    p.startFile('only', 1);
    assert.equal(p.state()?.label, 'scenario only');
  });

  it('draws each state on its line', () => {
    const term = new FakeTerminal();
    const p = new ScenarioProgress(1, new ProgressLine(term, false));
    p.startFile('heal', 3);
    p.record({ type: 'scenario-start', scenario, startTime: T0 });
    p.record(stepEnd(T0 + 5_000));
    assert.deepEqual(term.screen(), ['scenario heal ▕██████░░░░░░░░░░░░░░▏ 1/3 t+5s']);
  });
});

describe('elapsed', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [999, '0s'],
    [59_000, '59s'],
    [60_000, '1m0s'],
    [3_600_000, '1h0m0s'],
    [90_061_000, '25h1m1s'],
  ];
  for (const [ms, want] of cases) it(`${ms} ms: ${want}`, () => assert.equal(elapsed(ms), want));
});
