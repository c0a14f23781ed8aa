/**
 * Resource quantities (`100m`, `1Gi`, `2`, `1e3`) as upstream's `resource.Quantity`: parsing
 * with its exact errors, the canonical string form every API response shows, comparison, and
 * the round-up to milli-units that defaulting applies to resource lists.
 *
 * A quantity is held as a signed count of nano-units (10⁻⁹) plus the format its suffix chose;
 * upstream also rounds every value up to nano precision and caps it at 2⁶³−1.
 *
 * @module
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A parsed quantity. */
export interface Quantity {
  /** The value in units of 10⁻⁹ (so `1` is 1_000_000_000n). */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

/** Upstream `ErrFormatWrong`. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** Upstream `ErrSuffix`. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

/** A parsed quantity, or upstream's parse error text. */
export type QuantityResult = { ok: true; quantity: Quantity } | { ok: false; error: string };

const NANO = 1_000_000_000n;
const MAX_NANOS = (2n ** 63n - 1n) * NANO;

const BINARY_SUFFIXES: Readonly<Record<string, number>> = {
  Ki: 10,
  Mi: 20,
  Gi: 30,
  Ti: 40,
  Pi: 50,
  Ei: 60,
};
const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));
const SUFFIX_CHARS = 'eEinumkKMGTP';

interface Parts {
  negative: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** Upstream `parseQuantityString`: sign, digits, optional `.digits`, then the suffix. */
function splitQuantity(str: string): Parts | undefined {
  let pos = 0;
  let negative = false;
  if (str[0] === '-' || str[0] === '+') {
    negative = str[0] === '-';
    pos++;
  }
  while (pos < str.length && str[pos] === '0') pos++;
  const numStart = pos;
  while (pos < str.length && isDigit(str[pos])) pos++;
  const num = str.slice(numStart, pos);
  let denom = '';
  if (str[pos] === '.') {
    const start = ++pos;
    while (pos < str.length && isDigit(str[pos])) pos++;
    denom = str.slice(start, pos);
  }
  const suffixStart = pos;
  while (pos < str.length && SUFFIX_CHARS.includes(str[pos] ?? '')) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < str.length && isDigit(str[pos])) pos++;
  if (pos < str.length) return undefined;
  return { negative, num, denom, suffix: str.slice(suffixStart) };
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** Upstream `suffixer.interpret`: base, exponent and format of a suffix. */
function interpretSuffix(
  s: string,
): { base: 2 | 10; exp: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(BINARY_SUFFIXES, s)) {
    return { base: 2, exp: BINARY_SUFFIXES[s] ?? 0, format: 'BinarySI' };
  }
  if (Object.hasOwn(DECIMAL_SUFFIXES, s)) {
    return { base: 10, exp: DECIMAL_SUFFIXES[s] ?? 0, format: 'DecimalSI' };
  }
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    return { base: 10, exp: Number.parseInt(s.slice(1), 10), format: 'DecimalExponent' };
  }
  return undefined;
}

/** Upstream `ParseQuantity`. Numbers (YAML `cpu: 1`) are read through their decimal text. */
export function parseQuantity(input: string | number): QuantityResult {
  const str = typeof input === 'number' ? String(input) : input;
  if (str.length === 0) return { ok: false, error: QUANTITY_FORMAT_ERROR };
  const parts = splitQuantity(str);
  if (parts === undefined) return { ok: false, error: QUANTITY_FORMAT_ERROR };
  const suffix = interpretSuffix(parts.suffix);
  if (suffix === undefined) return { ok: false, error: QUANTITY_SUFFIX_ERROR };
  const digits = BigInt(`${parts.num}${parts.denom}` || '0');
  let magnitude = scaleToNanos(digits, parts.denom.length, suffix.base, suffix.exp);
  if (magnitude > MAX_NANOS) magnitude = MAX_NANOS;
  let format = suffix.format;
  // Upstream: a binary value between 0 and 1 is shown in decimal, to avoid rounding.
  if (format === 'BinarySI' && magnitude > 0n && magnitude < NANO) format = 'DecimalSI';
  return { ok: true, quantity: { nanos: parts.negative ? -magnitude : magnitude, format } };
}

/** digits × 10^-fracLen × base^exp, in nano-units, rounded up (as upstream rounds to nano). */
function scaleToNanos(digits: bigint, fracLen: number, base: 2 | 10, exp: number): bigint {
  if (digits === 0n) return 0n;
  let tenExp = 9 - fracLen;
  let value = digits;
  if (base === 2) value *= 2n ** BigInt(exp);
  else tenExp += exp;
  // Anything this large is capped anyway; anything this small rounds up to one nano-unit.
  if (tenExp > 40) return MAX_NANOS + 1n;
  if (tenExp >= 0) return value * 10n ** BigInt(tenExp);
  if (tenExp < -60) return 1n;
  const div = 10n ** BigInt(-tenExp);
  return (value + div - 1n) / div;
}

/** Parses or throws; for values the caller already validated. */
export function mustParseQuantity(input: string | number): Quantity {
  const r = parseQuantity(input);
  if (!r.ok) throw new Error(`cannot parse '${String(input)}': ${r.error}`);
  return r.quantity;
}

/** Upstream `Quantity.Cmp`: -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** Upstream `Quantity.RoundUp(-3)` as `SetDefaults_ResourceList` applies it: away from zero. */
export function roundUpToMilli(q: Quantity): Quantity {
  const milli = 1_000_000n;
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  const rounded = ((abs + milli - 1n) / milli) * milli;
  return { nanos: q.nanos < 0n ? -rounded : rounded, format: q.format };
}

function removeFactors(value: bigint, base: bigint): { amount: bigint; times: number } {
  let amount = value;
  let times = 0;
  while (amount >= base && amount % base === 0n) {
    amount /= base;
    times++;
  }
  return { amount, times };
}

/** Upstream `Quantity.String()` (`CanonicalizeBytes`): e.g. `1500m`, `2k`, `1536Mi`, `1e3`. */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const negative = q.nanos < 0n;
  const abs = negative ? -q.nanos : q.nanos;
  const sign = negative ? '-' : '';
  const binary = q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n;
  if (binary) {
    const { amount, times } = removeFactors(abs / NANO, 1024n);
    return `${sign}${amount}${BINARY_BY_EXPONENT.get(times * 10) ?? ''}`;
  }
  let { amount, times } = removeFactors(abs, 10n);
  let exponent = times - 9;
  // Upstream keeps the exponent a multiple of three, so the mantissa grows instead.
  const rem = ((exponent % 3) + 3) % 3;
  amount *= 10n ** BigInt(rem);
  exponent -= rem;
  if (q.format === 'DecimalExponent') {
    return `${sign}${amount}${exponent === 0 ? '' : `e${exponent}`}`;
  }
  return `${sign}${amount}${DECIMAL_BY_EXPONENT.get(exponent) ?? ''}`;
}

/** The canonical string of a JSON quantity, or undefined when it does not parse. */
export function canonicalQuantity(v: unknown, roundMilli = false): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = parseQuantity(v);
  if (!r.ok) return undefined;
  return formatQuantity(roundMilli ? roundUpToMilli(r.quantity) : r.quantity);
}
