/**
 * The checks upstream's CRD validation makes on a rule's own fields before compiling it:
 * a rule must be given, `message` must be non-blank and one line (and is required when the rule
 * spans lines), `messageExpression` must be non-blank, `reason` one of four, `fieldPath`
 * non-blank, one line and a valid path into the node's schema.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import type { Schema, ValidationRule } from '../schema/types.js';
import { validFieldPath } from './field-path.js';

const REASONS = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];
const NEWLINES = /[\n\r]+/;

export function validateRuleShape(
  rule: ValidationRule,
  schema: Schema,
  at: (field: string) => string,
): FieldError[] {
  const errs: FieldError[] = [];
  const message = rule.message ?? '';
  const trimmedMsg = message.trim();
  if (rule.rule.trim() === '') {
    errs.push(fieldErrors.required(at('rule'), 'rule is not specified'));
  } else if (message.length > 0 && trimmedMsg.length === 0) {
    errs.push(
      fieldErrors.invalid(at('message'), message, 'message must be non-empty if specified'),
    );
  } else if (NEWLINES.test(trimmedMsg)) {
    errs.push(fieldErrors.invalid(at('message'), message, 'message must not contain line breaks'));
  } else if (NEWLINES.test(rule.rule.trim()) && trimmedMsg.length === 0) {
    errs.push(
      fieldErrors.required(at('message'), 'message must be specified if rule contains line breaks'),
    );
  }
  const msgExpr = rule.messageExpression ?? '';
  if (msgExpr.length > 0 && msgExpr.trim().length === 0) {
    errs.push(
      fieldErrors.required(
        at('messageExpression'),
        'messageExpression must be non-empty if specified',
      ),
    );
  }
  if (rule.reason !== undefined && !REASONS.includes(rule.reason)) {
    errs.push(fieldErrors.notSupported(at('reason'), rule.reason, REASONS));
  }
  errs.push(...fieldPathErrors(rule.fieldPath ?? '', schema, at));
  return errs;
}

function fieldPathErrors(fp: string, schema: Schema, at: (field: string) => string): FieldError[] {
  const errs: FieldError[] = [];
  if (fp.length > 0 && fp.trim().length === 0) {
    errs.push(fieldErrors.invalid(at('fieldPath'), fp, 'fieldPath must be non-empty if specified'));
  }
  if (NEWLINES.test(fp)) {
    errs.push(fieldErrors.invalid(at('fieldPath'), fp, 'fieldPath must not contain line breaks'));
  }
  if (fp.length > 0 && !validFieldPath(fp, schema).ok) {
    errs.push(fieldErrors.invalid(at('fieldPath'), fp, 'fieldPath must be a valid path'));
  }
  return errs;
}
