/**
 * Upstream's message builders (`k8s.io/apimachinery/pkg/util/validation`): the exact texts a
 * kubectl user reads after `Invalid value: …:`.
 *
 * @module
 */

/**
 * Upstream `RegexError`. The quirk is kept on purpose: every example is followed by `', '`, so
 * two examples read `'a',  or 'b', regex used …` (two spaces).
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  const shown = examples.map((e) => `'${e}', `).join(' or ');
  return `${msg} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

/** Upstream `MaxLenError`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** Upstream `EmptyError`. */
export function emptyError(): string {
  return 'must be non-empty';
}

/** Upstream `InclusiveRangeError`. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Upstream `IsNegativeErrorMsg`. */
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';

/** Upstream `FieldImmutableErrorMsg`. */
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';

/** Upstream `isNotIntegerErrorMsg` (core validation). */
export const IS_NOT_INTEGER_ERROR_MSG = 'must be an integer';

/** Upstream `isNotPositiveErrorMsg` (core validation). */
export const IS_NOT_POSITIVE_ERROR_MSG = 'must be greater than zero';

/**
 * Go's `len(s)`: UTF-8 bytes, which is what every upstream length limit counts. Counted
 * without encoding (`TextEncoder.encode` allocated per call: 2 µs of a label selector's 6 µs
 * per term); a lone surrogate counts 3, as its encoding as U+FFFD does.
 */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
