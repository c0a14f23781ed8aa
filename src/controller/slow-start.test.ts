import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { STATEFUL_SET_MAX_BATCH_SIZE, slowStartBatch, slowStartBatchSizes } from './slow-start.js';

describe('slowStartBatchSizes', () => {
  const cases = [
    { count: 10, initial: 1, want: [1, 2, 4, 3] },
    { count: 7, initial: 1, want: [1, 2, 4] },
    { count: 1, initial: 1, want: [1] },
    { count: 0, initial: 1, want: [] },
    { count: 5, initial: 0, want: [] },
    { count: 25, initial: 5, want: [5, 10, 10] },
    { count: 3, initial: 8, want: [3] },
  ];
  for (const c of cases) {
    it(`${c.count} calls from ${c.initial}`, () => {
      assert.deepEqual(slowStartBatchSizes(c.count, c.initial), c.want);
    });
  }

  it('caps StatefulSet batches at 500', () => {
    const sizes = slowStartBatchSizes(2000, 1, { maxBatchSize: STATEFUL_SET_MAX_BATCH_SIZE });
    assert.deepEqual(sizes, [1, 2, 4, 8, 16, 32, 64, 128, 256, 500, 500, 489]);
  });

  it('covers the count exactly with doubling batches', () => {
    fc.assert(
      fc.property(
        fc.nat(3000),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 600 }),
        (n, init, cap) => {
          const sizes = slowStartBatchSizes(n, init, { maxBatchSize: cap });
          assert.equal(
            sizes.reduce((a, b) => a + b, 0),
            n,
          );
          sizes.forEach((s, i) => {
            assert.ok(s >= 1 && s <= cap);
            assert.ok(i === 0 ? s <= init : s <= 2 * (sizes[i - 1] ?? 0));
          });
        },
      ),
    );
  });
});

describe('slowStartBatch', () => {
  // Upstream TestSlowStartBatch: all succeed, all fail, fail after some successes.
  const cases = [
    {
      name: 'all succeed',
      count: 10,
      failFrom: Number.POSITIVE_INFINITY,
      successes: 10,
      calls: 10,
    },
    { name: 'first call fails', count: 10, failFrom: 1, successes: 0, calls: 1 },
    // Batches 1,2 ok (3 calls); batch of 4: calls 4,5 ok, 6,7 fail; the batch of 3 never runs.
    { name: 'fails after five successes', count: 10, failFrom: 6, successes: 5, calls: 7 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      let calls = 0;
      const result = await slowStartBatch(c.count, 1, async () => {
        calls++;
        if (calls >= c.failFrom) throw new Error(`fail ${calls}`);
      });
      assert.equal(result.successes, c.successes);
      assert.equal(calls, c.calls);
      assert.equal(result.error === undefined, c.successes === c.count);
    });
  }

  it('returns the first rejection and passes each call its index', async () => {
    const seen: number[] = [];
    const result = await slowStartBatch(6, 1, (i) => {
      seen.push(i);
      return i >= 3 ? Promise.reject(new Error(`index ${i}`)) : Promise.resolve();
    });
    assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
    assert.equal((result.error as Error).message, 'index 3');
    assert.equal(result.successes, 3);
  });

  it('counts synchronous throws as failures', async () => {
    const result = await slowStartBatch(4, 1, () => {
      throw new Error('sync');
    });
    assert.deepEqual(
      { successes: result.successes, msg: (result.error as Error).message },
      { successes: 0, msg: 'sync' },
    );
  });

  it('runs a batch concurrently', async () => {
    let inFlight = 0;
    let peak = 0;
    await slowStartBatch(7, 1, async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await Promise.resolve();
      inFlight--;
    });
    assert.equal(peak, 4);
  });

  it('stops at the first failing batch', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(60),
        fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
        async (n, fails) => {
          const called: number[] = [];
          const result = await slowStartBatch(n, 1, async (i) => {
            called.push(i);
            if (fails[i]) throw new Error(String(i));
          });
          const sizes = slowStartBatchSizes(n, 1);
          let end = 0;
          for (const s of sizes) {
            end += s;
            if (fails.slice(end - s, end).some(Boolean)) break;
          }
          assert.equal(called.length, end, 'calls are exactly the batches up to the failing one');
          assert.equal(result.successes, fails.slice(0, end).filter((f) => !f).length);
          assert.equal(result.error !== undefined, fails.slice(0, end).some(Boolean));
        },
      ),
    );
  });
});
