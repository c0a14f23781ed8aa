/**
 * CEL values as text: `string(duration)`, `string(timestamp)` and the `%s` verb of
 * `string.format`, in cel-go's forms (`90s`, `2024-01-01T00:00:00Z`, `[1, 2]`, `{"a": 1}`).
 *
 * @module
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { durationNanos } from './values-compare.js';

/** cel-go's duration text: seconds with up to nine fraction digits and `s`. */
export function durationText(d: Duration): string {
  const total = durationNanos(d) ?? 0n;
  const negative = total < 0n;
  const abs = negative ? -total : total;
  const secs = abs / 1_000_000_000n;
  const frac = (abs % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${secs}${frac ? `.${frac}` : ''}s`;
}

/** RFC 3339 with nanosecond precision trimmed, always UTC (`Z`), as Go's `time.RFC3339Nano`. */
export function timestampText(t: Date): string {
  const iso = t.toISOString();
  return iso.replace(/\.(\d+)Z$/, (_m, f: string) => {
    const trimmed = f.replace(/0+$/, '');
    return trimmed ? `.${trimmed}Z` : 'Z';
  });
}

/** cel-go's `string(double)`: shortest round-trip form, exponent past 1e21 as Go's `%g`. */
export function doubleText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return '+Inf';
  if (n === Number.NEGATIVE_INFINITY) return '-Inf';
  const s = String(n);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** The `%s` text of any CEL value. */
export function valueText(v: unknown, nested = false): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return nested ? JSON.stringify(v) : v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return doubleText(v);
  if (v instanceof UnsignedInt) return String(v.valueOf());
  if (v instanceof Duration) return durationText(v);
  if (v instanceof Date) return timestampText(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (Array.isArray(v)) return `[${v.map((x) => valueText(x, true)).join(', ')}]`;
  if (v instanceof Map) return mapText([...v.entries()]);
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) return mapText(Object.entries(v));
  }
  return String(v);
}

function mapText(entries: [unknown, unknown][]): string {
  const parts = entries
    .map(([k, val]) => [valueText(k, true), valueText(val, true)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, val]) => `${k}: ${val}`);
  return `{${parts.join(', ')}}`;
}
