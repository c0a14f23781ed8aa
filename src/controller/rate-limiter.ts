/**
 * Rate limiters for the work queue: small objects that answer "how long must this key wait
 * before its next retry?". They compose ({@link maxOfRateLimiter}) the way client-go's
 * `util/workqueue/default_rate_limiters.go` does, and every time-dependent one reads the
 * injected {@link Clock}, never wall time.
 *
 * The default controller limiter is the larger of a per-key exponential backoff (5 ms, 10 ms,
 * 20 ms … capped at 1000 s) and an overall token bucket (10 qps, burst 100): one failing key
 * backs off on its own, and a storm of failing keys cannot retry faster than 10 per second
 * once the first 100 are spent.
 *
 * @module
 */
import type { Clock } from '../util/clock.js';

/** Decides retry delays per key; stateful (each {@link RateLimiter.when} counts a failure). */
export interface RateLimiter<K = string> {
  /** Records one more retry of `key` and returns how many ms it should wait first. */
  when(key: K): number;
  /** Stops tracking `key`: its next failure starts again from the first delay. */
  forget(key: K): void;
  /** How many times `key` has been retried since it was last forgotten. */
  numRequeues(key: K): number;
}

/** Options of {@link exponentialFailureRateLimiter}. */
export interface ExponentialOptions {
  /** First delay in ms. @default 5 */
  readonly baseMs?: number;
  /** Largest delay in ms. @default 1_000_000 (1000 s) */
  readonly maxMs?: number;
}

/**
 * Per-key exponential backoff: the n-th retry (0-based) of a key waits `baseMs * 2^n`, capped
 * at `maxMs`. With the defaults the 18th retry waits 5 ms · 2^17 ≈ 655 s and every later one
 * the 1000 s cap (5 ms · 2^18 ≈ 1311 s would exceed it).
 */
export function exponentialFailureRateLimiter<K = string>(
  options: ExponentialOptions = {},
): RateLimiter<K> {
  const baseMs = options.baseMs ?? 5;
  const maxMs = options.maxMs ?? 1_000_000;
  const failures = new Map<K, number>();
  return {
    when(key) {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      // 2^n overflows to Infinity near n = 1024; the cap handles that without a special case.
      const delay = baseMs * 2 ** n;
      return Number.isFinite(delay) && delay <= maxMs ? delay : maxMs;
    },
    forget(key) {
      failures.delete(key);
    },
    numRequeues(key) {
      return failures.get(key) ?? 0;
    },
  };
}

/** Options of {@link bucketRateLimiter}. */
export interface BucketOptions {
  readonly clock: Clock;
  /** Tokens added per second. @default 10 */
  readonly qps?: number;
  /** Bucket size, and the number of tokens it starts with. @default 100 */
  readonly burst?: number;
}

/**
 * An overall token bucket shared by all keys (golang.org/x/time/rate's reservation model):
 * each `when` takes a token; while tokens last the delay is 0, after that the bucket goes into
 * debt and the delay is the time until the debt is repaid. At 10 qps, burst 100, the 101st
 * call in the same instant waits 100 ms, the 102nd 200 ms. It keeps no per-key state, so
 * `forget` does nothing and `numRequeues` is always 0.
 */
export function bucketRateLimiter<K = string>(options: BucketOptions): RateLimiter<K> {
  const { clock } = options;
  const qps = options.qps ?? 10;
  const burst = options.burst ?? 100;
  let tokens = burst;
  let last = clock.now();
  return {
    when() {
      const now = clock.now();
      // Refill for the time passed, never above the burst; time before `last` adds nothing.
      tokens = Math.min(burst, tokens + (Math.max(0, now - last) * qps) / 1000);
      last = Math.max(last, now);
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens * 1000) / qps;
    },
    forget() {},
    numRequeues() {
      return 0;
    },
  };
}

/**
 * Combines limiters: the delay is the largest of theirs, the requeue count the largest of
 * theirs, and `forget` reaches all of them. Every limiter's `when` is called so each records
 * the failure, as client-go's MaxOfRateLimiter does.
 */
export function maxOfRateLimiter<K = string>(...limiters: RateLimiter<K>[]): RateLimiter<K> {
  return {
    when(key) {
      let delay = 0;
      for (const limiter of limiters) delay = Math.max(delay, limiter.when(key));
      return delay;
    },
    forget(key) {
      for (const limiter of limiters) limiter.forget(key);
    },
    numRequeues(key) {
      let n = 0;
      for (const limiter of limiters) n = Math.max(n, limiter.numRequeues(key));
      return n;
    },
  };
}

/**
 * client-go's `DefaultControllerRateLimiter` (also controller-runtime's default): the max of a
 * per-key exponential backoff (5 ms → 1000 s) and an overall bucket (10 qps, burst 100).
 */
export function defaultControllerRateLimiter<K = string>(clock: Clock): RateLimiter<K> {
  return maxOfRateLimiter<K>(
    exponentialFailureRateLimiter<K>({ baseMs: 5, maxMs: 1_000_000 }),
    bucketRateLimiter<K>({ clock, qps: 10, burst: 100 }),
  );
}
