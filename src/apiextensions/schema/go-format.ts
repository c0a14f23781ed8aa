/**
 * Go's `fmt` renderings that end up inside upstream validation messages: `%v` of a float64
 * (`1e+06`, not `1000000`), `%q` of a string, and the kind of a decoded JSON number. The API
 * server decodes integral JSON numbers as int64 and the rest as float64, and kube-openapi's
 * messages differ between the two (`should be less than or equal to 10` for both, but
 * `should be a multiple of 1.5` only on the float path).
 *
 * @module
 */

/** Whether a decoded JSON number is an int64 in Go (integral and within int64's range). */
export function isGoInt(v: number): boolean {
  return Number.isInteger(v) && Math.abs(v) < 2 ** 63;
}

/**
 * Go's `%v` of a float64 (`strconv` `'g'` with the shortest precision): exponent form when the
 * decimal exponent is below -4 or at least 6, e.g. `1.5`, `123456`, `1.234567e+06`, `1e-05`.
 */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const exp = Math.floor(Math.log10(Math.abs(v)));
  if (exp < -4 || exp >= 6) return goExponent(v);
  return String(v);
}

/** `1e+21`, `1.5e-07`: JS exponent form with Go's at-least-two-digit exponent. */
function goExponent(v: number): string {
  const [mantissa = '', exponent = '0'] = v.toExponential().split('e');
  const sign = exponent.startsWith('-') ? '-' : '+';
  const digits = exponent.replace(/^[+-]/, '').padStart(2, '0');
  return `${mantissa}e${sign}${digits}`;
}

/** Go's `%v` of a decoded JSON number: int64s print as integers, float64s as {@link goFloat}. */
export function goNumber(v: number): string {
  return isGoInt(v) && Math.abs(v) < 1e21 ? String(v) : goFloat(v);
}

/** Go's `%q` of a string (close enough: JSON escaping, which agrees for printable text). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's `%v` of a value inside a message: strings bare, numbers as Go prints them. */
export function goValue(v: unknown): string {
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '<nil>';
  return JSON.stringify(v);
}

/** Number of Unicode code points (Go's `utf8.RuneCountInString`). */
export function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
