/**
 * The failed-pod backoff (upstream `flowcontrol.Backoff` as the DaemonSet controller uses it:
 * 1 s, doubling to 15 min, per DaemonSet, generation and node). A kubelet that rejects a daemon
 * pod makes it Failed at once; without a backoff the controller would delete and re-create it
 * in a hot loop. An entry untouched for twice the maximum starts over.
 *
 * @module
 */

/** Upstream's initial delay (`NewDaemonSetsController` is given `flowcontrol.NewBackOff(1s, 15m)`). */
export const FAILED_POD_BACKOFF_INITIAL_MS = 1_000;
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60_000;

interface Entry {
  delayMs: number;
  lastUpdate: number;
}

/** Per-key exponential backoff on an injected time. */
export class FailedPodBackoff {
  readonly #entries = new Map<string, Entry>();

  /** Upstream `IsInBackOffSinceUpdate`: the last step was less than its delay ago. */
  inBackoff(key: string, now: number): boolean {
    const e = this.#entries.get(key);
    return e !== undefined && now - e.lastUpdate < e.delayMs;
  }

  /** The current delay of `key` (0 without an entry). */
  delay(key: string): number {
    return this.#entries.get(key)?.delayMs ?? 0;
  }

  /** Upstream `Next`: start at 1 s, or double (to 15 min); an expired entry starts over. */
  next(key: string, now: number): void {
    const e = this.#entries.get(key);
    if (e === undefined || now - e.lastUpdate > 2 * FAILED_POD_BACKOFF_MAX_MS) {
      this.#entries.set(key, { delayMs: FAILED_POD_BACKOFF_INITIAL_MS, lastUpdate: now });
      return;
    }
    e.delayMs = Math.min(e.delayMs * 2, FAILED_POD_BACKOFF_MAX_MS);
    e.lastUpdate = now;
  }

  /** Upstream `GC`: drops entries idle for twice the maximum. */
  gc(now: number): void {
    for (const [key, e] of this.#entries) {
      if (now - e.lastUpdate > 2 * FAILED_POD_BACKOFF_MAX_MS) this.#entries.delete(key);
    }
  }
}
