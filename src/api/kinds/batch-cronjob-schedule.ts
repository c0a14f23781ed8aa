/**
 * The cron schedule syntax CronJobs accept: a port of the parser of robfig/cron v3
 * (`cron.ParseStandard`), which upstream's validation and CronJob controller both use, with its
 * exact error texts (they reach users in 422s and events). Five fields (minute, hour, day of
 * month, month, day of week) with `*`, `?`, lists, ranges, steps (`N/step` means `N-max/step`)
 * and case-insensitive names (`jan`…`dec`, `sun`…`sat`; day of week is 0–6, so `7` is out of
 * range); the descriptors `@yearly`/`@annually`, `@monthly`, `@weekly`, `@daily`/`@midnight`,
 * `@hourly` and `@every <Go duration>`; an optional `TZ=<zone> ` or `CRON_TZ=<zone> ` prefix.
 *
 * No npm cron library was used: the two checked (croner 11, cron-parser 5) reject `@every`, the
 * `TZ=` prefix and `N/step`, accept day-of-week 7, and handle DST gaps and overlaps differently
 * from robfig (`src/controllers/cronjob/schedule.ts` computes the times as robfig does).
 *
 * It lives in `api` because validation needs it and `api` may not import `controllers`.
 *
 * @module
 */

/** One field's allowed values, as robfig's bit set; `star` when written `*`/`?` (or `*`/1). */
export interface CronField {
  readonly bits: readonly boolean[];
  readonly star: boolean;
}

/** A parsed five-field schedule (seconds are always 0, as the standard parser fills them). */
export interface CronSpec {
  readonly kind: 'spec';
  readonly second: CronField;
  readonly minute: CronField;
  readonly hour: CronField;
  readonly dom: CronField;
  readonly month: CronField;
  readonly dow: CronField;
  /** The zone of a `TZ=`/`CRON_TZ=` prefix; undefined means "the zone of the time given". */
  readonly location?: string;
}

/** `@every <duration>`: a fixed delay in whole seconds (at least 1), robfig's `Every`. */
export interface CronEvery {
  readonly kind: 'every';
  readonly delaySeconds: number;
  readonly location?: string;
}

export type CronSchedule = CronSpec | CronEvery;

export type ParseResult =
  | { readonly ok: true; readonly schedule: CronSchedule }
  | { readonly ok: false; readonly error: string };

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTH_NAMES = Object.fromEntries(
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map(
    (n, i) => [n, i + 1],
  ),
);
const DOW_NAMES = Object.fromEntries(
  ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((n, i) => [n, i]),
);

const SECONDS: Bounds = { min: 0, max: 59 };
const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: MONTH_NAMES };
const DOW: Bounds = { min: 0, max: 6, names: DOW_NAMES };

class CronSyntaxError extends Error {}

function fieldOf(bits: boolean[], star: boolean): CronField {
  return { bits, star };
}

function bitsOf(min: number, max: number, step: number): boolean[] {
  const bits: boolean[] = new Array(64).fill(false);
  for (let i = min; i <= max; i += step) bits[i] = true;
  return bits;
}

function range(min: number, max: number, step: number, star = false): CronField {
  return fieldOf(bitsOf(min, max, step), star);
}

/** Go's `strconv.Atoi` with its error text. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s))
    throw new CronSyntaxError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const big = BigInt(s);
  if (big > 9_223_372_036_854_775_807n || big < -9_223_372_036_854_775_808n)
    throw new CronSyntaxError(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return Number(big);
}

function mustParseInt(expr: string): number {
  let n: number;
  try {
    n = atoi(expr);
  } catch (e) {
    throw new CronSyntaxError(`failed to parse int from ${expr}: ${(e as Error).message}`);
  }
  if (n < 0) throw new CronSyntaxError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

function checkRange(expr: string, r: Bounds, start: number, end: number, step: number): void {
  if (start < r.min)
    throw new CronSyntaxError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max)
    throw new CronSyntaxError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end)
    throw new CronSyntaxError(
      `beginning of range (${start}) beyond end of range (${end}): ${expr}`,
    );
  if (step === 0) throw new CronSyntaxError(`step of range should be a positive number: ${expr}`);
}

/** robfig `getRange`: `*`, `?`, `N`, `N-M`, each optionally `/step`. */
function getRange(expr: string, r: Bounds): { bits: boolean[]; star: boolean } {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? '', r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', r.names);
    else throw new CronSyntaxError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] ?? '');
    if (singleDigit) end = r.max;
    if (step > 1) star = false;
  } else if (rangeAndStep.length > 2) {
    throw new CronSyntaxError(`too many slashes: ${expr}`);
  }
  checkRange(expr, r, start, end, step);
  return { bits: bitsOf(start, end, step), star };
}

/** robfig `getField`: a comma list (empty items dropped, as Go's `FieldsFunc`). */
function getField(field: string, r: Bounds): CronField {
  const bits: boolean[] = new Array(64).fill(false);
  let star = false;
  for (const expr of field.split(',').filter((s) => s !== '')) {
    const one = getRange(expr, r);
    one.bits.forEach((b, i) => {
      if (b) bits[i] = true;
    });
    star ||= one.star;
  }
  return fieldOf(bits, star);
}

const ALL_DAYS = (): CronField => range(DOM.min, DOM.max, 1, true);
const ALL_DOW = (): CronField => range(DOW.min, DOW.max, 1, true);
const ALL_MONTHS = (): CronField => range(MONTHS.min, MONTHS.max, 1, true);
const ZERO = (): CronField => range(0, 0, 1);

function descriptor(spec: string, location: string | undefined): CronSchedule {
  const at = (hour: CronField, dom: CronField, month: CronField, dow: CronField): CronSpec => ({
    kind: 'spec',
    second: ZERO(),
    minute: ZERO(),
    hour,
    dom,
    month,
    dow,
    ...(location === undefined ? {} : { location }),
  });
  switch (spec) {
    case '@yearly':
    case '@annually':
      return at(ZERO(), range(1, 1, 1), range(1, 1, 1), ALL_DOW());
    case '@monthly':
      return at(ZERO(), range(1, 1, 1), ALL_MONTHS(), ALL_DOW());
    case '@weekly':
      return at(ZERO(), ALL_DAYS(), ALL_MONTHS(), range(0, 0, 1));
    case '@daily':
    case '@midnight':
      return at(ZERO(), ALL_DAYS(), ALL_MONTHS(), ALL_DOW());
    case '@hourly':
      return at(range(HOURS.min, HOURS.max, 1, true), ALL_DAYS(), ALL_MONTHS(), ALL_DOW());
  }
  const every = '@every ';
  if (spec.startsWith(every)) {
    const seconds = parseGoDuration(spec.slice(every.length), spec);
    // robfig `Every`: at least one second, whole seconds.
    const delaySeconds = seconds < 1 ? 1 : Math.floor(seconds);
    return { kind: 'every', delaySeconds, ...(location === undefined ? {} : { location }) };
  }
  throw new CronSyntaxError(`unrecognized descriptor: ${spec}`);
}

const DURATION_UNITS: Readonly<Record<string, number>> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/** Go's `time.ParseDuration`, in seconds, with its error texts (wrapped as robfig wraps them). */
function parseGoDuration(text: string, spec: string): number {
  const fail = (why: string): never => {
    throw new CronSyntaxError(`failed to parse duration ${spec}: time: ${why}`);
  };
  const quoted = JSON.stringify(text);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') fail(`invalid duration ${quoted}`);
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s)?.[0] ?? '';
    if (num === '' || num === '.') fail(`invalid duration ${quoted}`);
    s = s.slice(num.length);
    const unit = /^[^\d.]*/.exec(s)?.[0] ?? '';
    if (unit === '') fail(`missing unit in duration ${quoted}`);
    const factor = DURATION_UNITS[unit];
    if (factor === undefined) fail(`unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    total += Number(num) * (factor ?? 0);
  }
  // Go's duration is an int64 of nanoseconds: about 292 years.
  if (total > 9_223_372_036.854_776) fail(`invalid duration ${quoted}`);
  return sign * total;
}

/** `cron.ParseStandard(spec)`: the schedule, or robfig's error text. */
export function parseCronSchedule(input: string): ParseResult {
  try {
    return { ok: true, schedule: parseOrThrow(input) };
  } catch (e) {
    if (e instanceof CronSyntaxError) return { ok: false, error: e.message };
    throw e;
  }
}

function parseOrThrow(input: string): CronSchedule {
  if (input.length === 0) throw new CronSyntaxError('empty spec string');
  let spec = input;
  let location: string | undefined;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const name = spec.slice(spec.indexOf('=') + 1, space < 0 ? spec.length : space);
    const known = timeZoneError(name);
    if (known !== undefined || space < 0)
      throw new CronSyntaxError(
        `provided bad location ${name}: ${known ?? `unknown time zone ${name}`}`,
      );
    location = name;
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) return descriptor(spec, location);
  const fields = spec.split(/[ \t\n\r\v\f]+/).filter((f) => f !== '');
  if (fields.length !== 5)
    throw new CronSyntaxError(
      `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`,
    );
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  return {
    kind: 'spec',
    second: getField('0', SECONDS),
    minute: getField(minute, MINUTES),
    hour: getField(hour, HOURS),
    dom: getField(dom, DOM),
    month: getField(month, MONTHS),
    dow: getField(dow, DOW),
    ...(location === undefined ? {} : { location }),
  };
}

let knownZones: ReadonlyMap<string, string> | undefined;

/** Canonical zone names by lower case, to refuse a name in the wrong case as Go's loader does. */
function zonesByLowerCase(): ReadonlyMap<string, string> {
  knownZones ??= new Map(
    [...Intl.supportedValuesOf('timeZone'), 'UTC'].map((z) => [z.toLowerCase(), z]),
  );
  return knownZones;
}

/**
 * Go's `time.LoadLocation(name)` error text (`unknown time zone X`), or undefined when the
 * zone is known: `UTC`, and the IANA names (and their aliases) of Node's ICU time zone data.
 * The data differs from Go's embedded tzdata only where one of them is newer.
 */
export function timeZoneError(name: string): string | undefined {
  if (name === '' || name === 'UTC') return undefined;
  const canonical = zonesByLowerCase().get(name.toLowerCase());
  if (canonical !== undefined && canonical !== name) return `unknown time zone ${name}`;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return undefined;
  } catch {
    return `unknown time zone ${name}`;
  }
}
