/**
 * How Go prints the values a JSONPath finds, so output and error texts match upstream:
 * `fmt.Fprint` for scalars (`%v`: floats as `1e-05`, `1.5e+21`), `encoding/json` for maps
 * and lists (keys sorted, `<`, `>`, `&` escaped), and Go type names in errors
 * (`map[string]interface {} is not array or slice`).
 *
 * @module
 */
import { isJsonObject } from '../object.js';
import { FloatLiteral } from './compare.js';

/** Go `strconv.FormatFloat(x, 'g', -1, 64)` as `%v` uses it: exponent form below 1e-4 and from 1e21. */
export function goFormatFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa = '0', exp = '0'] = x.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 21) {
    const sign = e < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return x.toString();
}

/** The Go type name a decoded JSON value has (`encoding/json` into `interface{}`, ints as int64). */
export function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof FloatLiteral) return 'float64';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object' && v !== null) return 'map[string]interface {}';
  return '<nil>';
}

/** Go `%v` of a decoded JSON value (maps print with sorted keys: `map[a:1 b:[x y]]`). */
export function goFormatV(v: unknown): string {
  if (v === null) return '<nil>';
  if (typeof v === 'symbol') return '<invalid reflect.Value>';
  if (v instanceof FloatLiteral) return goFormatFloat(v.value);
  if (typeof v === 'number') return goFormatFloat(v);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goFormatV).join(' ')}]`;
  if (isJsonObject(v)) {
    const entries = Object.keys(v)
      .sort()
      .map((k) => `${k}:${goFormatV(v[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(v);
}

const JSON_HTML_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** Go `json.Marshal` of decoded JSON: object keys sorted, HTML characters escaped. */
export function goJsonMarshal(v: unknown): string {
  return JSON.stringify(sortKeys(v)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => JSON_HTML_ESCAPES[c] ?? c,
  );
}

function sortKeys(v: unknown): unknown {
  if (v instanceof FloatLiteral) return v.value;
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isJsonObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
    return out;
  }
  return v;
}

/**
 * Upstream `PrintResults` for one result list: maps and lists as JSON, scalars as `%v`,
 * JSON null as `<nil>`, no value as `<no value>`; values separated by one space.
 */
export function printResults(results: readonly unknown[]): string {
  return results.map(printValue).join(' ');
}

export function printValue(v: unknown): string {
  if (typeof v === 'symbol') return '<no value>';
  if (typeof v === 'object' && v !== null && !(v instanceof FloatLiteral)) return goJsonMarshal(v);
  return goFormatV(v);
}
