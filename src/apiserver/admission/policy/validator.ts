/**
 * One policy evaluated for one binding and one param, after upstream `validating/validator.go`:
 * match conditions first (false: the policy does not apply; an error: failurePolicy), then every
 * validation (false: a deny with the message expression's text, the message, or
 * `failed expression: <expression>`; an error: failurePolicy), then the audit annotations
 * (a string is published, null or blank is skipped, anything else is an error).
 *
 * @module
 */
import type { CompiledPolicy } from './compiled-policy.js';
import { CostBudget, OUT_OF_BUDGET, runExpression } from './run-expression.js';

export interface PolicyDecision {
  readonly action: 'admit' | 'deny';
  readonly message: string;
  /** The Status reason of a failed validation (`Invalid` unless the validation names one). */
  readonly reason?: string;
  readonly evaluationError?: boolean;
}

export interface AuditAnnotationResult {
  readonly key: string;
  readonly action: 'publish' | 'exclude' | 'error';
  readonly value?: string;
  readonly error?: string;
}

export interface ValidateResult {
  readonly decisions: readonly PolicyDecision[];
  readonly auditAnnotations: readonly AuditAnnotationResult[];
}

/** Upstream `MaxEvaluatedMessageExpressionSizeBytes`. */
const MAX_MESSAGE_BYTES = 5 * 1024;

function errorDecision(policy: CompiledPolicy, message: string): PolicyDecision {
  return {
    action: policy.failurePolicy === 'Ignore' ? 'admit' : 'deny',
    message,
    evaluationError: true,
  };
}

function whole(policy: CompiledPolicy, message: string): ValidateResult {
  return { decisions: [errorDecision(policy, message)], auditAnnotations: [] };
}

/**
 * Upstream `matchconditions.Matcher.Match`: a false condition wins, then errors, then a match
 * (a non-bool result counts as true there too).
 */
function matchConditions(
  policy: CompiledPolicy,
  vars: Record<string, unknown>,
): { matches: boolean; error?: string } {
  if (policy.matchConditions.length === 0) return { matches: true };
  const budget = new CostBudget();
  const errors: string[] = [];
  for (const c of policy.matchConditions) {
    const r = runExpression(c.compiled, c.text, vars, budget);
    if (r.kind === 'out-of-budget') errors.push(OUT_OF_BUDGET);
    else if (r.kind === 'error') errors.push(r.error);
    else if (r.value === false) return { matches: false };
    if (r.kind === 'out-of-budget') break;
  }
  if (errors.length === 0) return { matches: true };
  if (policy.failurePolicy === 'Ignore') return { matches: false };
  // utilerrors.NewAggregate: one error as itself, several as `[a, b]`.
  return {
    matches: true,
    error: errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`,
  };
}

function messageOf(
  policy: CompiledPolicy,
  index: number,
  vars: Record<string, unknown>,
  budget: CostBudget,
): string | { outOfBudget: true } {
  const v = policy.validations[index];
  if (!v) return '';
  if (v.message) {
    const text = v.validation.messageExpression ?? '';
    const r = runExpression(v.message, text, vars, budget);
    if (r.kind === 'out-of-budget') return { outOfBudget: true };
    if (r.kind === 'value' && typeof r.value === 'string') {
      const m = r.value.trim();
      if (m !== '' && Buffer.byteLength(m) <= MAX_MESSAGE_BYTES && !m.includes('\n')) return m;
    }
  }
  const message = (v.validation.message ?? '').trim();
  if (message !== '') return message;
  return `failed expression: ${v.validation.expression.trim()}`;
}

function validations(
  policy: CompiledPolicy,
  vars: Record<string, unknown>,
  budget: CostBudget,
): PolicyDecision[] | string {
  const decisions: PolicyDecision[] = [];
  for (let i = 0; i < policy.validations.length; i++) {
    const v = policy.validations[i];
    if (!v) continue;
    const r = runExpression(v.compiled, v.validation.expression, vars, budget);
    if (r.kind === 'out-of-budget') return OUT_OF_BUDGET;
    if (r.kind === 'error') {
      decisions.push(errorDecision(policy, r.error));
      continue;
    }
    if (r.value === true) {
      decisions.push({ action: 'admit', message: '' });
      continue;
    }
    const message = messageOf(policy, i, vars, budget);
    if (typeof message !== 'string') {
      decisions.push(errorDecision(policy, `failed messageExpression: ${OUT_OF_BUDGET}`));
      continue;
    }
    decisions.push({ action: 'deny', message, reason: v.validation.reason ?? 'Invalid' });
  }
  return decisions;
}

function auditAnnotations(
  policy: CompiledPolicy,
  vars: Record<string, unknown>,
  budget: CostBudget,
): AuditAnnotationResult[] | string {
  const onError = policy.failurePolicy === 'Ignore' ? 'exclude' : 'error';
  const out: AuditAnnotationResult[] = [];
  for (const a of policy.auditAnnotations) {
    const r = runExpression(a.compiled, a.text, vars, budget);
    if (r.kind === 'out-of-budget') return OUT_OF_BUDGET;
    if (r.kind === 'error') out.push({ key: a.name, action: onError, error: r.error });
    else if (r.value === null || r.value === undefined)
      out.push({ key: a.name, action: 'exclude' });
    else if (typeof r.value === 'string') {
      const value = r.value.trim();
      out.push(
        value === ''
          ? { key: a.name, action: 'exclude' }
          : { key: a.name, action: 'publish', value },
      );
    } else {
      const error = `valueExpression '${a.text}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.`;
      out.push({ key: a.name, action: 'error', error });
    }
  }
  return out;
}

function celTypeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'object' ? 'map' : typeof v;
}

/** Upstream `validator.Validate` for one binding and param. */
export function validatePolicy(
  policy: CompiledPolicy,
  vars: Record<string, unknown>,
): ValidateResult {
  const match = matchConditions(policy, vars);
  if (match.error !== undefined) return whole(policy, match.error);
  if (!match.matches) return { decisions: [], auditAnnotations: [] };
  const budget = new CostBudget();
  const decisions = validations(policy, vars, budget);
  if (typeof decisions === 'string') return whole(policy, decisions);
  const annotations = auditAnnotations(policy, vars, budget);
  if (typeof annotations === 'string') return whole(policy, annotations);
  return { decisions, auditAnnotations: annotations };
}
