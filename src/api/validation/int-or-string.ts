/**
 * IntOrString values (`maxSurge: 25%`, `maxUnavailable: 1`, `minAvailable`): upstream's
 * `ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`, `getIntOrPercentValue` and
 * `intstr.GetScaledValueFromIntOrPercent`.
 *
 * In JSON an IntOrString is a number or a string; anything else is not one.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { regexError } from './messages.js';
import { validateNonnegativeField } from './numbers.js';

/** A decoded IntOrString. */
export type IntOrString = number | string;

const PERCENT_FMT = '[0-9]+%';
const PERCENT_RE = new RegExp(`^${PERCENT_FMT}$`);
const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%'";

/** Upstream `IsValidPercent`. */
export function isValidPercent(percent: string): string[] {
  return PERCENT_RE.test(percent) ? [] : [regexError(PERCENT_MSG, PERCENT_FMT, '1%', '93%')];
}

/** Whether `v` can be an IntOrString at all. */
export function isIntOrString(v: unknown): v is IntOrString {
  return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
}

/**
 * Upstream `ValidatePositiveIntOrPercent`: a string must be a percent, a number must be ≥ 0.
 * (Upstream prints IntOrString values unquoted; here a string value is quoted by the field
 * error formatter.)
 */
export function validatePositiveIntOrPercent(value: unknown, fieldPath: FieldPath): FieldError[] {
  if (typeof value === 'string') {
    return isValidPercent(value).map((msg) => fieldErrors.invalid(fieldPath, value, msg));
  }
  if (typeof value === 'number' && Number.isInteger(value)) {
    return validateNonnegativeField(value, fieldPath);
  }
  // Upstream's literal text: the `%%` is not a format verb there, so it is printed as is.
  return [fieldErrors.invalid(fieldPath, value, "must be an integer or percentage (e.g '5%%')")];
}

/** Upstream `getPercentValue`: the number of a valid percent string. */
export function getPercentValue(value: unknown): number | undefined {
  if (typeof value !== 'string' || isValidPercent(value).length > 0) return undefined;
  return Number.parseInt(value.slice(0, -1), 10);
}

/**
 * Upstream `getIntOrPercentValue`: a percent's number, an int's value, and for any other
 * string Go's `IntValue()` (its integer parse, or 0).
 */
export function getIntOrPercentValue(value: unknown): number {
  const pct = getPercentValue(value);
  if (pct !== undefined) return pct;
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string' && /^[+-]?[0-9]+$/.test(value)) return Number.parseInt(value, 10);
  return 0;
}

/** Upstream `IsNotMoreThan100Percent`: only percents are checked. */
export function isNotMoreThan100Percent(value: unknown, fieldPath: FieldPath): FieldError[] {
  const pct = getPercentValue(value);
  if (pct === undefined || pct <= 100) return [];
  return [fieldErrors.invalid(fieldPath, value, 'must not be greater than 100%')];
}

/**
 * Upstream `intstr.GetScaledValueFromIntOrPercent`: an int as is; a percent of `total`,
 * rounded up or down.
 *
 * @throws {Error} for a string that is not a percent, with upstream's text.
 */
export function getScaledValueFromIntOrPercent(
  value: IntOrString,
  total: number,
  roundUp: boolean,
): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) throw new Error(`invalid type: string is not a percentage`);
  const digits = value.slice(0, -1);
  if (!/^[+-]?[0-9]+$/.test(digits))
    throw new Error(`invalid value for IntOrString: invalid value "${value}"`);
  const scaled = (Number.parseInt(digits, 10) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
