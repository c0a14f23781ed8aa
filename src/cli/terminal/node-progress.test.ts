/**
 * The nodes' registration line: shown while nodes are missing, erased once all are there
 * or on stop; nothing at all when they are all there from the start. Time is a manual tick.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeTerminal } from './fake-terminal.js';
import { type Every, followNodeRegistration, nodeProgressState } from './node-progress.js';
import { ProgressLine } from './progress-line.js';

/** A scheduler ticked by hand; `running` says whether a timer is set. */
function manual(): { schedule: Every; tick(): void; running(): boolean } {
  let tick: (() => void) | undefined;
  return {
    schedule: (fn) => {
      tick = fn;
      return () => {
        tick = undefined;
      };
    },
    tick: () => tick?.(),
    running: () => tick !== undefined,
  };
}

describe('nodeProgressState', () => {
  const cases: [number, number, string | undefined][] = [
    [0, 250, '0/250'],
    [87, 250, '87/250'],
    [250, 250, undefined],
    [3, 0, undefined],
  ];
  for (const [registered, expected, want] of cases) {
    it(`${registered} of ${expected}: ${want ?? 'done'}`, () => {
      const state = nodeProgressState(registered, expected);
      assert.equal(state && `${state.done}/${state.total}`, want);
    });
  }
});

describe('followNodeRegistration', () => {
  it('follows the count and erases the line once every node is there', () => {
    const term = new FakeTerminal();
    const clock = manual();
    let registered = 0;
    followNodeRegistration(
      { expected: 4, registered: () => registered },
      new ProgressLine(term, false),
      clock.schedule,
    );
    assert.match(term.screen().join('\n'), /^registering nodes ▕░+▏ 0\/4$/);
    registered = 2;
    clock.tick();
    assert.match(term.screen().join('\n'), /^registering nodes ▕█{10}░{10}▏ 2\/4$/);
    registered = 4;
    clock.tick();
    assert.deepEqual(term.screen(), []);
    assert.equal(clock.running(), false);
  });

  it('stop (shutdown) erases it and ends the timer', () => {
    const term = new FakeTerminal();
    const clock = manual();
    const stop = followNodeRegistration(
      { expected: 4, registered: () => 1 },
      new ProgressLine(term, false),
      clock.schedule,
    );
    assert.equal(term.screen().length, 1);
    stop();
    stop();
    assert.deepEqual(term.screen(), []);
    assert.equal(clock.running(), false);
  });

  it('nothing when the nodes are all there already, or there are none', () => {
    for (const nodes of [
      { expected: 3, registered: () => 3 },
      { expected: 0, registered: () => 0 },
    ]) {
      const term = new FakeTerminal();
      const clock = manual();
      followNodeRegistration(nodes, new ProgressLine(term, false), clock.schedule);
      assert.deepEqual(term.screen(), []);
      assert.equal(clock.running(), false);
    }
  });
});
