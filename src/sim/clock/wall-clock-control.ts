/**
 * The clock control of `fleetyard up --clock real`: the Clock API object shows the wall time,
 * and any attempt to drive it is refused (the wall clock cannot be paused).
 *
 * @module
 */
import type { Clock } from '../../util/clock.js';
import type { ClockControl, ClockStatus } from '../../util/clock-control.js';

export const WALL_CLOCK_REFUSAL =
  'the cluster runs on the wall clock (fleetyard up --clock real): its time cannot be driven';

export function wallClockControl(clock: Clock): ClockControl {
  const refuse = (): never => {
    throw new Error(WALL_CLOCK_REFUSAL);
  };
  return {
    status: (): ClockStatus => ({
      mode: 'real',
      now: clock.now(),
      speed: 1,
      paused: false,
      state: 'Running',
      pendingTimers: 0,
      quiescent: false,
    }),
    setSpeed: refuse,
    setPaused: refuse,
    runUntil: () => Promise.reject(new Error(WALL_CLOCK_REFUSAL)),
  };
}
