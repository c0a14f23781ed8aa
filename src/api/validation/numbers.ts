/**
 * Numeric and port checks with upstream's messages (`IsValidPortNum`, `IsInRange`,
 * `IsValidPortName`, `ValidateNonnegativeField`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { IS_NEGATIVE_ERROR_MSG, inclusiveRangeError, maxLenError } from './messages.js';

/** Go's `math.MaxInt32`. */
export const MAX_INT32 = 2147483647;

/** Upstream `IsValidPortNum`: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535
    ? []
    : [inclusiveRangeError(1, 65535)];
}

/** Upstream `IsInRange` (inclusive). */
export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

const PORT_NAME_CHARSET = /^[-a-z0-9]+$/;
const PORT_NAME_LETTER = /[a-z]/;

/**
 * Upstream `IsValidPortName` (IANA service names): at most 15 characters of `[-a-z0-9]`, at
 * least one letter, no `--`, no leading or trailing `-`.
 */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!PORT_NAME_CHARSET.test(port)) {
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!PORT_NAME_LETTER.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) {
    errs.push('must not begin or end with a hyphen');
  }
  return errs;
}

/** Upstream `ValidateNonnegativeField`: `Invalid value: -1: must be greater than or equal to 0`. */
export function validateNonnegativeField(
  value: number | bigint,
  fieldPath: FieldPath,
): FieldError[] {
  return value < 0 ? [fieldErrors.invalid(fieldPath, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** Whether `v` is a JSON integer (what Go's int32/int64 fields accept). */
export function isInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

/**
 * For an optional integer field: no error when absent, `must be an integer` when present with
 * another type (upstream rejects those while decoding, as 400; here they surface as 422).
 */
export function validateOptionalInteger(v: unknown, fieldPath: FieldPath): FieldError[] {
  // A bigint is an integer beyond 2^53 (src/api/int64-json.ts): an int64 field holds it.
  if (v === undefined || v === null || isInteger(v) || typeof v === 'bigint') return [];
  return [fieldErrors.invalid(fieldPath, v, 'must be an integer')];
}
