/**
 * Compiling one `x-kubernetes-validations` rule (and its `messageExpression`) for one schema
 * node, after upstream `compileRule`: parse and type-check in the node's environment, check
 * field selects against the schema, require a bool (a string for the message), note whether
 * the rule reads `oldSelf`, and instrument the program for cost. Parsed programs are cached by
 * declared type and text.
 *
 * @module
 */
import type { ASTNode, ParseResult } from '@marcbachmann/cel-js';
import type { Schema, ValidationRule } from '../schema/types.js';
import { displayIssues, issueFromCelJs } from './compile-errors.js';
import { instrumentForCost } from './cost.js';
import { celTypeOf } from './decl-schema.js';
import { OLD_SELF, ruleEnvironment } from './environment.js';
import { checkFields, isNode, type LocatedIssue, type Shape, shapeType } from './field-check.js';
import { validFieldPath } from './field-path.js';
import { alignWithCelGo } from './go-semantics.js';

/** One compiled rule of a node. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  /** `undefined` for an empty rule (skipped) or one that failed to compile. */
  readonly program?: ParseResult;
  /** The compile error detail (`compilation failed: …`). */
  readonly error?: string;
  readonly usesOldSelf: boolean;
  readonly messageProgram?: ParseResult;
  readonly messageError?: string;
  /** The rule's `fieldPath`, normalised, when it is valid. */
  readonly fieldPath?: string;
}

interface ParsedExpression {
  readonly program?: ParseResult;
  readonly issues: readonly LocatedIssue[];
  readonly type?: string;
}

const parsed = new Map<string, ParsedExpression>();
const CACHE_LIMIT = 4096;

function parseAndCheck(selfType: string, optionalOld: boolean, text: string): ParsedExpression {
  const key = `${optionalOld ? '?' : ''}${selfType}\u0000${text}`;
  const hit = parsed.get(key);
  if (hit) return hit;
  const env = ruleEnvironment(selfType, optionalOld);
  let result: ParsedExpression;
  try {
    const program = env.parse(text);
    if (astDepth(program.ast) > MAX_AST_DEPTH) {
      // Checked before anything walks the tree: the checkers below recurse per level.
      result = { issues: [{ offset: 0, message: RECURSION_LIMIT_MESSAGE }] };
      parsed.set(key, result);
      return result;
    }
    instrumentForCost(program.ast);
    const checked = program.check();
    if (checked.valid) alignWithCelGo(program.ast);
    result = checked.valid
      ? { program, issues: [], type: checked.type }
      : { program, issues: [issueFromCelJs(checked.error)] };
  } catch (err) {
    result = { issues: [issueFromCelJs(err)] };
  }
  if (parsed.size >= CACHE_LIMIT) parsed.clear();
  parsed.set(key, result);
  return result;
}

/**
 * cel-go's parser refuses expressions nested deeper than 250 rule levels (its
 * `maxRecursionDepth` default) with this text. cel-js builds `a && b && …` as a left-deep tree
 * where cel-go balances it, so a chain of more than 250 terms is refused here and accepted
 * upstream; without the check a 5,000-term chain overflowed the stack in the field checker (a
 * 500 on CRD create).
 */
const MAX_AST_DEPTH = 250;
const RECURSION_LIMIT_MESSAGE = `expression recursion limit exceeded: ${MAX_AST_DEPTH}`;

/** The deepest nesting of an AST, iteratively (the tree may be thousands of levels deep). */
function astDepth(ast: ASTNode): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[ast, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [v, depth] = entry;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth]);
    } else if (isNode(v)) {
      if (depth > max) max = depth;
      if (max > MAX_AST_DEPTH) return max;
      stack.push([v.args, depth + 1]);
    }
  }
  return max;
}

function referencesOldSelf(ast: ASTNode): boolean {
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (isNode(v)) {
      if (v.op === 'id' && v.args === OLD_SELF) return true;
      stack.push(v.args);
    }
  }
  return false;
}

interface ExpressionOutcome {
  readonly program?: ParseResult;
  readonly error?: string;
}

function compileExpression(
  text: string,
  node: NodeTypes,
  optionalOld: boolean,
  want: 'bool' | 'string',
): ExpressionOutcome & { readonly compileFailed?: boolean } {
  const p = parseAndCheck(node.selfType, optionalOld, text);
  const fieldIssues = p.program
    ? checkFields(p.program.ast, node.self, optionalOld ? { optionalOf: node.self } : node.self)
    : undefined;
  const issues = [...(fieldIssues?.issues ?? []), ...p.issues];
  if (issues.length > 0 || !p.program) {
    return { error: displayIssues(text, issues), compileFailed: true };
  }
  const inferred = shapeType(fieldIssues?.result);
  const fits =
    p.type === want || (p.type === 'dyn' && (inferred === undefined || inferred === want));
  if (!fits) return { error: '' };
  return { program: p.program };
}

/** The declared types of a node, shared by its rules. */
export interface NodeTypes {
  readonly selfType: string;
  readonly self: Shape;
}

export function nodeTypes(schema: Schema, isResourceRoot: boolean): NodeTypes | undefined {
  const selfType = celTypeOf(schema);
  return selfType === undefined
    ? undefined
    : { selfType, self: { schema, isRoot: isResourceRoot } };
}

/** Compiles one rule of a node whose schema is `schema`. */
export function compileRule(rule: ValidationRule, schema: Schema, types: NodeTypes): CompiledRule {
  const text = rule.rule;
  const fieldPath = compiledFieldPath(rule, schema);
  if (text.trim() === '') return { rule, usesOldSelf: false, fieldPath };
  const optionalOld = rule.optionalOldSelf === true;
  const r = compileExpression(text, types, optionalOld, 'bool');
  if (!r.program) {
    const error = r.compileFailed
      ? `compilation failed: ${r.error}`
      : 'cel expression must evaluate to a bool';
    return { rule, error, usesOldSelf: false, fieldPath };
  }
  const usesOldSelf = referencesOldSelf(r.program.ast);
  const base: CompiledRule = { rule, program: r.program, usesOldSelf, fieldPath };
  const msg = rule.messageExpression;
  if (msg === undefined || msg === '') return base;
  const m = compileExpression(msg, types, optionalOld, 'string');
  if (!m.program) {
    const messageError = m.compileFailed
      ? `messageExpression compilation failed: ${m.error}`
      : 'messageExpression must evaluate to a string';
    return { ...base, messageError };
  }
  return { ...base, messageProgram: m.program };
}

function compiledFieldPath(rule: ValidationRule, schema: Schema): string | undefined {
  if (!rule.fieldPath) return undefined;
  const r = validFieldPath(rule.fieldPath, schema);
  return r.ok ? r.path : undefined;
}
