/**
 * Go's `time.ParseDuration` grammar (`300ms`, `-1.5h`, `2h45m`; units ns, us, µs, ms, s, m, h),
 * for `format: duration` schema values. Values beyond Go's int64 nanoseconds are rejected as Go
 * rejects them.
 *
 * @module
 */

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_NANOS = 9_223_372_036_854_775_807n;
const PART = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;

export interface GoDuration {
  readonly seconds: bigint;
  readonly nanos: number;
}

/** Total nanoseconds of a Go duration string, or `undefined` when Go would reject it. */
export function parseGoDurationNanos(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  while (s.length > 0) {
    const m = PART.exec(s);
    if (!m) return undefined;
    const [whole, int = '', frac = '', unit = ''] = m;
    const scale = UNIT_NANOS[unit];
    if (scale === undefined || (int === '' && frac === '')) return undefined;
    total += BigInt(int || '0') * scale + fractionNanos(frac, scale);
    if (total > MAX_NANOS + (negative ? 1n : 0n)) return undefined;
    s = s.slice(whole.length);
  }
  return negative ? -total : total;
}

function fractionNanos(frac: string, scale: bigint): bigint {
  if (frac === '') return 0n;
  const digits = frac.slice(0, 18);
  return (BigInt(digits) * scale) / 10n ** BigInt(digits.length);
}

/** A Go duration string as seconds and nanoseconds (both carrying the sign). */
export function parseGoDuration(text: string): GoDuration | undefined {
  const total = parseGoDurationNanos(text);
  if (total === undefined) return undefined;
  return { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) };
}
