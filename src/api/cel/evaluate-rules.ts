/**
 * Evaluating the rules of one schema node against one value, after upstream
 * `validateExpressions`: transition rules only when there is an old value (or the rule takes
 * `optionalOldSelf`), one per-call cost limit per evaluation and one budget for the whole object,
 * and field errors with upstream's paths, types, bad values (the node's schema type) and texts.
 *
 * @module
 */

import { Optional } from '@marcbachmann/cel-js';
import { type FieldError, fieldErrors, fieldErrorText } from '../field-error.js';
import type { ValidationRule } from '../schema/types.js';
import type { CompiledNode } from './compile.js';
import type { CompiledRule } from './compile-rule.js';
import { CostLimitError, CostTracker, withCostTracker } from './cost.js';
import { OLD_SELF, SELF } from './environment.js';
import { type Correlation, shouldRatchet } from './ratchet.js';
import { celGoErrorText } from './runtime-errors.js';
import { toCelValue } from './values.js';

/** Shared by every node of one `validateWithCel` call. */
export interface EvalState {
  remaining: number;
  readonly perCallLimit: number;
  readonly deadline: number;
  readonly ratcheting: boolean;
  readonly onWarning?: (text: string) => void;
}

/** Upstream `MaxEvaluatedMessageExpressionSizeBytes`. */
const MAX_MESSAGE_BYTES = 5 * 1024;
const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';

/** `field.Path` text: `undefined` is upstream's nil root path (printed `<nil>`). */
export type PathText = string | undefined;

export function childPath(p: PathText, name: string): string {
  return p === undefined || p === '' ? name : `${p}.${name}`;
}

export function indexPath(p: PathText, i: number | string): string {
  return `${p ?? ''}[${i}]`;
}

function shown(p: PathText): string {
  return p ?? '<nil>';
}

function ruleErrorString(rule: ValidationRule): string {
  const m = rule.message?.trim() ?? '';
  return m.length > 0 ? m : rule.rule.trim();
}

function defaultMessage(rule: ValidationRule): string {
  const m = rule.message ?? '';
  return m.length === 0 ? `failed rule: ${ruleErrorString(rule)}` : m.trim();
}

type Outcome =
  | { ok: true; value: unknown; cost: number }
  | { ok: false; error: unknown; cost: number; exhausted: boolean };

function run(
  rule: CompiledRule['program'],
  vars: Record<string, unknown>,
  state: EvalState,
): Outcome {
  const tracker = new CostTracker(state.perCallLimit, state.deadline);
  try {
    const value = withCostTracker(tracker, () => rule?.(vars));
    if (tracker.exhausted)
      return { ok: false, error: new CostLimitError(), cost: tracker.used, exhausted: true };
    return { ok: true, value, cost: tracker.used };
  } catch (error) {
    return { ok: false, error, cost: tracker.used, exhausted: tracker.exhausted };
  }
}

/** Errors of one node's rules; sets `state.remaining` negative when validation must stop. */
export function evaluateNodeRules(
  node: CompiledNode,
  path: PathText,
  value: unknown,
  old: unknown,
  correlation: Correlation,
  state: EvalState,
): FieldError[] {
  if (value === null || value === undefined || node.rules.length === 0) return [];
  const type = node.schema.type ?? '';
  if (state.remaining <= 0) {
    state.remaining = -1;
    return [fieldErrors.invalid(shown(path), type, OUT_OF_BUDGET)];
  }
  const hasOld = old !== null && old !== undefined;
  const self = toCelValue(value, node.schema, node.isResourceRoot);
  const oldSelf = hasOld ? toCelValue(old, node.schema, node.isResourceRoot) : undefined;
  const errs: FieldError[] = [];
  for (const c of node.rules) {
    if (c.error !== undefined) {
      errs.push(fieldErrors.invalid(shown(path), type, `rule compile error: ${c.error}`));
      continue;
    }
    const vars = bindings(c, self, oldSelf, hasOld);
    if (!vars) continue;
    const stop = evaluateOne(c, vars, path, type, correlation, state, errs);
    if (stop) {
      state.remaining = -1;
      break;
    }
  }
  return errs;
}

/** The variables of a rule, or undefined when it is not evaluated here (empty, or no old value). */
function bindings(
  c: CompiledRule,
  self: unknown,
  oldSelf: unknown,
  hasOld: boolean,
): Record<string, unknown> | undefined {
  if (!c.program) return undefined;
  const optional = c.rule.optionalOldSelf === true;
  if (c.usesOldSelf && !hasOld && !optional) return undefined;
  if (!optional) return { [SELF]: self, [OLD_SELF]: oldSelf };
  return { [SELF]: self, [OLD_SELF]: hasOld ? Optional.of(oldSelf) : Optional.none() };
}

/** Evaluates one rule, appending its error; true when validation must stop. */
function evaluateOne(
  c: CompiledRule,
  vars: Record<string, unknown>,
  path: PathText,
  type: string,
  correlation: Correlation,
  state: EvalState,
  errs: FieldError[],
): boolean {
  const rule = c.rule;
  const r = run(c.program, vars, state);
  if (!r.ok && r.exhausted) {
    const detail = `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`;
    errs.push(fieldErrors.invalid(shown(path), type, detail));
    return true;
  }
  if (r.cost > state.remaining) {
    errs.push(fieldErrors.invalid(shown(path), type, OUT_OF_BUDGET));
    return true;
  }
  state.remaining -= r.cost;
  if (!r.ok) {
    const text = celGoErrorText(r.error);
    const detail = text.startsWith('no such overload')
      ? `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`
      : `${text} evaluating rule: ${ruleErrorString(rule)}`;
    errs.push(fieldErrors.invalid(shown(path), type, detail));
    return false;
  }
  if (r.value === true) return false;
  const at = c.fieldPath ? childPath(path, c.fieldPath) : shown(path);
  const add = (e: FieldError): void => {
    if (state.ratcheting && !c.usesOldSelf && shouldRatchet(correlation)) {
      state.onWarning?.(fieldErrorText(e));
    } else {
      errs.push(e);
    }
  };
  let detail = defaultMessage(rule);
  if (c.messageProgram) {
    const m = messageFrom(c, vars, state);
    if (m.stop !== undefined) {
      add(fieldErrors.invalid(at, type, m.stop));
      return true;
    }
    if (m.text !== undefined) detail = m.text;
  }
  add(errorForReason(rule.reason, at, type, detail));
  return false;
}

function messageFrom(
  c: CompiledRule,
  vars: Record<string, unknown>,
  state: EvalState,
): { text?: string; stop?: string } {
  const r = run(c.messageProgram, vars, state);
  if (!r.ok && r.exhausted) {
    return {
      stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(c.rule.messageExpression ?? '')}`,
    };
  }
  if (r.cost > state.remaining) {
    return {
      stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
    };
  }
  state.remaining -= r.cost;
  if (!r.ok || typeof r.value !== 'string') return {};
  const text = r.value.trim();
  if (text.length === 0 || Buffer.byteLength(text) > MAX_MESSAGE_BYTES || /\n/.test(text))
    return {};
  return { text };
}

function errorForReason(
  reason: ValidationRule['reason'],
  at: string,
  type: string,
  detail: string,
): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldErrors.forbidden(at, detail);
    case 'FieldValueRequired':
      return fieldErrors.required(at, detail);
    case 'FieldValueDuplicate':
      return fieldErrors.duplicate(at, type);
    default:
      return fieldErrors.invalid(at, type, detail);
  }
}
