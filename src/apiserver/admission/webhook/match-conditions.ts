/**
 * A webhook's `matchConditions`, after upstream `matchconditions.Matcher.Match`: CEL
 * expressions over `object`, `oldObject` (null for a create or delete), `request` (the
 * AdmissionRequest without its objects) and `authorizer` (checks against the server's
 * authorizer for the requesting user, `authorizer.requestResource` for the request's own
 * resource). Any false skips the webhook; otherwise an error fails the request (403) under
 * `failurePolicy: Fail` and skips the webhook under `Ignore`.
 *
 * The environment, compilation and cost limits are the admission policies' (`src/api/cel/
 * admission-policy/`, `../policy/run-expression.ts`). Differs from upstream: variables are
 * `dyn`, so a type error shows at evaluation rather than when the configuration is stored, and
 * that environment also declares `namespaceObject` and `variables` (null here), which upstream
 * does not offer webhooks.
 *
 * @module
 */
import {
  CelAuthorizer,
  type CelAuthzBackend,
  type RequestResourceTarget,
} from '../../../api/cel/admission-policy/authorizer-library.js';
import { compilePolicyExpression } from '../../../api/cel/admission-policy/environment.js';
import { untypedValue } from '../../../api/cel/values.js';
import type { MatchCondition } from '../../../api/model/index.js';
import type { UserInfo } from '../../authentication/user.js';
import { CostBudget, OUT_OF_BUDGET, runExpression } from '../policy/run-expression.js';

/** Answers every check when the server gave no authorizer (upstream always has one). */
const NO_AUTHORIZER: CelAuthzBackend = {
  authorize: () => ({
    decision: 'NoOpinion',
    reason: '',
    evaluationError: 'no authorizer configured',
  }),
};

/** What `authorizer` checks with: the server's authorizer, the user, the request's resource. */
export interface MatchConditionAuthz {
  readonly backend?: CelAuthzBackend;
  readonly user: UserInfo;
  readonly requestResource: RequestResourceTarget;
}

export interface MatchConditionInput {
  readonly object: unknown;
  readonly oldObject: unknown;
  /** The AdmissionRequest as JSON (`kind`, `resource`, `userInfo`, `operation`…). */
  readonly request: unknown;
  readonly authz: MatchConditionAuthz;
}

export type MatchConditionResult =
  | { readonly matches: true }
  | { readonly matches: false; readonly failedCondition?: string }
  | { readonly matches: false; readonly error: string };

const DECLARATIONS = { hasParams: false, hasAuthorizer: true, variables: [] };

function evaluate(
  condition: MatchCondition,
  vars: Record<string, unknown>,
  budget: CostBudget,
): boolean | string {
  const compiled = compilePolicyExpression(condition.expression, 'bool', DECLARATIONS);
  const run = runExpression(compiled, condition.expression, vars, budget);
  if (run.kind === 'out-of-budget') return OUT_OF_BUDGET;
  if (run.kind === 'error') return run.error;
  if (typeof run.value !== 'boolean') {
    return `expression '${condition.expression}' resulted in error: no such overload`;
  }
  return run.value;
}

/**
 * Evaluates the conditions in order (upstream evaluates all, then decides): a false wins over
 * errors, errors are joined as Go's `utilerrors.NewAggregate` prints them.
 */
export function matchConditions(
  conditions: readonly MatchCondition[],
  input: MatchConditionInput,
  failurePolicy: string,
): MatchConditionResult {
  if (conditions.length === 0) return { matches: true };
  const { backend, user, requestResource } = input.authz;
  const vars = {
    object: untypedValue(input.object),
    oldObject: untypedValue(input.oldObject),
    request: untypedValue(input.request),
    namespaceObject: null,
    variables: Object.create(null),
    authorizer: new CelAuthorizer(backend ?? NO_AUTHORIZER, user, requestResource),
  };
  // One budget for all the conditions of one webhook, as upstream's matcher has.
  const budget = new CostBudget();
  const errors: string[] = [];
  for (const condition of conditions) {
    const outcome = evaluate(condition, vars, budget);
    if (outcome === false) return { matches: false, failedCondition: condition.name };
    if (typeof outcome === 'string') errors.push(outcome);
  }
  if (errors.length === 0) return { matches: true };
  if (failurePolicy === 'Ignore') return { matches: false };
  return { matches: false, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
