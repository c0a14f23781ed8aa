/**
 * `fleetyard up`'s clock flags: `--clock real|virtual`, `--clock-start TIME`, `--speed N|max`
 * and `--seed N`, checked (a bad value: one line on stderr, exit 2). The flags themselves are
 * rows of up-flag-table.ts.
 *
 * @module
 */
import { parseSpeed } from '../util/clock-control.js';
import { isOneOf, orList } from './flag-table.js';
import type { UpOptions } from './up.js';
import { CLOCK_MODES } from './up-flag-values.js';

export interface ClockFlagValues {
  readonly clock: string;
  readonly 'clock-start'?: string | undefined;
  readonly speed?: string | undefined;
  readonly seed?: string | undefined;
}

export type ClockFlags = Pick<UpOptions, 'clock' | 'clockStart' | 'speed' | 'seed'>;

/** The clock options, or an error message naming the flag. */
export function parseClockFlags(values: ClockFlagValues): ClockFlags | string {
  const mode = values.clock;
  if (!isOneOf(CLOCK_MODES, mode)) return `invalid --clock ${mode}: want ${orList(CLOCK_MODES)}`;
  const out: { -readonly [K in keyof ClockFlags]: ClockFlags[K] } = { clock: mode };
  if (values.seed !== undefined) {
    const seed = Number(values.seed);
    if (!Number.isSafeInteger(seed)) return `invalid --seed ${values.seed}: want an integer`;
    out.seed = seed;
  }
  for (const flag of ['clock-start', 'speed'] as const) {
    if (values[flag] !== undefined && mode !== 'virtual') {
      return `--${flag} needs --clock virtual`;
    }
  }
  if (values['clock-start'] !== undefined) {
    const at = Date.parse(values['clock-start']);
    if (!Number.isFinite(at)) {
      return `invalid --clock-start ${values['clock-start']}: want an RFC 3339 time like 2026-01-01T00:00:00Z`;
    }
    out.clockStart = at;
  }
  if (values.speed !== undefined) {
    try {
      out.speed = parseSpeed(values.speed);
    } catch {
      return `invalid --speed ${values.speed}: want a number >= 0 or max`;
    }
  }
  return out;
}
