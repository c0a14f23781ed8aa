/**
 * kube-openapi's validation errors (`pkg/validation/errors/schema.go`) and its result type
 * (`validate/result.go`): the message texts kubectl users read after a CRD schema rejects an
 * object (`spec.replicas in body must be of type integer: "string"`), plus the match count
 * kube-openapi uses to pick which `anyOf`/`oneOf` branch's errors to report.
 *
 * @module
 */
import { goNumber, goQuote } from './go-format.js';

export type OpenAPICode =
  | 'invalidType'
  | 'required'
  | 'tooLong'
  | 'tooShort'
  | 'pattern'
  | 'enum'
  | 'multipleOf'
  | 'max'
  | 'min'
  | 'unique'
  | 'maxItems'
  | 'minItems'
  | 'tooFewProperties'
  | 'tooManyProperties'
  | 'unallowedProperty'
  | 'multipleOfMustBePositive';

/** A `*errors.Validation` (with a field name) or a composite error (junctors; no field). */
export type OpenAPIError =
  | {
      readonly code: OpenAPICode;
      /** The dotted data path, e.g. `spec.replicas`; empty at the root. */
      readonly name: string;
      readonly value: unknown;
      readonly values?: readonly unknown[];
      /** The limit for too-long / too-many errors. */
      readonly valid?: number;
      readonly message: string;
    }
  | { readonly code: 'composite'; readonly message: string };

const IN = 'body';

function v(
  code: OpenAPICode,
  name: string,
  value: unknown,
  message: string,
  extra: { values?: readonly unknown[]; valid?: number } = {},
): OpenAPIError {
  return { code, name, value, message, ...extra };
}

/** `%v` of a limit: int64 limits print as integers, float limits as Go floats. */
function limit(n: number): string {
  return goNumber(n);
}

export const openapiErrors = {
  /** `InvalidType`: a string value is quoted (`: "string"`), anything else is left out. */
  invalidType(name: string, typeName: string, value: unknown): OpenAPIError {
    const tail = typeof value === 'string' ? `: ${goQuote(value)}` : '';
    return v('invalidType', name, value, `${name} in ${IN} must be of type ${typeName}${tail}`);
  },
  required: (name: string): OpenAPIError =>
    v('required', name, undefined, `${name} in ${IN} is required`),
  tooLong: (name: string, max: number, value: string): OpenAPIError =>
    v('tooLong', name, value, `${name} in ${IN} should be at most ${max} chars long`, {
      valid: max,
    }),
  tooShort: (name: string, min: number, value: string): OpenAPIError =>
    v('tooShort', name, value, `${name} in ${IN} should be at least ${min} chars long`),
  pattern: (name: string, pattern: string, value: string): OpenAPIError =>
    v('pattern', name, value, `${name} in ${IN} should match '${pattern}'`),
  enum: (name: string, value: unknown, values: readonly unknown[]): OpenAPIError =>
    v('enum', name, value, `${name} in ${IN} should be one of ${goSlice(values)}`, { values }),
  multipleOf: (name: string, factor: number, value: number): OpenAPIError =>
    v('multipleOf', name, value, `${name} in ${IN} should be a multiple of ${limit(factor)}`),
  multipleOfMustBePositive: (name: string, factor: number): OpenAPIError =>
    v(
      'multipleOfMustBePositive',
      name,
      factor,
      `factor MultipleOf declared for ${name} must be positive: ${limit(factor)}`,
    ),
  max: (name: string, max: string, exclusive: boolean, value: number): OpenAPIError =>
    v(
      'max',
      name,
      value,
      `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${max}`,
    ),
  min: (name: string, min: string, exclusive: boolean, value: number): OpenAPIError =>
    v(
      'min',
      name,
      value,
      `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${min}`,
    ),
  unique: (name: string): OpenAPIError =>
    v('unique', name, undefined, `${name} in ${IN} shouldn't contain duplicates`),
  maxItems: (name: string, max: number, size: number): OpenAPIError =>
    v('maxItems', name, size, `${name} in ${IN} should have at most ${max} items`, { valid: max }),
  minItems: (name: string, min: number, size: number): OpenAPIError =>
    v('minItems', name, size, `${name} in ${IN} should have at least ${min} items`),
  tooFewProperties: (name: string, min: number, n: number): OpenAPIError =>
    v('tooFewProperties', name, n, `${name} in ${IN} should have at least ${min} properties`),
  tooManyProperties: (name: string, max: number, n: number): OpenAPIError =>
    v('tooManyProperties', name, n, `${name} in ${IN} should have at most ${max} properties`, {
      valid: max,
    }),
  unallowedProperty: (name: string, key: string): OpenAPIError =>
    v('unallowedProperty', name, key, `${name}.${key} in ${IN} is a forbidden property`),
  composite: (message: string): OpenAPIError => ({ code: 'composite', message }),
};

/** Go's `%v` of a `[]interface{}`: `[a b 1]`. */
function goSlice(values: readonly unknown[]): string {
  return `[${values.map((x) => (typeof x === 'number' ? goNumber(x) : typeof x === 'string' ? x : JSON.stringify(x))).join(' ')}]`;
}

/** kube-openapi's `Result`: errors (deduplicated by message) and a match count. */
export class Result {
  readonly errors: OpenAPIError[] = [];
  matchCount = 0;

  static of(error: OpenAPIError): Result {
    const r = new Result();
    r.errors.push(error);
    return r;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }

  addErrors(...errors: readonly OpenAPIError[]): void {
    for (const e of errors) {
      if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
    }
  }

  /** Adds the errors and match counts of `others` (undefined: nothing to merge). */
  merge(...others: readonly (Result | undefined)[]): this {
    for (const o of others) {
      if (!o) continue;
      this.addErrors(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  inc(): void {
    this.matchCount++;
  }
}
