import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import { VirtualClock } from './virtual-clock.js';

const START = Date.UTC(2026, 0, 1);

describe('VirtualClock (one thread)', () => {
  it('paused: time stands, timers already due still fire', async () => {
    const clock = new VirtualClock({ start: START, paused: true, speed: 1 });
    let fired = 0;
    clock.setTimer(0, () => fired++);
    clock.setTimer(1000, () => fired++);
    for (let i = 0; i < 5; i++) await nextTurn();
    assert.equal(fired, 1);
    assert.equal(clock.now(), START);
    assert.equal(clock.status().state, 'Paused');
    clock.stop();
  });

  it('speed max: every timer fires at exactly its time, in order, and time ends at the last', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 30 }),
        async (delays) => {
          const clock = new VirtualClock({ start: START, speed: 'max' });
          const fired: { at: number; now: number }[] = [];
          for (const d of delays)
            clock.setTimer(d, () => fired.push({ at: START + d, now: clock.now() }));
          await clock.runUntil(START + 100_000);
          assert.equal(fired.length, delays.length);
          for (const f of fired) assert.equal(f.now, f.at);
          assert.deepEqual(
            fired.map((f) => f.at),
            [...fired.map((f) => f.at)].sort((a, b) => a - b),
          );
          clock.stop();
        },
      ),
      { numRuns: 30 },
    );
  });

  it('does not jump while a hold is open, and jumps once it is released', async () => {
    const clock = new VirtualClock({ start: START, speed: 'max' });
    let fired = false;
    clock.setTimer(60_000, () => {
      fired = true;
    });
    const release = clock.hold();
    for (let i = 0; i < 20; i++) await nextTurn();
    assert.equal(clock.now(), START);
    assert.equal(fired, false);
    assert.equal(clock.status().quiescent, false);
    release();
    await clock.runUntil(START + 60_000);
    assert.equal(fired, true);
    assert.equal(clock.now(), START + 60_000);
    clock.stop();
  });

  it("a timer's work runs at that time: a timer set by a timer fires after it, never before", async () => {
    const clock = new VirtualClock({ start: START, speed: 0 });
    const seen: number[] = [];
    clock.setTimer(10_000, () => {
      const release = clock.hold();
      seen.push(clock.now());
      // Work that takes wall time but no virtual time; the next timer waits for it.
      setTimeout(() => {
        seen.push(clock.now());
        clock.setTimer(5_000, () => seen.push(clock.now()));
        release();
      }, 20);
    });
    clock.setTimer(12_000, () => seen.push(clock.now()));
    await clock.runUntil(START + 20_000);
    assert.deepEqual(seen, [START + 10_000, START + 10_000, START + 12_000, START + 15_000]);
    assert.equal(clock.now(), START + 20_000);
    clock.stop();
  });

  it('runUntil stops at its target, leaves later timers, and returns to the base speed', async () => {
    const clock = new VirtualClock({ start: START, speed: 0 });
    const fired: number[] = [];
    for (const d of [1_000, 5_000, 9_000]) clock.setTimer(d, () => fired.push(d));
    await clock.runUntil(START + 5_000);
    assert.deepEqual(fired, [1_000, 5_000]);
    assert.equal(clock.now(), START + 5_000);
    const status = clock.status();
    assert.equal(status.state, 'Paused');
    assert.equal(status.pendingTimers, 1);
    assert.equal(status.nextTimer, START + 9_000);
    assert.equal(status.quiescent, true);
    clock.stop();
  });

  it('paced: speed N runs time N times the wall clock (timers fire at or after their time)', async () => {
    let wall = 0;
    const clock = new VirtualClock({ start: START, speed: 1000, wall: () => wall });
    assert.equal(clock.now(), START);
    wall = 2;
    assert.equal(clock.now(), START + 2_000);
    clock.setSpeed(10);
    wall = 3;
    assert.equal(clock.now(), START + 2_010);
    wall = 3.0004567;
    assert.equal(clock.now(), START + 2_010, 'whole milliseconds, as Date.now() gives');
    clock.setPaused(true);
    wall = 100;
    assert.equal(clock.now(), START + 2_010);
    assert.equal(clock.status().state, 'Paused');
    clock.stop();
  });

  it('serial (--seed): work a turn queued runs at that time, before time moves on', async () => {
    const clock = new VirtualClock({ start: START, speed: 0, serial: true });
    const log: string[] = [];
    const at = (what: string): number => log.push(`${what}@${clock.now() - START}`);
    let ready = false;
    // A work source whose item is queued by a timer's turn without any hold (as an informer
    // handler queues a key when serial).
    clock.turns?.register('queue', {
      ready: () => ready,
      run: () => {
        ready = false;
        at('work');
      },
    });
    clock.setTimer(10_000, () => {
      ready = true;
      at('timer');
    });
    clock.setTimer(20_000, () => at('later'));
    await clock.runUntil(START + 30_000);
    assert.deepEqual(log, ['timer@10000', 'work@10000', 'later@20000']);
    clock.stop();
  });

  it('rejects a negative or non-finite speed', () => {
    const clock = new VirtualClock({ start: START });
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => clock.setSpeed(bad), RangeError);
    }
    clock.stop();
  });
});
