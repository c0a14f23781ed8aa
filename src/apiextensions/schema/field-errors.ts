/**
 * kube-openapi results as Kubernetes field errors (upstream `kubeOpenAPIResultToFieldErrors` in
 * `apiextensions-apiserver/pkg/apiserver/validation`): the error's data path becomes the field
 * path, and its code picks the cause type — `Required value`, `Unsupported value`, `Too long`,
 * `Too many`, or `Invalid value` carrying kube-openapi's own message.
 *
 * @module
 */
import { type FieldError, FieldPath, fieldErrors } from '../../api/field-error.js';
import type { OpenAPIError, Result } from './openapi-errors.js';

/** Go prints a nil `*field.Path` as `<nil>`: root-level errors carry that as their field. */
const NIL_PATH = '<nil>';

function errorPath(prefix: string | undefined, name: string): string {
  const trimmed = name.startsWith('.') ? name.slice(1) : name;
  if (trimmed === '') return prefix ?? NIL_PATH;
  return new FieldPath(prefix ?? '').child(trimmed).toString();
}

/** Upstream `field.TooLong` (1.32+): the value is omitted, the limit counted in bytes. */
function tooLong(field: string, max: number): FieldError {
  const unit = max === 1 ? 'byte' : 'bytes';
  return { type: 'FieldValueTooLong', field, detail: `may not be more than ${max} ${unit}` };
}

/** Upstream `field.TooMany` (1.32+): `must have at most 1 item` / `… 3 items`. */
function tooMany(field: string, actual: unknown, max: number): FieldError {
  const unit = max === 1 ? 'item' : 'items';
  return {
    type: 'FieldValueTooMany',
    field,
    badValue: actual,
    detail: `must have at most ${max} ${unit}`,
  };
}

function enumValues(values: readonly unknown[]): string[] {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

function toFieldError(prefix: string | undefined, err: OpenAPIError): FieldError {
  if (err.code === 'composite') return fieldErrors.invalid(prefix ?? NIL_PATH, '', err.message);
  const field = errorPath(prefix, err.name);
  const value = err.value ?? '';
  switch (err.code) {
    case 'required':
      return fieldErrors.required(field);
    case 'enum':
      return fieldErrors.notSupported(field, err.value ?? null, enumValues(err.values ?? []));
    case 'tooLong':
      return tooLong(field, err.valid ?? -1);
    case 'maxItems':
    case 'tooManyProperties':
      return tooMany(field, err.value, err.valid ?? -1);
    case 'invalidType':
      return { type: 'FieldValueTypeInvalid', field, badValue: value, detail: err.message };
    default:
      return fieldErrors.invalid(field, value, err.message);
  }
}

/** Field errors for a kube-openapi result; `prefix` is the path of the validated value. */
export function resultToFieldErrors(prefix: string | undefined, result: Result): FieldError[] {
  return result.errors.map((e) => toFieldError(prefix, e));
}
