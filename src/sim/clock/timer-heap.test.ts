import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TimerHeap } from './timer-heap.js';

describe('TimerHeap', () => {
  it('pops due timers by time, then by the order they were set, never a cancelled one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.integer({ min: 0, max: 50 }), cancel: fc.boolean() }), {
          maxLength: 60,
        }),
        fc.integer({ min: 0, max: 60 }),
        (specs, now) => {
          const heap = new TimerHeap();
          const fired: number[] = [];
          const timers = specs.map((s, i) => heap.push(s.at, () => fired.push(i)));
          for (const [i, s] of specs.entries()) if (s.cancel) heap.cancel(timers[i]!);
          for (let t = heap.popDue(now); t !== undefined; t = heap.popDue(now)) t.fn();
          const expected = specs
            .map((s, i) => ({ ...s, i }))
            .filter((s) => !s.cancel && s.at <= now)
            .sort((a, b) => a.at - b.at || a.i - b.i)
            .map((s) => s.i);
          assert.deepEqual(fired, expected);
          const left = specs.filter((s) => !s.cancel && s.at > now);
          assert.equal(heap.size, left.length);
          assert.equal(heap.nextAt(), left.length ? Math.min(...left.map((s) => s.at)) : Infinity);
        },
      ),
    );
  });
});
