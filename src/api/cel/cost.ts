/**
 * A bound on how much work one rule may do. cel-js has no cost tracking of its own, so every
 * node of a parsed rule is wrapped to charge one unit when it is evaluated (a comprehension
 * charges for each step of each iteration), and library functions charge for the size of what
 * they walk. The units are close to, not the same as, cel-go's: upstream's per-call limit and
 * per-object budget are kept as numbers, so rules that upstream runs in its budget also run here.
 * A wall-clock deadline backs the count up.
 *
 * @module
 */

/** Upstream `celconfig.PerCallLimit`: the cost one evaluation of one rule may use. */
export const PER_CALL_LIMIT = 1_000_000;
/** Upstream `celconfig.RuntimeCELCostBudget`: the cost all rules of one object may use. */
export const RUNTIME_COST_BUDGET = 10_000_000;

/** Thrown out of an evaluation that ran past its limit; cel-go's text. */
export class CostLimitError extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
    this.name = 'CostLimitError';
  }
}

/** Counts the cost of one evaluation. */
export class CostTracker {
  used = 0;
  exhausted = false;
  readonly #limit: number;
  readonly #deadline: number;

  constructor(limit: number, deadline: number) {
    this.#limit = limit;
    this.#deadline = deadline;
  }

  charge(units: number): void {
    if (this.exhausted) throw new CostLimitError();
    const before = this.used;
    this.used += units;
    // The clock is read once per 1024 units: reading it costs more than a node does.
    const clockDue = Math.floor(before / 1024) !== Math.floor(this.used / 1024);
    if (this.used > this.#limit || (clockDue && performance.now() > this.#deadline)) {
      this.exhausted = true;
      throw new CostLimitError();
    }
  }
}

let active: CostTracker | undefined;

/** Charges the running evaluation (library functions call this for the sizes they walk). */
export function chargeCost(units: number): void {
  active?.charge(units);
}

/** Runs `fn` with `tracker` receiving every charge. Evaluation is synchronous, so one at a time. */
export function withCostTracker<T>(tracker: CostTracker, fn: () => T): T {
  const previous = active;
  active = tracker;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

interface EvalNode {
  op: string;
  readonly meta: NodeMeta;
  evaluate: (ev: unknown, ast: unknown, ctx: unknown) => unknown;
}

interface NodeMeta {
  readonly alternate?: EvalNode;
  readonly macro?: { evaluate(ev: unknown, macro: unknown, ctx: unknown): unknown };
  readonly evaluate: (this: EvalNode, ev: unknown, ast: unknown, ctx: unknown) => unknown;
}

function isEvalNode(v: unknown): v is EvalNode {
  if (typeof v !== 'object' || v === null) return false;
  return (
    'op' in v &&
    typeof v.op === 'string' &&
    'meta' in v &&
    typeof v.meta === 'object' &&
    'evaluate' in v &&
    typeof v.evaluate === 'function'
  );
}

/**
 * Makes every node reachable from `root` (including macro expansions) charge one unit per
 * evaluation. cel-js nodes pick their evaluator lazily; the wrapper repeats that choice on each
 * call, so it also sees alternates the type checker adds later.
 */
export function instrumentForCost(root: unknown): void {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (isEvalNode(v)) {
      wrapNode(v);
      stack.push(v.meta.alternate, v.meta.macro);
    }
    for (const child of Object.values(v)) if (typeof child === 'object') stack.push(child);
  }
}

function wrapNode(node: EvalNode): void {
  node.evaluate = function countedEvaluate(ev, ast, ctx) {
    chargeCost(1);
    const meta = node.meta;
    if (meta.alternate) return meta.alternate.evaluate(ev, meta.alternate, ctx);
    if (meta.macro) return meta.macro.evaluate(ev, meta.macro, ctx);
    return meta.evaluate.call(node, ev, ast, ctx);
  };
}
