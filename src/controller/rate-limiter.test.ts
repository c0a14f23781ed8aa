import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FakeClock } from '../util/clock.js';
import {
  bucketRateLimiter,
  defaultControllerRateLimiter,
  exponentialFailureRateLimiter,
  maxOfRateLimiter,
  type RateLimiter,
} from './rate-limiter.js';

function delays<K>(limiter: RateLimiter<K>, key: K, n: number): number[] {
  return Array.from({ length: n }, () => limiter.when(key));
}

describe('exponentialFailureRateLimiter', () => {
  const cases = [
    { name: 'defaults double from 5 ms', options: {}, n: 6, want: [5, 10, 20, 40, 80, 160] },
    { name: 'caps at maxMs', options: { baseMs: 1, maxMs: 10 }, n: 6, want: [1, 2, 4, 8, 10, 10] },
    { name: 'base above max is max', options: { baseMs: 50, maxMs: 20 }, n: 2, want: [20, 20] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(delays(exponentialFailureRateLimiter(c.options), 'a', c.n), c.want);
    });
  }

  it('reaches the 1000 s cap and stays there, even past float overflow', () => {
    const limiter = exponentialFailureRateLimiter();
    const all = delays(limiter, 'a', 1100);
    assert.equal(all[17], 5 * 2 ** 17); // 655 s, the last uncapped delay
    assert.ok(all.slice(18).every((d) => d === 1_000_000));
    assert.equal(limiter.numRequeues('a'), 1100);
  });

  it('tracks keys separately and forget restarts a key at the base delay', () => {
    const limiter = exponentialFailureRateLimiter();
    delays(limiter, 'a', 3);
    assert.equal(limiter.when('b'), 5);
    assert.equal(limiter.numRequeues('a'), 3);
    limiter.forget('a');
    assert.equal(limiter.numRequeues('a'), 0);
    assert.equal(limiter.when('a'), 5);
    assert.equal(limiter.numRequeues('b'), 1);
  });
});

describe('bucketRateLimiter', () => {
  it('lets the burst through, then spaces calls 1/qps apart', () => {
    const limiter = bucketRateLimiter({ clock: new FakeClock(), qps: 10, burst: 100 });
    const all = delays(limiter, 'k', 103);
    assert.ok(all.slice(0, 100).every((d) => d === 0));
    assert.deepEqual(
      all.slice(100).map((d) => Math.round(d)),
      [100, 200, 300],
    );
  });

  it('refills with clock time, never above the burst', async () => {
    const clock = new FakeClock();
    const limiter = bucketRateLimiter({ clock, qps: 2, burst: 3 });
    assert.deepEqual(delays(limiter, 'k', 4), [0, 0, 0, 500]); // 1 token of debt
    await clock.step(1500); // +3 tokens: debt repaid, 2 left
    assert.deepEqual(delays(limiter, 'k', 3), [0, 0, 500]);
    await clock.step(60_000); // long idle refills only to the burst of 3
    assert.deepEqual(delays(limiter, 'k', 4), [0, 0, 0, 500]);
  });

  it('keeps no per-key state', () => {
    const limiter = bucketRateLimiter({ clock: new FakeClock() });
    limiter.when('a');
    assert.equal(limiter.numRequeues('a'), 0);
  });

  it('property: n calls at one instant wait max(0, n - burst) / qps seconds at the end', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 200 }),
        (qps, burst, n) => {
          const limiter = bucketRateLimiter({ clock: new FakeClock(), qps, burst });
          const all = delays(limiter, 'k', n);
          const last = all[n - 1] ?? -1;
          const want = (Math.max(0, n - burst) * 1000) / qps;
          return (
            Math.abs(last - want) < 1e-6 && all.every((d, i) => i === 0 || d >= (all[i - 1] ?? 0))
          );
        },
      ),
    );
  });
});

describe('maxOfRateLimiter', () => {
  it('takes the largest delay and requeue count, and forgets in all', () => {
    const slow = exponentialFailureRateLimiter({ baseMs: 100 });
    const fast = exponentialFailureRateLimiter({ baseMs: 1 });
    const limiter = maxOfRateLimiter(fast, slow);
    assert.deepEqual(delays(limiter, 'a', 3), [100, 200, 400]);
    assert.equal(fast.numRequeues('a'), 3); // every limiter recorded every failure
    assert.equal(limiter.numRequeues('a'), 3);
    limiter.forget('a');
    assert.equal(fast.numRequeues('a'), 0);
    assert.equal(slow.numRequeues('a'), 0);
  });

  it('with no limiters waits 0', () => {
    assert.equal(maxOfRateLimiter().when('a'), 0);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('is per-key exponential until the 10 qps / burst 100 bucket runs dry', () => {
    const limiter = defaultControllerRateLimiter<string>(new FakeClock());
    const firsts = Array.from({ length: 100 }, (_, i) => limiter.when(`k${i}`));
    assert.ok(firsts.every((d) => d === 5));
    assert.equal(Math.round(limiter.when('k100')), 100); // bucket debt beats 5 ms
    assert.equal(limiter.numRequeues('k0'), 1);
  });
});
