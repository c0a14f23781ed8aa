/**
 * Go's `%#v` text of a `ValidationRule`, which upstream prints as the bad value of a rule's
 * compile error (`Invalid value: apiextensions.ValidationRule{Rule:"…", …}: compilation
 * failed: …`). Pointer fields that are set print as an address in Go; a fixed placeholder
 * address stands in for it.
 *
 * @module
 */
import type { ValidationRule } from '../schema/types.js';

/** Go's `strconv.Quote` for the text rules hold. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

const SET_POINTER = '(0xc000000000)';

/**
 * A bad value that prints as Go syntax. `fieldErrorBody` prints objects as JSON; a value with a
 * `goString()` method is meant to print as that text instead (see the module report).
 */
export class GoSyntaxValue {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  goString(): string {
    return this.text;
  }
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

/** `apiextensions.ValidationRule{…}` as Go's `%#v` prints it. */
export function validationRuleGoSyntax(rule: ValidationRule): GoSyntaxValue {
  const reason =
    rule.reason === undefined
      ? '(*apiextensions.FieldValueErrorReason)(nil)'
      : `(*apiextensions.FieldValueErrorReason)${SET_POINTER}`;
  const optional = rule.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)${SET_POINTER}`;
  return new GoSyntaxValue(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule)}, Message:${goQuote(rule.message ?? '')}, ` +
      `MessageExpression:${goQuote(rule.messageExpression ?? '')}, Reason:${reason}, ` +
      `FieldPath:${goQuote(rule.fieldPath ?? '')}, OptionalOldSelf:${optional}}`,
  );
}
