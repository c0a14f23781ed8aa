import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { nodePhase, reportDelayMs } from './heartbeat-schedule.js';

describe('node status report delay (delayAfterNodeStatusChange)', () => {
  const REPORT = 300_000;
  const cases: { index: number; count: number; delay: number }[] = [
    // One node, and node 1 of any cluster: no delay, the report period as before.
    { index: 1, count: 1, delay: 0 },
    { index: 1, count: 1000, delay: 0 },
    { index: 2, count: 4, delay: 75_000 },
    { index: 3, count: 4, delay: -150_000 },
    { index: 4, count: 4, delay: -75_000 },
    { index: 501, count: 1000, delay: -150_000 },
    { index: 1000, count: 1000, delay: -300 },
  ];
  for (const c of cases) {
    it(`node ${c.index} of ${c.count}: ${c.delay} ms`, () => {
      assert.equal(reportDelayMs(REPORT, c.index, c.count), c.delay);
    });
  }

  it('stays within [−½, ½) of the report period', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.nat(), (n, k) => {
        const d = reportDelayMs(REPORT, (k % n) + 1, n);
        assert.ok(d >= -REPORT / 2 && d < REPORT / 2, `delay ${d}`);
      }),
    );
  });

  it('gives every node of a cluster its own point of the range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), (n) => {
        const phases = new Set(Array.from({ length: n }, (_, k) => nodePhase(k + 1, n)));
        assert.equal(phases.size, n);
      }),
      { numRuns: 30 },
    );
  });
});
