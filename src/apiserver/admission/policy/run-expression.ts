/**
 * Running one compiled expression under upstream's limits: each call may cost up to
 * `PerCallLimit` (1,000,000) and all expressions of one policy evaluation share
 * `RuntimeCELCostBudget` (10,000,000); past the budget nothing further runs. Errors read as
 * upstream's filter reports them (`expression '<text>' resulted in error: <cel-go text>`,
 * `compilation error: …`).
 *
 * @module
 */
import type { CompiledExpression } from '../../../api/cel/admission-policy/environment.js';
import {
  CostLimitError,
  CostTracker,
  PER_CALL_LIMIT,
  RUNTIME_COST_BUDGET,
  withCostTracker,
} from '../../../api/cel/cost.js';
import { celGoErrorText } from '../../../api/cel/runtime-errors.js';

export const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';

/** A wall-clock bound backing the cost count up (the CRD rules use the same). */
const TIMEOUT_MS = 2_000;

export type RunResult =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: string }
  | { readonly kind: 'out-of-budget' };

/** The budget one evaluation of a policy (for one binding and param) spends. */
export class CostBudget {
  remaining: number;
  readonly deadline: number;
  constructor(total = RUNTIME_COST_BUDGET) {
    this.remaining = total;
    this.deadline = performance.now() + TIMEOUT_MS;
  }
}

/** Runs `expr` over `vars`, charging `budget`. */
export function runExpression(
  expr: CompiledExpression,
  text: string,
  vars: Record<string, unknown>,
  budget: CostBudget,
): RunResult {
  if (!expr.program) return { kind: 'error', error: `compilation error: ${expr.error}` };
  const program = expr.program;
  const tracker = new CostTracker(PER_CALL_LIMIT, budget.deadline);
  let value: unknown;
  let failure: unknown;
  try {
    value = withCostTracker(tracker, () => program(vars));
  } catch (err) {
    failure = err;
  }
  if (tracker.exhausted && failure === undefined) failure = new CostLimitError();
  if (tracker.used > budget.remaining) return { kind: 'out-of-budget' };
  budget.remaining -= tracker.used;
  if (failure !== undefined) {
    const detail = tracker.exhausted ? new CostLimitError().message : celGoErrorText(failure);
    return { kind: 'error', error: `expression '${text}' resulted in error: ${detail}` };
  }
  return { kind: 'value', value };
}
