/**
 * JSON values as upstream's strategic merge patch sees them: decoded by the API server into Go
 * `interface{}` values (`map[string]interface {}`, `[]interface {}`, `string`, `bool`, `int64`
 * for integers because the server decodes with "preserve ints", `float64` otherwise, `nil`).
 *
 * Two things depend on those Go types. The algorithm compares *types* (a patch value whose type
 * differs from the original's replaces it; a list's elements must all share one type), and the
 * error messages print values with Go's `%v` (`map[image:nginx]`, `[a b]`) and type names
 * (`[]interface {}`), which kubectl shows verbatim as `Error from server: …`.
 *
 * @module
 */

export type JsonObject = Record<string, unknown>;

/** The Go dynamic type of a decoded JSON value, as `reflect.TypeOf(v).String()` names it. */
export type GoType =
  | 'map[string]interface {}'
  | '[]interface {}'
  | 'string'
  | 'bool'
  | 'int64'
  | 'float64'
  | '<nil>';

export const GO_MAP: GoType = 'map[string]interface {}';
export const GO_SLICE: GoType = '[]interface {}';

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether every element of a list is a map (what `sliceElementType` answering a map means). */
export function isJsonObjectList(list: readonly unknown[]): list is readonly JsonObject[] {
  return list.every(isJsonObject);
}

export function goType(v: unknown): GoType {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return GO_SLICE;
  switch (typeof v) {
    case 'object':
      return GO_MAP;
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    default:
      return '<nil>';
  }
}

/** `reflect.TypeOf(v)` printed with `%s`: a nil type prints as `%!s(<nil>)`. */
export function goTypeName(v: unknown): string {
  const t = goType(v);
  return t === '<nil>' ? '%!s(<nil>)' : t;
}

/**
 * Go's `strconv.FormatFloat(f, 'g', -1, 64)`, which `%v` uses: shortest digits, exponent form
 * when the decimal exponent is below -4 or at least 6 (1234567.5 → `1.2345675e+06`).
 */
function goFloat(f: number): string {
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : f < 0 ? '-Inf' : 'NaN';
  if (f === 0) return '0';
  const [mantissa = '0', exponent = '0'] = f.toExponential().split('e');
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}

/** Go's `%v` of a decoded JSON value; maps print with sorted keys, as `fmt` does. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isJsonObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValue(v[k])}`).join(' ')}]`;
  }
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  return String(v);
}

/** Go's `%s` of a value: strings print as-is, anything else as `%!s(type=value)`. */
export function goString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (isJsonObject(v) || Array.isArray(v)) return goValue(v);
  return `%!s(${goType(v)}=${goValue(v)})`;
}

/** Go's `==` on two decoded values, for the primitives merge keys and sets hold. */
export function goEqual(a: unknown, b: unknown): boolean {
  return goType(a) === goType(b) && a === b;
}

/** `reflect.DeepEqual` on decoded JSON values (slices are ordered, maps are not). */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return goType(a) === goType(b);
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqualJson(x, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && deepEqualJson(a[k], b[k]));
  }
  return false;
}
