/**
 * Static checks of `x-kubernetes-validations` entries (upstream, in
 * `ValidateCustomResourceDefinitionOpenAPISchema`): a rule is present, messages are single
 * lines, `reason` is one of the four allowed, `fieldPath` is a valid path. Compiling the rules
 * is the CEL module's job (hook `compileRules`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../../api/field-error.js';
import { isJsonObject } from '../../api/object.js';
import { type RawSchema, structuralConversionError } from '../schema/raw-schema.js';
import { validFieldPath } from './field-path.js';

const REASONS = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];
const NEWLINES = /[\n\r]+/;

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function validateXValidations(s: RawSchema, path: FieldPath): FieldError[] {
  const rules = s['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return [];
  const errs: FieldError[] = [];
  rules.forEach((raw, i) => {
    const rule = isJsonObject(raw) ? raw : {};
    const p = path.child('x-kubernetes-validations').index(i);
    errs.push(...ruleErrors(rule, p), ...fieldPathErrors(s, text(rule.fieldPath), p));
    const reason = rule.reason;
    if (reason !== undefined && reason !== null && !REASONS.includes(text(reason))) {
      errs.push(fieldErrors.notSupported(p.child('reason'), reason, REASONS));
    }
  });
  return errs;
}

function ruleErrors(rule: Record<string, unknown>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ruleText = text(rule.rule).trim();
  const message = text(rule.message);
  const trimmedMsg = message.trim();
  if (ruleText === '') errs.push(fieldErrors.required(p.child('rule'), 'rule is not specified'));
  else if (message !== '' && trimmedMsg === '') {
    errs.push(
      fieldErrors.invalid(p.child('message'), message, 'message must be non-empty if specified'),
    );
  } else if (NEWLINES.test(trimmedMsg)) {
    errs.push(
      fieldErrors.invalid(p.child('message'), message, 'message must not contain line breaks'),
    );
  } else if (NEWLINES.test(ruleText) && trimmedMsg === '') {
    errs.push(
      fieldErrors.required(
        p.child('message'),
        'message must be specified if rule contains line breaks',
      ),
    );
  }
  const msgExpr = text(rule.messageExpression);
  if (msgExpr !== '' && msgExpr.trim() === '') {
    errs.push(
      fieldErrors.required(
        p.child('messageExpression'),
        'messageExpression must be non-empty if specified',
      ),
    );
  }
  return errs;
}

function fieldPathErrors(s: RawSchema, fieldPath: string, p: FieldPath): FieldError[] {
  if (fieldPath === '') return [];
  const errs: FieldError[] = [];
  if (fieldPath.trim() === '') {
    errs.push(
      fieldErrors.invalid(
        p.child('fieldPath'),
        fieldPath,
        'fieldPath must be non-empty if specified',
      ),
    );
  }
  if (NEWLINES.test(fieldPath)) {
    errs.push(
      fieldErrors.invalid(
        p.child('fieldPath'),
        fieldPath,
        'fieldPath must not contain line breaks',
      ),
    );
  }
  // Upstream checks the path only when the schema converts to a structural one.
  if (structuralConversionError(s) === undefined && !validFieldPath(fieldPath, s).ok) {
    errs.push(
      fieldErrors.invalid(p.child('fieldPath'), fieldPath, 'fieldPath must be a valid path'),
    );
  }
  return errs;
}
