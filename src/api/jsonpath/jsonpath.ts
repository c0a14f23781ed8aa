/**
 * The public JSONPath API: parse a template once, evaluate it against JSON data, print the
 * results the way kubectl `-o jsonpath` does. Expressions without `{` are taken as one bare
 * path (`.spec.replicas`), as printer columns write them.
 *
 * @module
 */
import { FloatLiteral } from './compare.js';
import { Evaluator, NO_VALUE } from './evaluate.js';
import { printResults } from './go-format.js';
import { JsonPathError, type ListNode } from './nodes.js';
import { parseTemplate } from './parser.js';

export interface JsonPathTemplate {
  /** The template text as written. */
  readonly source: string;
  readonly root: ListNode;
}

export interface JsonPathOptions {
  /** Missing fields give no result instead of the error `<field> is not found`. Default false. */
  readonly allowMissingKeys?: boolean;
}

/**
 * Parses a template (`{.metadata.name}`, `{range .items[*]}{.name}{"\n"}{end}`).
 *
 * @throws {JsonPathError} with upstream's text, e.g. `unclosed action`.
 */
export function parseJsonPath(template: string): JsonPathTemplate {
  return { source: template, root: parseTemplate(template) };
}

/** A bare path becomes `{path}`; anything holding `{` is already a template. */
export function templateOf(expr: string): string {
  return expr.includes('{') ? expr : `{${expr}}`;
}

/**
 * Upstream `FindResults`: one list of values per template node. Text runs are single-string
 * lists; a value that is absent altogether (inside an empty range) is `undefined`.
 *
 * @throws {JsonPathError} for evaluation errors (`hello is not found`, out-of-range index…).
 */
export function findJsonPathResults(
  tpl: JsonPathTemplate,
  data: unknown,
  opts: JsonPathOptions = {},
): unknown[][] {
  const raw = new Evaluator(tpl.root.nodes, opts.allowMissingKeys ?? false).findResults(data);
  return raw.map((list) => list.map(plainValue));
}

/** Parses `expr` (template or bare path) and evaluates it; see {@link findJsonPathResults}. */
export function evaluateJsonPath(
  expr: string,
  obj: unknown,
  opts: JsonPathOptions = {},
): unknown[][] {
  return findJsonPathResults(parseJsonPath(templateOf(expr)), obj, opts);
}

/** Upstream `Execute`: the printed text of every result list, concatenated. */
export function executeJsonPath(
  tpl: JsonPathTemplate,
  data: unknown,
  opts: JsonPathOptions = {},
): string {
  const raw = new Evaluator(tpl.root.nodes, opts.allowMissingKeys ?? false).findResults(data);
  return raw.map(printResults).join('');
}

function plainValue(v: unknown): unknown {
  if (v instanceof FloatLiteral) return v.value;
  return v === NO_VALUE ? undefined : v;
}

const RELAXED = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/**
 * kubectl's `RelaxedJSONPathExpression` (custom-columns, `--sort-by`): `a.b`, `.a.b`, `{a.b}`
 * and `{.a.b}` all become `{.a.b}`.
 *
 * @throws {JsonPathError} for anything else.
 */
export function relaxedJsonPathExpression(expr: string): string {
  if (expr === '') return expr;
  const m = RELAXED.exec(expr);
  if (m === null) {
    throw new JsonPathError(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  }
  return `{.${m[1] ?? m[2] ?? ''}}`;
}

/**
 * Upstream `validateSimpleJSONPath` (CRD printer columns, scale paths): the message of the
 * `Invalid` error for `s`, or `undefined` when it is acceptable.
 */
export function simpleJsonPathError(s: string): string | undefined {
  if (s.length === 0) return 'must not be empty';
  if (s[0] !== '.') return 'must be a simple json path starting with .';
  return undefined;
}
