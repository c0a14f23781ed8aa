/**
 * Label selectors as the API server uses them: the `labelSelector` query parameter
 * (`labels.Parse`), `spec.selector` objects (`metav1.LabelSelectorAsSelector`,
 * `FormatLabelSelector`, `ValidateLabelSelector`) and matching against object labels.
 *
 * Everything here is pure. Parse failures throw {@link LabelSelectorParseError} whose message is
 * upstream's text (the API answers it as 400 BadRequest); object validation returns field errors.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isQualifiedName, isValidLabelValue } from '../validation/label-names.js';
import { parseRequirements } from './parser.js';
import {
  type LabelOperator,
  type LabelRequirement,
  LabelSelectorParseError,
  newRequirement,
  requirementMatches,
  requirementToString,
} from './requirement.js';

export { type LabelOperator, type LabelRequirement, LabelSelectorParseError };

/** Object labels as read from `metadata.labels` (absent labels behave as an empty map). */
export type Labels = Readonly<Record<string, string>> | undefined | null;

/** The API type `metav1.LabelSelectorRequirement` (`spec.selector.matchExpressions[]`). */
export interface LabelSelectorRequirementObject {
  readonly key: string;
  /** `In`, `NotIn`, `Exists` or `DoesNotExist`; anything else is rejected. */
  readonly operator: string;
  readonly values?: readonly string[] | null;
}

/** The API type `metav1.LabelSelector` (`spec.selector`). */
export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly LabelSelectorRequirementObject[] | null;
}

/** Upstream `metav1.LabelSelectorValidationOptions`. */
export interface LabelSelectorValidationOptions {
  /** Skip label-value checks on `matchExpressions[].values` (kept for old, invalid objects). */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

const EMPTY_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * An AND of requirements, kept sorted by key as upstream keeps them (the sort is stable, so
 * requirements on the same key keep their input order, as upstream's insertion sort does for
 * the small lists seen in practice).
 */
export class LabelSelector {
  static readonly #everything = new LabelSelector([], false);
  static readonly #nothing = new LabelSelector([], true);

  readonly requirements: readonly LabelRequirement[];
  /** True only for the selector of a nil `spec.selector`, which matches no object at all. */
  readonly matchesNothing: boolean;

  private constructor(requirements: readonly LabelRequirement[], matchesNothing: boolean) {
    this.requirements = Object.freeze(
      [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    );
    this.matchesNothing = matchesNothing;
  }

  /** A selector over the given requirements (sorted by key). */
  static of(requirements: readonly LabelRequirement[]): LabelSelector {
    return requirements.length === 0
      ? LabelSelector.#everything
      : new LabelSelector(requirements, false);
  }

  /** Upstream `labels.Everything()`: matches every object. */
  static everything(): LabelSelector {
    return LabelSelector.#everything;
  }

  /** Upstream `labels.Nothing()`: matches no object; its string form is empty. */
  static nothing(): LabelSelector {
    return LabelSelector.#nothing;
  }

  /** True when every requirement holds for `labels` (absent labels are an empty map). */
  matches(labels: Labels): boolean {
    if (this.matchesNothing) return false;
    const set = labels ?? EMPTY_LABELS;
    return this.requirements.every((r) => requirementMatches(r, set));
  }

  /** True when the selector does not restrict anything (upstream `Empty()`). */
  isEmpty(): boolean {
    return !this.matchesNothing && this.requirements.length === 0;
  }

  /**
   * Upstream `RequiresExactMatch`: the value the first requirement on `key` pins, if it is an
   * `=`, `==` or single-valued `in`.
   */
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (r === undefined || r.values.length !== 1) return undefined;
    return r.operator === '=' || r.operator === '==' || r.operator === 'in'
      ? r.values[0]
      : undefined;
  }

  /** Canonical string form, e.g. `app=web,tier in (a,b),!canary`, requirements sorted by key. */
  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
}

/**
 * Parses the `labelSelector` query syntax (`labels.Parse`): `key`, `!key`, `key=v`, `key==v`,
 * `key!=v`, `key in (a,b)`, `key notin (a,b)`, `key>1`, `key<5`, joined by commas. The empty
 * string selects everything.
 *
 * @throws {LabelSelectorParseError} with upstream's message, e.g.
 *   `unable to parse requirement: found '', expected: identifier`.
 */
export function parseLabelSelector(text: string): LabelSelector {
  return LabelSelector.of(parseRequirements(text));
}

const OBJECT_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

function expressionRequirement(expr: LabelSelectorRequirementObject): LabelRequirement {
  const op = Object.hasOwn(OBJECT_OPERATORS, expr.operator)
    ? OBJECT_OPERATORS[expr.operator]
    : undefined;
  if (op === undefined) {
    throw new LabelSelectorParseError(
      `${JSON.stringify(expr.operator)} is not a valid pod selector operator`,
    );
  }
  // Go copies the values into a fresh slice; an empty list becomes nil and prints as `null`.
  const values = expr.values && expr.values.length > 0 ? expr.values : null;
  return newRequirement(expr.key, op, values);
}

/**
 * Upstream `metav1.LabelSelectorAsSelector`: `null`/`undefined` matches nothing, `{}` matches
 * everything, `matchLabels` become `=` requirements and `matchExpressions` their operators.
 *
 * @throws {LabelSelectorParseError} with upstream's text for an invalid key, value or operator.
 */
export function labelSelectorFromObject(
  sel: LabelSelectorObject | null | undefined,
): LabelSelector {
  if (sel === null || sel === undefined) return LabelSelector.nothing();
  const labels = Object.entries(sel.matchLabels ?? {});
  const expressions = sel.matchExpressions ?? [];
  if (labels.length + expressions.length === 0) return LabelSelector.everything();
  const requirements = labels.map(([k, v]) => newRequirement(k, '=', [v]));
  for (const expr of expressions) requirements.push(expressionRequirement(expr));
  return LabelSelector.of(requirements);
}

/**
 * Upstream `metav1.FormatLabelSelector` (Scale `status.selector`, describe output):
 * the selector's string, `<none>` when that is empty, `<error>` when the object is invalid.
 */
export function formatLabelSelector(sel: LabelSelectorObject | null | undefined): string {
  let text: string;
  try {
    text = labelSelectorFromObject(sel).toString();
  } catch (e) {
    if (e instanceof LabelSelectorParseError) return '<error>';
    throw e;
  }
  return text.length === 0 ? '<none>' : text;
}

function validateExpression(
  expr: LabelSelectorRequirementObject,
  opts: LabelSelectorValidationOptions,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = expr.values ?? [];
  switch (expr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        errs.push(
          fieldErrors.required(
            fldPath.child('values'),
            "must be specified when `operator` is 'In' or 'NotIn'",
          ),
        );
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(
          fieldErrors.forbidden(
            fldPath.child('values'),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
      }
      break;
    default:
      errs.push(
        fieldErrors.invalid(
          fldPath.child('operator'),
          expr.operator,
          'not a valid selector operator',
        ),
      );
  }
  for (const msg of isQualifiedName(expr.key)) {
    errs.push(fieldErrors.invalid(fldPath.child('key'), expr.key, msg));
  }
  if (opts.allowInvalidLabelValueInSelector !== true) {
    values.forEach((v, i) => {
      for (const msg of isValidLabelValue(v)) {
        errs.push(fieldErrors.invalid(fldPath.child('values').index(i), v, msg));
      }
    });
  }
  return errs;
}

/**
 * Upstream `ValidateLabelSelector`: label keys and values of `matchLabels` (reported at
 * `<path>.matchLabels`, as upstream does), and each `matchExpressions[i]`'s operator, values
 * and key.
 */
export function validateLabelSelectorObject(
  sel: LabelSelectorObject | null | undefined,
  fieldPath: FieldPath,
  opts: LabelSelectorValidationOptions = {},
): FieldError[] {
  if (sel === null || sel === undefined) return [];
  const errs: FieldError[] = [];
  const labelsPath = fieldPath.child('matchLabels');
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(fieldErrors.invalid(labelsPath, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(fieldErrors.invalid(labelsPath, v, msg));
  }
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateExpression(expr, opts, fieldPath.child('matchExpressions').index(i)));
  });
  return errs;
}
