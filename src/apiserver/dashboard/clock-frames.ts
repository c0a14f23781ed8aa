/**
 * The cluster clock as the dashboard sees it: a {@link ClockFrame} sampled with the wall time,
 * from which the page extrapolates the cluster's time between frames (`time + elapsed ×
 * speed`), and a watch that sends a new frame only when that extrapolation would be wrong:
 * the speed, pause or state changed, or time jumped (an advance, speed `max` jumping to the
 * next timer).
 *
 * The watch samples on a wall-time interval, never on the cluster clock: a timer there would
 * be cluster work, and would keep a virtual clock from ever being quiescent.
 *
 * @module
 */
import type { ClockControl, ClockStatus } from '../../util/clock-control.js';

export interface ClockFrame {
  /** Cluster time, RFC 3339 with milliseconds. */
  readonly time: string;
  /** `Date.now()` when sampled. */
  readonly wallTime: number;
  readonly speed: string;
  readonly paused: boolean;
  readonly mode: ClockStatus['mode'];
  readonly state: ClockStatus['state'];
}

/** How often the watch samples: a jump shows on the page within this. */
const SAMPLE_MS = 250;

/** Drift the page may show before a new frame corrects it. */
const TOLERANCE_MS = 500;

export function clockFrame(status: ClockStatus, wallTime: number = Date.now()): ClockFrame {
  return {
    time: new Date(status.now).toISOString(),
    wallTime,
    speed: String(status.speed),
    paused: status.paused,
    mode: status.mode,
    state: status.state,
  };
}

/** A real clock's status, for a server that serves no Clock object. */
export function wallClockStatus(now: number): ClockStatus {
  return {
    mode: 'real',
    now,
    speed: 1,
    paused: false,
    state: 'Running',
    pendingTimers: 0,
    quiescent: false,
  };
}

/** A frame sampler for `control`. */
export function clockFrames(control: ClockControl): () => ClockFrame {
  return () => clockFrame(control.status());
}

/** Where the page believes the clock is at wall time `wall`, from `frame`. */
export function extrapolate(frame: ClockFrame, wall: number): number {
  const t = Date.parse(frame.time);
  const speed = Number(frame.speed);
  if (frame.paused || !Number.isFinite(speed)) return t;
  return t + (wall - frame.wallTime) * speed;
}

/** Whether `next` says something `last` would not have predicted. */
export function clockChanged(last: ClockFrame, next: ClockFrame): boolean {
  if (last.speed !== next.speed || last.paused !== next.paused || last.state !== next.state) {
    return true;
  }
  if (next.speed === 'max') return next.time !== last.time;
  return Math.abs(extrapolate(last, next.wallTime) - Date.parse(next.time)) > TOLERANCE_MS;
}

export class ClockWatch {
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(sample: () => ClockFrame, send: (frame: ClockFrame) => void) {
    let last = sample();
    this.#timer = setInterval(() => {
      const next = sample();
      if (!clockChanged(last, next)) return;
      last = next;
      send(next);
    }, SAMPLE_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
