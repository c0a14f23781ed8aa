/**
 * Steering the virtual clock from the page, as `fleetyard clock` does
 * (src/cli/clock-command.ts): merge patches of `clocks.sim.fleetyard.dev/cluster` `spec`.
 * `advance D` reads `status.time` and sets `spec.runUntil` to it plus D.
 *
 * @module
 */
import type { Api } from './api.js';
import { rfc3339 } from './clock.js';
import { str } from './json.js';

export const CLOCK_PATH = '/apis/sim.fleetyard.dev/v1alpha1/clocks/cluster';

export const SPEEDS = ['0.5', '1', '2', '5', '10', '60', '600', 'max'] as const;

export function pauseClock(api: Api, paused: boolean): Promise<unknown> {
  return api.mergePatch(CLOCK_PATH, { spec: { paused } });
}

export function setClockSpeed(api: Api, speed: string): Promise<unknown> {
  return api.mergePatch(CLOCK_PATH, { spec: { speed, paused: false } });
}

/** Advances by `ms` of cluster time from the clock's current `status.time`. */
export async function advanceClock(api: Api, ms: number): Promise<string> {
  const clock = await api.get(CLOCK_PATH);
  const now = Date.parse(str(clock, 'status', 'time') ?? '');
  if (Number.isNaN(now)) throw new Error('the clock did not say what time it is');
  const until = rfc3339(now + ms);
  await api.mergePatch(CLOCK_PATH, { spec: { runUntil: until } });
  return until;
}
