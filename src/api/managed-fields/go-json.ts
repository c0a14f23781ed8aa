/**
 * JSON text and value ordering exactly as structured-merge-diff produces them, because both
 * end up on the wire: `k:{"name":"c"}` keys in `fieldsV1`, the manager identifiers that order
 * managedFields entries, and the last-applied annotation. Go's encoder sorts object keys and
 * escapes `<`, `>`, `&`, U+2028 and U+2029; `JSON.stringify` does neither.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../object.js';

const GO_EXTRA_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** Printable ASCII other than the quote, the backslash, `<`, `>` and `&`: written as is. */
function isPlain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26)
      return false;
  }
  return true;
}

/**
 * JSON text made HTML-safe as Go's encoder writes it. The five characters can only occur inside
 * string literals of valid JSON, so a textual replace is exact.
 */
export function goHtmlSafe(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => GO_EXTRA_ESCAPES[c] ?? c);
}

/** A string literal as Go's `encoding/json` writes it (HTML-safe). */
export function goJsonString(s: string): string {
  if (isPlain(s)) return `"${s}"`;
  return goHtmlSafe(JSON.stringify(s));
}

/** Any JSON value as Go writes a `map[string]interface{}`: keys sorted, HTML-safe strings. */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  // Anything else is an object (JSON holds no functions, symbols or bigints; those have no keys).
  const obj: JsonObject = isJsonObject(value) ? value : {};
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort(compareStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJson(obj[k])}`).join(',')}}`;
}

/** Byte-wise string order, as Go's `strings.Compare` (UTF-16 order agrees for the BMP). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * Upstream `value.Compare`: a total order over JSON values of any type. Numbers sort before
 * strings, then booleans, lists, maps and finally null.
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  // Both of one rank; each test narrows both sides.
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) return compareLists(a, b);
  if (isJsonObject(a) && isJsonObject(b)) return compareMaps(a, b);
  return 0;
}

function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (typeof v === 'object' && v !== null) return 4;
  return 5;
}

function compareLists(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

function compareMaps(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ak = Object.keys(a).sort(compareStrings);
  const bk = Object.keys(b).sort(compareStrings);
  if (ak.length !== bk.length) return ak.length < bk.length ? -1 : 1;
  for (let i = 0; i < ak.length; i++) {
    const ka = ak[i];
    const kb = bk[i];
    if (ka === undefined || kb === undefined) break;
    const c = compareStrings(ka, kb);
    if (c !== 0) return c;
    const v = compareValues(a[ka], b[kb]);
    if (v !== 0) return v;
  }
  return 0;
}

/** Upstream `value.ToString`, used in conflict paths: strings quoted, maps as `k=v`. */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  const obj: JsonObject = isJsonObject(v) ? v : {};
  return Object.keys(obj)
    .map((k) => `${k}=${valueToString(obj[k])}`)
    .join('');
}
