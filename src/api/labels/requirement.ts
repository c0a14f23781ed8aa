/**
 * One label-selector requirement (`key op values`): construction with upstream's checks
 * (`labels.NewRequirement`), matching (`Requirement.Matches`) and the canonical text form
 * (`Requirement.String`). {@link LabelSelector} is an AND of these.
 *
 * @module
 */
import { type FieldError, fieldErrors, fieldErrorText } from '../field-error.js';
import { isQualifiedName, isValidLabelValue } from '../validation/label-names.js';

/** Upstream `selection.Operator` values, spelled as upstream spells them. */
export type LabelOperator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

/** A single, validated requirement. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Empty for `exists`/`!`; exactly one for `=`, `==`, `!=`, `gt`, `lt`. */
  readonly values: readonly string[];
}

/** The operators upstream lists in "expected: …" parse errors, in upstream's order. */
export const BINARY_OPERATORS: readonly LabelOperator[] = [
  'in',
  'notin',
  '=',
  '==',
  '!=',
  'gt',
  'lt',
];

/** Thrown for an unparsable selector string or an invalid selector object. */
export class LabelSelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorParseError';
  }
}

/**
 * Upstream `field.ErrorList.ToAggregate().Error()`: duplicates dropped, one error printed
 * alone, several printed as `[a, b]`.
 */
export function aggregateText(errors: readonly FieldError[]): string {
  const texts = [...new Set(errors.map(fieldErrorText))];
  return texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
}

/**
 * Upstream `validateLabelKey` as the parser calls it: with a nil field path, which Go prints
 * as `<nil>` (so users really see `<nil>: Invalid value: …`).
 */
export function labelKeyError(key: string, field = '<nil>'): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? undefined : fieldErrors.invalid(field, key, errs.join('; '));
}

/** Go's `strconv.ParseInt(s, 10, 64)`: optional sign, decimal digits, within int64. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return n;
}

function operatorErrors(op: LabelOperator, vals: readonly string[] | null): FieldError[] {
  const n = vals?.length ?? 0;
  // Upstream prints the slice itself as the bad value; a nil slice marshals as `null`.
  const bad = vals ?? null;
  switch (op) {
    case 'in':
    case 'notin':
      return n === 0
        ? [
            fieldErrors.invalid(
              'values',
              bad,
              "for 'in', 'notin' operators, values set can't be empty",
            ),
          ]
        : [];
    case '=':
    case '==':
    case '!=':
      return n === 1
        ? []
        : [
            fieldErrors.invalid(
              'values',
              bad,
              'exact-match compatibility requires one single value',
            ),
          ];
    case 'exists':
    case '!':
      return n === 0
        ? []
        : [
            fieldErrors.invalid(
              'values',
              bad,
              'values set must be empty for exists and does not exist',
            ),
          ];
    case 'gt':
    case 'lt':
      return gtLtErrors(vals ?? [], bad);
  }
}

function gtLtErrors(vals: readonly string[], bad: readonly string[] | null): FieldError[] {
  const errs: FieldError[] = [];
  if (vals.length !== 1) {
    errs.push(
      fieldErrors.invalid('values', bad, "for 'Gt', 'Lt' operators, exactly one value is required"),
    );
  }
  vals.forEach((v, i) => {
    if (parseInt64(v) === undefined) {
      errs.push(
        fieldErrors.invalid(
          `values[${i}]`,
          v,
          "for 'Gt', 'Lt' operators, the value must be an integer",
        ),
      );
    }
  });
  return errs;
}

/**
 * Upstream `labels.NewRequirement`: validates the key, the value count for the operator and
 * each value, and throws one {@link LabelSelectorParseError} carrying the aggregated text.
 *
 * @param vals `null` stands for Go's nil slice, which upstream prints as `null`.
 */
export function newRequirement(
  key: string,
  operator: LabelOperator,
  vals: readonly string[] | null,
): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErr = labelKeyError(key, 'key');
  if (keyErr !== undefined) errs.push(keyErr);
  errs.push(...operatorErrors(operator, vals));
  const values = vals ?? [];
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(`values[${i}][${key}]`, v, msgs.join('; ')));
  });
  if (errs.length > 0) throw new LabelSelectorParseError(aggregateText(errs));
  return { key, operator, values: [...values] };
}

function has(labels: Readonly<Record<string, string>>, key: string): boolean {
  return Object.hasOwn(labels, key);
}

function compareInts(r: LabelRequirement, actual: string): boolean {
  const lhs = parseInt64(actual);
  const [only] = r.values;
  if (lhs === undefined || r.values.length !== 1 || only === undefined) return false;
  const rhs = parseInt64(only);
  if (rhs === undefined) return false;
  return r.operator === 'gt' ? lhs > rhs : lhs < rhs;
}

/**
 * Upstream `Requirement.Matches`. `!=`/`notin` match when the key is absent; `gt`/`lt` need the
 * key present with an integer value.
 */
export function requirementMatches(
  r: LabelRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const present = has(labels, r.key);
  const actual = present ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return actual !== undefined && r.values.includes(actual);
    case 'notin':
    case '!=':
      return actual === undefined || !r.values.includes(actual);
    case 'exists':
      return present;
    case '!':
      return !present;
    case 'gt':
    case 'lt':
      return actual !== undefined && compareInts(r, actual);
  }
}

const OPERATOR_TEXT: Record<LabelOperator, string> = {
  '!': '',
  exists: '',
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
};

/**
 * Upstream `Requirement.String`: `!key`, `key`, `key=v`, `key in (a,b)`, `key>1`. Several
 * values are printed sorted without touching the requirement itself.
 */
export function requirementToString(r: LabelRequirement): string {
  if (r.operator === '!') return `!${r.key}`;
  if (r.operator === 'exists') return r.key;
  const values = r.values.length === 1 ? (r.values[0] ?? '') : [...r.values].sort().join(',');
  const body = `${r.key}${OPERATOR_TEXT[r.operator]}`;
  return r.operator === 'in' || r.operator === 'notin' ? `${body}(${values})` : `${body}${values}`;
}
