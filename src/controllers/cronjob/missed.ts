/**
 * Which scheduled time a CronJob owes a Job for, and when to look again: upstream `utils.go:
 * mostRecentScheduleTime`, `nextScheduleTime` and `nextScheduleTimeDuration`, pure over epoch
 * milliseconds.
 *
 * Only the most recent missed time is ever run (never a backlog): a controller that was down
 * for three runs of an every-ten-minutes schedule creates one Job, for the latest, if that is still
 * within `startingDeadlineSeconds`. The number of misses is estimated from the gap between two
 * consecutive times, as upstream does; more than 100 is reported (`TooManyMissedTimes`).
 *
 * @module
 */
import type { CronSchedule } from '../../api/kinds/batch-cronjob-schedule.js';
import { nextTime } from './schedule.js';

/** Upstream `nextScheduleDelta`: requeues land 100 ms after the time, against clock skew. */
export const NEXT_SCHEDULE_DELTA_MS = 100;
/** Upstream: more than 100 missed times is reported (arbitrarily "more than 80, less than lots"). */
export const TOO_MANY_MISSED = 100;

export type Missed = 'none' | 'few' | 'many';

/** What {@link mostRecentScheduleTime} finds. */
export interface MostRecent {
  /** The last schedule time, else the creation time (raised to the deadline when asked). */
  readonly earliest: number;
  /** The latest time at or before now after `earliest`; undefined when none. */
  readonly mostRecent?: number;
  readonly missed: Missed;
  /** Set when the schedule's times are less than a second apart (`0 0 30 2 *` never fires). */
  readonly error?: string;
}

/** The times the decision reads. */
export interface ScheduleTimes {
  readonly creationTime: number;
  readonly lastScheduleTime?: number;
  readonly startingDeadlineSeconds?: number;
  /** The zone a schedule without its own is read in. @default 'UTC' */
  readonly zone?: string;
}

/** Upstream `mostRecentScheduleTime`. */
export function mostRecentScheduleTime(
  times: ScheduleTimes,
  now: number,
  schedule: CronSchedule,
  includeStartingDeadline: boolean,
): MostRecent {
  const next = (t: number): number => nextTime(schedule, t, times.zone ?? 'UTC');
  let earliest = times.lastScheduleTime ?? times.creationTime;
  if (includeStartingDeadline && times.startingDeadlineSeconds !== undefined) {
    const deadline = now - times.startingDeadlineSeconds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  const t1 = next(earliest);
  if (now < t1) return { earliest, missed: 'none' };
  const t2 = next(t1);
  if (now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  // Go: int64(t2.Sub(t1).Round(time.Second).Seconds()); 0 for a schedule that never fires.
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) {
    return {
      earliest,
      missed: 'none',
      error: 'time difference between two schedules is less than 1 second',
    };
  }
  const elapsed = Math.trunc((now - t1) / 1000);
  const count = Math.floor(elapsed / between) + 1;
  // Start one interval before the estimate, so irregular schedules (`30 6-16/4 * * 1-5`) and
  // `@every` still land on their real latest time.
  const potentialEarliest = t1 + (count - 2) * between * 1000;
  let mostRecent: number | undefined;
  for (let t = next(potentialEarliest); t <= now; t = next(t)) {
    if (mostRecent !== undefined && t <= mostRecent) break; // no later time (Go's zero time)
    mostRecent = t;
  }
  const missed: Missed = count > TOO_MANY_MISSED ? 'many' : count > 0 ? 'few' : 'none';
  return mostRecent === undefined ? { earliest, missed } : { earliest, mostRecent, missed };
}

/**
 * Upstream `nextScheduleTimeDuration`: how long until the next time after the most recent one
 * (or after now when times were missed), plus {@link NEXT_SCHEDULE_DELTA_MS}.
 */
export function nextScheduleDelay(
  times: ScheduleTimes,
  now: number,
  schedule: CronSchedule,
): number {
  const found = mostRecentScheduleTime(times, now, schedule, false);
  let from: number;
  if (found.error !== undefined) from = now;
  else if (found.mostRecent !== undefined) from = found.mostRecent;
  else from = found.missed === 'none' ? found.earliest : now;
  return nextTime(schedule, from, times.zone ?? 'UTC') + NEXT_SCHEDULE_DELTA_MS - now;
}

/** Upstream `nextScheduleTime`: the time a Job is owed for (deadline applied), if any. */
export function owedScheduleTime(
  times: ScheduleTimes,
  now: number,
  schedule: CronSchedule,
): { readonly time?: number; readonly tooMany: boolean; readonly error?: string } {
  const found = mostRecentScheduleTime(times, now, schedule, true);
  if (found.mostRecent === undefined || found.mostRecent > now) {
    return { tooMany: false, ...(found.error === undefined ? {} : { error: found.error }) };
  }
  return { time: found.mostRecent, tooMany: found.missed === 'many' };
}
