/**
 * Ages as kubectl shows them, after upstream `k8s.io/apimachinery/pkg/util/duration`
 * (`HumanDuration`, `ShortHumanDuration`) and the printers' `translateTimestampSince`:
 * `45s`, `2m5s`, `15m`, `3h20m`, `10h`, `3d4h`, `45d`, `2y30d`, `9y`. Durations are in
 * milliseconds; Go truncates toward zero at every step, so does this.
 *
 * @module
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Upstream `HumanDuration`: about 2–3 significant figures. Up to 2 s in the future is "now". */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** Upstream `ShortHumanDuration`: one unit only (`59s`, `59m`, `23h`, `364d`, `1y`). */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** Go's zero `time.Time` (0001-01-01T00:00:00Z), which `IsZero` reports as unset. */
export const GO_ZERO_TIME = -62_135_596_800_000;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The value of `n` ASCII digits at `at`, or -1 when one of them is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** The offset of `Z`, `+hh:mm` or `-hh:mm` ending `s` at `at`, in ms; undefined when malformed. */
function zoneOffset(s: string, at: number): number | undefined {
  if (s.length === at + 1 && s[at] === 'Z') return 0;
  const sign = s[at] === '+' ? 1 : s[at] === '-' ? -1 : 0;
  if (sign === 0 || s.length !== at + 6 || s[at + 3] !== ':') return undefined;
  const oh = digits(s, at + 1, 2);
  const om = digits(s, at + 4, 2);
  if (oh < 0 || om < 0 || oh > 23 || om > 59) return undefined;
  return sign * (oh * HOUR + om * MINUTE);
}

function separatorsOk(s: string): boolean {
  return s[4] === '-' && s[7] === '-' && s[10] === 'T' && s[13] === ':' && s[16] === ':';
}

/**
 * Go `time.Parse(time.RFC3339, s)` (fractional seconds allowed): epoch milliseconds, or
 * `undefined` when the text is not a valid timestamp; fractions below a millisecond are
 * dropped. Hand-rolled because every Table row parses at least one timestamp.
 */
export function parseRfc3339(s: string): number | undefined {
  if (s.length < 20 || !separatorsOk(s)) return undefined;
  const [year, month, day] = [digits(s, 0, 4), digits(s, 5, 2), digits(s, 8, 2)];
  const [hour, minute, second] = [digits(s, 11, 2), digits(s, 14, 2), digits(s, 17, 2)];
  if (year < 0 || month < 1 || month > 12 || day < 1) return undefined;
  if (day > (month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0))) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59)
    return undefined;
  let at = 19;
  let fraction = 0;
  if (s[at] === '.') {
    let end = at + 1;
    while (end < s.length && s.charCodeAt(end) >= 48 && s.charCodeAt(end) <= 57) end++;
    if (end === at + 1) return undefined;
    fraction = Math.floor(Number(`0.${s.slice(at + 1, end)}`) * 1000);
    at = end;
  }
  const offset = zoneOffset(s, at);
  if (offset === undefined) return undefined;
  const days = daysFromCivil(year, month, day);
  return days * 24 * HOUR + hour * HOUR + minute * MINUTE + second * SECOND + fraction - offset;
}

/**
 * Upstream `translateTimestampSince`: the age of a metav1.Time, `<unknown>` when it is unset
 * (absent, null, empty). A value that is not a timestamp is treated as unset too (Go could
 * not have decoded such an object at all).
 */
export function translateTimestampSince(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const t = parseRfc3339(timestamp);
  if (t === undefined || t === GO_ZERO_TIME) return '<unknown>';
  return humanDuration(now.getTime() - t);
}
