/**
 * What the outside world sees of the cluster clock and how it drives it: the `Clock` API
 * object (`clocks.sim.fleetyard.dev/cluster`), `fleetyard clock`, the test harness and the
 * scenario runner all go through this one interface, implemented by {@link VirtualClock}
 * (and, read-only, by the wall clock of `--clock real`).
 *
 * @module
 */

/** Virtual milliseconds per wall millisecond; 0 is paused; `max` jumps from timer to timer. */
export type Speed = number | 'max';

/**
 * `Running` at a speed, `Paused` when paused or at speed 0, `Advancing` from a run-until
 * target being set until the clock is there and the cluster is quiescent there.
 */
export type ClockState = 'Running' | 'Paused' | 'Advancing';

export interface ClockStatus {
  /** `virtual` (`--clock virtual`) or `real` (the wall clock: it cannot be driven). */
  readonly mode: 'virtual' | 'real';
  /** The cluster's time, ms since the Unix epoch. */
  readonly now: number;
  /** The speed while not paused and no run-until target is ahead. */
  readonly speed: Speed;
  /** Paused: time stands still (timers already due still fire) until resumed. */
  readonly paused: boolean;
  readonly state: ClockState;
  /** The run-until target (ms), while it is ahead. */
  readonly runUntil?: number;
  /** Timers waiting to fire, in this process (both threads). */
  readonly pendingTimers: number;
  /** When the earliest of them is due (ms), if any. */
  readonly nextTimer?: number;
  /**
   * True when, at the last look, nothing was in flight (no request, no queued work, no
   * undelivered watch event) and no timer was due: time may move on at speed `max`.
   */
  readonly quiescent: boolean;
  /** Times time jumped to a timer (speed `max` or advancing) since the clock started. */
  readonly jumps?: number;
}

export interface ClockControl {
  status(): ClockStatus;
  /** Sets the base speed (throws for a real clock). Speed 0 is the same as paused. */
  setSpeed(speed: Speed): void;
  /** Pauses or resumes at the base speed (throws for a real clock). */
  setPaused(paused: boolean): void;
  /**
   * Runs at speed `max` until `at` (ms), firing every timer due on the way and letting the
   * cluster react to each; then continues at the base speed from `at`. `undefined` cancels.
   * Resolves once the clock is at `at` and the cluster is quiescent there.
   */
  runUntil(at: number | undefined): Promise<void>;
}

/** Parses a speed as the CLI and the API object write it: `max`, or a number ≥ 0. */
export function parseSpeed(text: string): Speed {
  if (text === 'max') return 'max';
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0) {
    throw new RangeError(`invalid speed ${JSON.stringify(text)}: want a number >= 0 or max`);
  }
  return n;
}
