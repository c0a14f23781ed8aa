/**
 * The reflector's retry delay (client-go `wait.NewExponentialBackoffManager(800ms, 30s, 2min,
 * 2.0, 1.0, clock)`): 800 ms, 1.6 s, 3.2 s … 25.6 s, then 30 s for ever, each stretched by a
 * random jitter of up to +100 %. When more than 2 minutes of clock time passed since the last
 * delay started, the sequence starts again at 800 ms: a watch that ran fine for a while earns
 * a fresh start, while a relist that keeps failing (say a list RV the server calls too old)
 * never retries more often than every 30 s.
 *
 * @module
 */
import type { Clock } from '../util/clock.js';

export interface BackoffOptions {
  readonly clock: Clock;
  /** @default 800 */
  readonly initialMs?: number;
  /** @default 30_000 */
  readonly maxMs?: number;
  /** Quiet time after which the next delay is `initialMs` again. @default 120_000 */
  readonly resetMs?: number;
  /** Each delay d becomes d + random() · jitter · d. @default 1.0 */
  readonly jitter?: number;
  /** Source of jitter in [0, 1). @default Math.random */
  readonly random?: () => number;
}

export class ExponentialBackoff {
  readonly #clock: Clock;
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #resetMs: number;
  readonly #jitter: number;
  readonly #random: () => number;
  #nextMs: number;
  #lastStart: number | undefined;

  constructor(options: BackoffOptions) {
    this.#clock = options.clock;
    this.#initialMs = options.initialMs ?? 800;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#resetMs = options.resetMs ?? 120_000;
    this.#jitter = options.jitter ?? 1.0;
    this.#random = options.random ?? Math.random;
    this.#nextMs = this.#initialMs;
  }

  /** The delay to wait now; counts as one more failure. */
  next(): number {
    const now = this.#clock.now();
    if (this.#lastStart !== undefined && now - this.#lastStart > this.#resetMs) {
      this.#nextMs = this.#initialMs;
    }
    this.#lastStart = now;
    const base = this.#nextMs;
    this.#nextMs = Math.min(this.#maxMs, base * 2);
    return base + this.#random() * this.#jitter * base;
  }
}
