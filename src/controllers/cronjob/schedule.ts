/**
 * When a CronJob's schedule fires: robfig/cron v3's `Schedule.Next`, which upstream's CronJob
 * controller uses, over the parser in `src/api/kinds/batch-cronjob-schedule.ts`, and upstream's
 * `formatSchedule` (`spec.timeZone` becomes a `TZ=` prefix).
 *
 * robfig walks the calendar in the schedule's zone: it finds a matching month, then day, then
 * adds whole hours, minutes and seconds to absolute time until each field matches. Two DST
 * consequences follow, and this port keeps both (they are what a real cluster does):
 *
 * - spring forward: a time inside the skipped hour never matches, so that day's run is skipped
 *   (Europe/Berlin, `30 2 * * *` on 2026-03-29: no run; the next is 2026-03-30 02:30 CEST);
 * - fall back: the repeated hour is walked twice, so a time inside it runs twice
 *   (America/New_York, `30 1 * * *` on 2026-11-01: 01:30 EDT and 01:30 EST, an hour apart).
 *
 * A schedule without a zone is read in the zone of the time it is given; the controller gives
 * UTC times (a kube-controller-manager in a container runs in UTC). Times are epoch
 * milliseconds; no match within five years is Go's zero time, {@link GO_ZERO_TIME}.
 *
 * @module
 */
import {
  type CronField,
  type CronSchedule,
  type CronSpec,
  parseCronSchedule,
  timeZoneError,
} from '../../api/kinds/batch-cronjob-schedule.js';

/** Go's zero `time.Time` (0001-01-01T00:00:00Z) in epoch milliseconds. */
export const GO_ZERO_TIME = -62_135_596_800_000;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's UTC offset (ms) at instant `t`. */
export function offsetAt(zone: string, t: number): number {
  if (zone === 'UTC') return 0;
  const at = Math.floor(t / SECOND) * SECOND;
  const p: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(at)) p[part.type] = part.value;
  const bc = p.era === 'BC' || p.era === 'B';
  const year = bc ? 1 - Number(p.year) : Number(p.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(p.month) - 1, Number(p.day));
  wall.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), 0);
  return wall.getTime() - at;
}

/** A wall-clock reading of an instant in a zone (Go's `t.In(loc)` fields). */
interface Wall {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

function wallOf(zone: string, t: number): Wall {
  const d = new Date(t + offsetAt(zone, t));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/**
 * Go's `time.Date(y, m, d, h, min, s, 0, loc)`: fields normalised (month 13 is January of the
 * next year), then the offset looked up as Go does: the one in force at the wall time read as
 * UTC, unless the result falls outside that offset's period, in which case the offset at the
 * result. A wall time in a DST gap or overlap so resolves exactly as in Go.
 */
function dateIn(zone: string, y: number, mo: number, d: number, h: number, mi = 0, s = 0): number {
  const wallDate = new Date(0);
  wallDate.setUTCFullYear(y, mo - 1, d);
  wallDate.setUTCHours(h, mi, s, 0);
  const wall = wallDate.getTime();
  const guess = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, guess);
}

function has(field: CronField, value: number): boolean {
  return field.bits[value] === true;
}

/** robfig `dayMatches`: day of month AND day of week if either is `*`, else OR. */
function dayMatches(s: CronSpec, w: Wall): boolean {
  const domMatch = has(s.dom, w.day);
  const dowMatch = has(s.dow, w.weekday);
  if (s.dom.star || s.dow.star) return domMatch && dowMatch;
  return domMatch || dowMatch;
}

/** Go's `t.AddDate(0, months, days)` in `zone`. */
function addDate(zone: string, t: number, months: number, days: number): number {
  const w = wallOf(zone, t);
  return dateIn(zone, w.year, w.month + months, w.day + days, w.hour, w.minute, w.second);
}

/** The walk's state: the candidate time, and whether a field was moved yet (robfig `added`). */
interface Walk {
  t: number;
  added: boolean;
  readonly zone: string;
}

/** Resets the candidate the first time a field moves (the current time no longer matters). */
function resetOnce(w: Walk, reset: (wall: Wall) => number): void {
  if (w.added) return;
  w.added = true;
  w.t = reset(wallOf(w.zone, w.t));
}

/** robfig's month loop; true when it wrapped into a new year (start the walk again). */
function walkMonths(s: CronSpec, w: Walk): boolean {
  while (!has(s.month, wallOf(w.zone, w.t).month)) {
    resetOnce(w, (x) => dateIn(w.zone, x.year, x.month, 1, 0));
    w.t = addDate(w.zone, w.t, 1, 0);
    if (wallOf(w.zone, w.t).month === 1) return true;
  }
  return false;
}

function walkDays(s: CronSpec, w: Walk): boolean {
  while (!dayMatches(s, wallOf(w.zone, w.t))) {
    resetOnce(w, (x) => dateIn(w.zone, x.year, x.month, x.day, 0));
    w.t = addDate(w.zone, w.t, 0, 1);
    // Where DST moves midnight, robfig pulls the time back to (or on to) hour 0.
    const hour = wallOf(w.zone, w.t).hour;
    if (hour !== 0) w.t += hour > 12 ? (24 - hour) * HOUR : -hour * HOUR;
    if (wallOf(w.zone, w.t).day === 1) return true;
  }
  return false;
}

/** The hour, minute and second loops: add a unit of absolute time until the field matches. */
function walkUnit(
  w: Walk,
  matches: (wall: Wall) => boolean,
  reset: (wall: Wall) => number,
  unit: number,
  wrapped: (wall: Wall) => boolean,
): boolean {
  while (!matches(wallOf(w.zone, w.t))) {
    resetOnce(w, reset);
    w.t += unit;
    if (wrapped(wallOf(w.zone, w.t))) return true;
  }
  return false;
}

/** robfig `SpecSchedule.Next`, step for step (see the module comment for DST). */
function nextSpec(s: CronSpec, from: number, zone: string): number {
  const w: Walk = { t: Math.floor(from / SECOND) * SECOND + SECOND, added: false, zone };
  const yearLimit = wallOf(zone, w.t).year + 5;
  const floorTo = (unit: number) => () => Math.floor(w.t / unit) * unit;
  for (;;) {
    if (wallOf(zone, w.t).year > yearLimit) return GO_ZERO_TIME;
    if (walkMonths(s, w) || walkDays(s, w)) continue;
    const hourReset = (x: Wall) => dateIn(zone, x.year, x.month, x.day, x.hour);
    if (
      walkUnit(
        w,
        (x) => has(s.hour, x.hour),
        hourReset,
        HOUR,
        (x) => x.hour === 0,
      )
    )
      continue;
    const minute = (x: Wall) => has(s.minute, x.minute);
    if (walkUnit(w, minute, floorTo(MINUTE), MINUTE, (x) => x.minute === 0)) continue;
    const second = (x: Wall) => has(s.second, x.second);
    if (walkUnit(w, second, floorTo(SECOND), SECOND, (x) => x.second === 0)) continue;
    return w.t;
  }
}

/**
 * The first time strictly after `from` at which `schedule` fires (robfig `Next`), read in the
 * schedule's own zone (a `TZ=` prefix) or else in `zone`. {@link GO_ZERO_TIME} when there is
 * none within five years (`0 0 30 2 *`).
 */
export function nextTime(schedule: CronSchedule, from: number, zone = 'UTC'): number {
  if (schedule.kind === 'every') {
    return Math.floor(from / SECOND) * SECOND + schedule.delaySeconds * SECOND;
  }
  return nextSpec(schedule, from, schedule.location ?? zone);
}

/** What a CronJob's spec says about its schedule. */
export interface ScheduleSpec {
  readonly schedule: string;
  readonly timeZone?: string;
}

/** Why a CronJob's schedule cannot be used, with upstream's event reason. */
export interface ScheduleProblem {
  readonly reason: 'UnknownTimeZone' | 'UnparseableSchedule';
  readonly message: string;
}

/**
 * Upstream `formatSchedule` + `cron.ParseStandard`: `spec.timeZone` becomes a `TZ=` prefix
 * unless the schedule already names one (`TZ` anywhere in it: upstream then warns with
 * `UnsupportedSchedule`, reported here as `usesTZ`).
 */
export function cronJobSchedule(
  spec: ScheduleSpec,
): { schedule: CronSchedule; usesTZ: boolean } | ScheduleProblem {
  const usesTZ = spec.schedule.includes('TZ');
  if (!usesTZ && spec.timeZone !== undefined) {
    const err = timeZoneError(spec.timeZone);
    if (err !== undefined) {
      return { reason: 'UnknownTimeZone', message: `invalid timeZone: "${spec.timeZone}": ${err}` };
    }
  }
  const text =
    usesTZ || spec.timeZone === undefined || spec.timeZone === ''
      ? spec.schedule
      : `TZ=${spec.timeZone} ${spec.schedule}`;
  const parsed = parseCronSchedule(text);
  if (!parsed.ok) {
    return {
      reason: 'UnparseableSchedule',
      message: `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${parsed.error}`,
    };
  }
  return { schedule: parsed.schedule, usesTZ };
}
