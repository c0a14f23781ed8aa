/**
 * Where cel-js evaluates differently from cel-go in ways real CRD rules reach, and cel-js offers
 * no hook (its built-in declarations are frozen and an overlapping overload is refused), a
 * type-checked program's nodes are adjusted in place:
 *
 * - `matches` (receiver and global forms) uses RE2 (`library/re2-matches.ts`) instead of a
 *   bare JavaScript `RegExp`; gateway-api's `l.protocol.matches('(?i)^HTTPS$')` needs it.
 * - `||` and `&&` whose operands both fail report the left operand's error, as cel-go's
 *   commutative logical operators do; cel-js reports the right one. gateway-api's
 *   `size(self.certificateRefs) > 0 || size(self.options) > 0` on `tls: {}` fails upstream
 *   with `no such key: certificateRefs`.
 *
 * Runs after the check, which is when cel-js binds call nodes to overload handles.
 *
 * @module
 */
import { chargeCost } from './cost.js';
import { re2Matches } from './library/re2-matches.js';

interface Evaluator {
  tryEval(ast: unknown, ctx: unknown): unknown;
}

interface AstNode {
  op: string;
  args: unknown;
  handle?: unknown;
  left?: unknown;
  right?: unknown;
  evaluate?: (ev: Evaluator, ast: unknown, ctx: unknown) => unknown;
}

function isAstNode(v: object): v is AstNode {
  return 'op' in v && typeof v.op === 'string' && 'args' in v;
}

/** Adjusts every node reachable from `ast` (macro expansions included). */
export function alignWithCelGo(ast: unknown): void {
  const seen = new Set<object>();
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (isAstNode(v)) {
      if (v.op === 'rcall' || v.op === 'call') routeMatches(v);
      else if (v.op === '||' || v.op === '&&') leftErrorFirst(v, v.op === '||');
    }
    for (const child of Object.values(v)) if (typeof child === 'object') stack.push(child);
  }
}

/** cel-js calls an `rcall` handle as `(values, ev, ast)` with the receiver first, a `call` handle as `(values, ast, ev)`. */
function routeMatches(node: AstNode): void {
  if (!Array.isArray(node.args) || node.args[0] !== 'matches') return;
  const argList = node.op === 'rcall' ? node.args[2] : node.args[1];
  const arity = node.op === 'rcall' ? 1 : 2;
  if (Array.isArray(argList) && argList.length === arity) {
    node.handle = (values: unknown[]) => re2Matches(values[0], values[1]);
  }
}

/**
 * cel-go's `||` (`&&` is its mirror): true if either side is true, whatever the other; else
 * the left side's error, then the right side's; else false.
 */
function leftErrorFirst(node: AstNode, isOr: boolean): void {
  const { left, right } = node;
  if (left === undefined || right === undefined) return;
  node.evaluate = (ev, _ast, ctx) => {
    chargeCost(1);
    const l = ev.tryEval(left, ctx);
    if (l === isOr) return isOr;
    const r = ev.tryEval(right, ctx);
    if (r === isOr) return isOr;
    if (typeof l !== 'boolean') throw asError(l);
    if (typeof r !== 'boolean') throw asError(r);
    return !isOr;
  };
}

function asError(v: unknown): Error {
  return v instanceof Error ? v : new Error('no such overload');
}
