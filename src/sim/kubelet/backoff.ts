/**
 * The kubelet's back-off bookkeeping (client-go `flowcontrol.Backoff`) as plain data: 10 s
 * initial, doubling, capped at 300 s; an entry untouched for more than 2 × cap (10 min) starts
 * over. Upstream keeps this in kubelet memory (lost on restart); here the caller keeps one
 * {@link RuntimeState} per pod and threads it through `plan`.
 *
 * @module
 */

export const BACKOFF_INITIAL_MS = 10_000;
export const BACKOFF_MAX_MS = 300_000;

export interface BackoffEntry {
  /** Current back-off period. */
  backoffMs: number;
  /** When the period was last advanced (epoch ms). */
  lastUpdate: number;
}

/** The kubelet's per-pod memory: back-off entries keyed `pull/<container>` and `crash/<container>`. */
export interface RuntimeState {
  readonly backoff: Readonly<Record<string, BackoffEntry>>;
}

export const EMPTY_RUNTIME: RuntimeState = { backoff: {} };

function hasExpired(eventTime: number, lastUpdate: number): boolean {
  return eventTime - lastUpdate > 2 * BACKOFF_MAX_MS;
}

/** `Backoff.Next`: the entry after one more failure at `now`. */
export function nextBackoff(entry: BackoffEntry | undefined, now: number): BackoffEntry {
  if (!entry || hasExpired(now, entry.lastUpdate))
    return { backoffMs: BACKOFF_INITIAL_MS, lastUpdate: now };
  return { backoffMs: Math.min(entry.backoffMs * 2, BACKOFF_MAX_MS), lastUpdate: now };
}

/** `IsInBackOffSinceUpdate` (image pulls): the end of the current period, or undefined when not backing off. */
export function backoffUntilSinceUpdate(
  entry: BackoffEntry | undefined,
  now: number,
): number | undefined {
  if (!entry || hasExpired(now, entry.lastUpdate)) return undefined;
  const until = entry.lastUpdate + entry.backoffMs;
  return now < until ? until : undefined;
}

/** `IsInBackOffSince(eventTime)` (container restarts, event = the exit): end of the period, or undefined. */
export function backoffUntilSince(
  entry: BackoffEntry | undefined,
  eventTime: number,
  now: number,
): number | undefined {
  if (!entry || hasExpired(eventTime, entry.lastUpdate)) return undefined;
  const until = eventTime + entry.backoffMs;
  return now < until ? until : undefined;
}

export function withEntry(state: RuntimeState, key: string, entry: BackoffEntry): RuntimeState {
  return { backoff: { ...state.backoff, [key]: entry } };
}
