/**
 * Field-level validation errors, as upstream's `k8s.io/apimachinery/pkg/util/validation/field`.
 * A 422 Invalid Status lists them in `details.causes`, and its message joins their text.
 *
 * @module
 */

/** The cause reasons upstream puts in `details.causes[].reason`. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks a field error whose value must not be printed. */
export const OMIT_VALUE = Symbol('omitValue');

export interface FieldError {
  readonly type: FieldErrorType;
  /** Dotted path with indices, e.g. `spec.template.spec.containers[0].name`. */
  readonly field: string;
  readonly badValue?: unknown;
  readonly detail: string;
}

/** Upstream `field.Error.ErrorBody()`: the text after the field path. */
export function fieldErrorBody(e: FieldError): string {
  const typeText = TYPE_TEXT[e.type];
  let s: string;
  const valueless =
    e.type === 'FieldValueRequired' ||
    e.type === 'FieldValueForbidden' ||
    e.type === 'FieldValueTooLong' ||
    e.type === 'InternalError' ||
    e.badValue === OMIT_VALUE;
  if (valueless) {
    s = typeText;
  } else {
    s = `${typeText}: ${formatBadValue(e.badValue)}`;
  }
  if (e.detail.length > 0) s += `: ${e.detail}`;
  return s;
}

/** Upstream `field.Error.Error()`: `<field>: <body>`. */
export function fieldErrorText(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** Go's `%v` for scalars, `%q` for strings, JSON for the rest. */
function formatBadValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  // Values that print as Go syntax (`%#v`), e.g. a CRD's ValidationRule in a CEL compile error.
  const goString = typeof v === 'object' && 'goString' in v ? v.goString : undefined;
  if (typeof goString === 'function') return String(goString.call(v));
  return JSON.stringify(v);
}

/** Builds field paths: `path('spec').child('replicas').index(0).key('app')`. */
export class FieldPath {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  child(name: string, ...more: string[]): FieldPath {
    let t = this.#text.length === 0 ? name : `${this.#text}.${name}`;
    for (const m of more) t = `${t}.${m}`;
    return new FieldPath(t);
  }
  index(i: number): FieldPath {
    return new FieldPath(`${this.#text}[${i}]`);
  }
  key(k: string): FieldPath {
    return new FieldPath(`${this.#text}[${k}]`);
  }
  toString(): string {
    return this.#text;
  }
}

export function path(root: string, ...more: string[]): FieldPath {
  return new FieldPath('').child(root, ...more);
}

function make(type: FieldErrorType, field: FieldPath | string, badValue: unknown, detail = '') {
  return { type, field: String(field), badValue, detail } satisfies FieldError;
}

export const fieldErrors = {
  required: (f: FieldPath | string, detail = ''): FieldError =>
    make('FieldValueRequired', f, undefined, detail),
  invalid: (f: FieldPath | string, value: unknown, detail: string): FieldError =>
    make('FieldValueInvalid', f, value, detail),
  forbidden: (f: FieldPath | string, detail: string): FieldError =>
    make('FieldValueForbidden', f, undefined, detail),
  duplicate: (f: FieldPath | string, value: unknown): FieldError =>
    make('FieldValueDuplicate', f, value),
  notFound: (f: FieldPath | string, value: unknown): FieldError =>
    make('FieldValueNotFound', f, value),
  tooLong: (f: FieldPath | string, maxLength: number): FieldError =>
    make('FieldValueTooLong', f, undefined, `may not be more than ${maxLength} bytes`),
  tooMany: (f: FieldPath | string, actual: number, max: number): FieldError =>
    make('FieldValueTooMany', f, actual, `must have at most ${max} items`),
  notSupported: (f: FieldPath | string, value: unknown, supported: readonly string[]): FieldError =>
    make(
      'FieldValueNotSupported',
      f,
      value,
      supported.length > 0
        ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`
        : '',
    ),
  internal: (f: FieldPath | string, detail: string): FieldError =>
    make('InternalError', f, undefined, detail),
};
