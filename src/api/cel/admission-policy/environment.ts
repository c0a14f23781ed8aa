/**
 * The CEL environment of admission policies (upstream `k8s.io/apiserver/pkg/admission/plugin/cel`
 * with `environment.MustBaseEnvSet`): the Kubernetes libraries of CRD rules plus the variables
 * `object`, `oldObject`, `request`, `namespaceObject`, `params` (only when the policy has a
 * `paramKind`), `authorizer` (not in message expressions) and `variables` (the policy's
 * `spec.variables`, composited). Expressions are compiled once per text and declarations and
 * instrumented for cost like CRD rules.
 *
 * Differs from upstream: `object`, `oldObject`, `params` and `namespaceObject` are `dyn`, not
 * typed from the resource's OpenAPI schema, so a field name typo is a runtime `no such key`
 * instead of a compile error, and an expression typed `dyn` is accepted where a `bool` or
 * `string` is wanted (a non-bool result then fails the validation at run time).
 *
 * @module
 */
import type { ASTNode, Environment, ParseResult } from '@marcbachmann/cel-js';
import { displayIssues, issueFromCelJs } from '../compile-errors.js';
import { instrumentForCost } from '../cost.js';
import { baseEnvironment } from '../environment.js';
import { isNode, type LocatedIssue } from '../field-check.js';
import { alignWithCelGo } from '../go-semantics.js';
import { registerAuthorizer } from './authorizer-library.js';

/** Upstream's variable names. */
export const OBJECT = 'object';
export const OLD_OBJECT = 'oldObject';
export const REQUEST = 'request';
export const PARAMS = 'params';
export const NAMESPACE_OBJECT = 'namespaceObject';
export const AUTHORIZER = 'authorizer';
export const VARIABLES = 'variables';

/** Which optional variables an expression may use (upstream `OptionalVariableDeclarations`). */
export interface PolicyDeclarations {
  readonly hasParams: boolean;
  readonly hasAuthorizer: boolean;
  /** The names `variables.<name>` may use. */
  readonly variables: readonly string[];
}

/** The result type an expression must have (upstream `ReturnTypes`). */
export type ReturnKind = 'bool' | 'string' | 'string-or-null' | 'any';

export type CompiledExpression =
  | { readonly program: ParseResult; readonly error?: undefined }
  | { readonly program?: undefined; readonly error: string };

const envs = new Map<string, Environment>();

function policyEnvironment(hasParams: boolean, hasAuthorizer: boolean): Environment {
  const key = `${hasParams}/${hasAuthorizer}`;
  const hit = envs.get(key);
  if (hit) return hit;
  const env = baseEnvironment()
    .clone()
    .registerVariable(OBJECT, 'dyn')
    .registerVariable(OLD_OBJECT, 'dyn')
    .registerVariable(REQUEST, 'map<string, dyn>')
    .registerVariable(NAMESPACE_OBJECT, 'dyn')
    .registerVariable(VARIABLES, 'map<string, dyn>');
  if (hasParams) env.registerVariable(PARAMS, 'dyn');
  registerAuthorizer(env);
  if (hasAuthorizer) env.registerVariable(AUTHORIZER, 'kubernetes.authorization.Authorizer');
  envs.set(key, env);
  return env;
}

const compiled = new Map<string, CompiledExpression>();
const CACHE_LIMIT = 4096;

/** Compiles one expression, or says why it does not compile (upstream's texts). */
export function compilePolicyExpression(
  text: string,
  want: ReturnKind,
  decl: PolicyDeclarations,
): CompiledExpression {
  const key = `${decl.hasParams}/${decl.hasAuthorizer}/${want}/${decl.variables.join(',')}\u0000${text}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const result = compileUncached(text, want, decl);
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(key, result);
  return result;
}

function compileUncached(
  text: string,
  want: ReturnKind,
  decl: PolicyDeclarations,
): CompiledExpression {
  const env = policyEnvironment(decl.hasParams, decl.hasAuthorizer);
  let program: ParseResult;
  let type: string;
  try {
    program = env.parse(text);
    const checked = program.check();
    if (!checked.valid) return { error: failed(text, [issueFromCelJs(checked.error)]) };
    type = checked.type ?? 'dyn';
  } catch (err) {
    return { error: failed(text, [issueFromCelJs(err)]) };
  }
  const unknown = undeclaredVariables(program.ast, decl.variables);
  if (unknown.length > 0) return { error: failed(text, unknown) };
  if (!returnFits(type, want)) return { error: returnError(want) };
  instrumentForCost(program.ast);
  alignWithCelGo(program.ast);
  return { program };
}

function failed(text: string, issues: readonly LocatedIssue[]): string {
  return `compilation failed: ${displayIssues(text, issues)}`;
}

function returnFits(type: string, want: ReturnKind): boolean {
  if (want === 'any' || type === 'dyn') return true;
  if (want === 'string-or-null') return type === 'string' || type === 'null';
  return type === want;
}

function returnError(want: ReturnKind): string {
  return want === 'string-or-null'
    ? 'must evaluate to one of [string null_type]'
    : `must evaluate to ${want}`;
}

/** `variables.<name>` selects of names the policy does not declare (cel-go: `undefined field`). */
function undeclaredVariables(ast: ASTNode, names: readonly string[]): LocatedIssue[] {
  const issues: LocatedIssue[] = [];
  const stack: unknown[] = [ast];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    if (!isNode(v)) continue;
    const field = variableField(v);
    if (field !== undefined && !names.includes(field)) {
      issues.push({ offset: posOf(v), message: `undefined field '${field}'` });
    }
    stack.push(v.args);
  }
  return issues;
}

/** The name `<name>` of a `variables.<name>` select node. */
function variableField(node: ASTNode): string | undefined {
  if ((node.op !== '.' && node.op !== '.?') || !Array.isArray(node.args)) return undefined;
  const [target, field] = node.args;
  const onVariables = isNode(target) && target.op === 'id' && target.args === VARIABLES;
  return onVariables && typeof field === 'string' ? field : undefined;
}

function posOf(node: object): number {
  return 'pos' in node && typeof node.pos === 'number' ? node.pos : 0;
}
