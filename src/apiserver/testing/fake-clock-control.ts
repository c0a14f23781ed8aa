/**
 * A {@link ClockControl} for tests of the Clock resource and `fleetyard clock`: plain fields
 * the test sets and reads, and a deterministic stand-in for a run-until (each status read
 * moves time `stepMs` towards the target, so a client that polls sees it advance and arrive
 * without any wall-clock timing).
 *
 * @module
 */
import type { ClockControl, ClockStatus, Speed } from '../../util/clock-control.js';

export interface FakeClockOptions {
  readonly now?: number;
  readonly mode?: 'virtual' | 'real';
  readonly speed?: Speed;
  /** Virtual ms a status read moves an advancing clock. @default 60_000 */
  readonly stepMs?: number;
}

export class FakeClockControl implements ClockControl {
  mode: 'virtual' | 'real';
  now: number;
  speed: Speed;
  paused = false;
  target: number | undefined;
  pendingTimers = 0;
  nextTimer: number | undefined;
  stepMs: number;
  #waiters: (() => void)[] = [];

  constructor(options: FakeClockOptions = {}) {
    this.mode = options.mode ?? 'virtual';
    this.now = options.now ?? Date.parse('2026-01-01T00:00:00Z');
    this.speed = options.speed ?? 1;
    this.stepMs = options.stepMs ?? 60_000;
  }

  status(): ClockStatus {
    const advancing = this.#step();
    return {
      mode: this.mode,
      now: this.now,
      speed: this.speed,
      paused: this.paused,
      state: advancing ? 'Advancing' : this.paused || this.speed === 0 ? 'Paused' : 'Running',
      ...(advancing ? { runUntil: this.target } : {}),
      pendingTimers: this.pendingTimers,
      ...(this.nextTimer !== undefined ? { nextTimer: this.nextTimer } : {}),
      quiescent: !advancing,
    };
  }

  setSpeed(speed: Speed): void {
    this.#writable();
    this.speed = speed;
  }

  setPaused(paused: boolean): void {
    this.#writable();
    this.paused = paused;
  }

  runUntil(at: number | undefined): Promise<void> {
    this.target = at;
    if (at === undefined) this.#arrive();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Moves an advancing clock one step; true while the target is still ahead. */
  #step(): boolean {
    if (this.target === undefined) return false;
    if (this.now < this.target) {
      this.now = Math.min(this.target, this.now + this.stepMs);
      return true;
    }
    this.#arrive();
    return false;
  }

  #arrive(): void {
    this.target = undefined;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  #writable(): void {
    if (this.mode === 'real') throw new Error('a real clock cannot be driven');
  }
}
