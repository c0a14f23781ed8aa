/**
 * YAML request bodies (`application/yaml` objects, `application/apply-patch+yaml`) decoded
 * with bounded cost, as upstream's go-yaml (through sigs.k8s.io/yaml) bounds it:
 *
 * - **Depth**: the yaml package's composer recurses (it overflows near 800 levels), so the
 *   nesting is measured first on its iterative CST parser, which stops one level past
 *   10,000. Past 10,000 levels the error is go-yaml's (`exceeded max depth of 10000`); past
 *   {@link MAX_OBJECT_DEPTH} (500) ours.
 * - **Aliases**: the package's `maxAliasCount` (100, its default made explicit) refuses an
 *   anchor expanded more than 100 times over; go-yaml's ratio rule (below) bounds how many
 *   nodes aliases may add in all, which `maxAliasCount` alone does not (100 anchors each used
 *   100 times pass it). Both answer go-yaml's `yaml: document contains excessive aliasing`.
 * - **Sharing**: the package returns one JS object for every use of an anchor; the result is
 *   copied so that code changing a decoded object in place (pruning, defaulting) changes one
 *   place only, as with upstream's decoded copies.
 *
 * @module
 */
import { Lexer, Parser, parse } from 'yaml';
import { errorMessage } from './error-message.js';
import {
  type Container,
  childrenOf,
  isContainer,
  MAX_DECODE_DEPTH,
  MAX_OBJECT_DEPTH,
  objectDepthError,
  valueDepth,
} from './json-depth.js';
import { cloneJson } from './patch/merge-patch.js';

/** The yaml package's `maxAliasCount` (its default; upstream has no such count). */
export const MAX_YAML_ALIAS_COUNT = 100;

/** go-yaml's text for a document whose aliases expand too much. */
export const EXCESSIVE_ALIASING = 'yaml: document contains excessive aliasing';

/** A YAML body that may not be decoded; `message` has no prefix (callers add theirs). */
export class YamlDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlDecodeError';
  }
}

const COLLECTIONS = new Set(['document', 'block-map', 'block-seq', 'flow-collection']);

/**
 * The deepest nesting of YAML text on the package's CST parser (iterative), stopping once
 * past `stopAfter`; `offset` is where it went past.
 */
export function yamlTextDepth(
  text: string,
  stopAfter = MAX_DECODE_DEPTH,
): { depth: number; offset?: number } {
  const parser = new Parser();
  let max = 0;
  let offset = 0;
  for (const lexeme of new Lexer().lex(text)) {
    for (const _ of parser.next(lexeme)) {
      // tokens are not needed: only the parser's stack of open nodes is
    }
    offset += lexeme.length;
    // The stack holds the document, each open collection and perhaps a pending scalar.
    const top = parser.stack[parser.stack.length - 1];
    const pending = top !== undefined && !COLLECTIONS.has(top.type) ? 1 : 0;
    const depth = parser.stack.length - 1 - pending;
    if (depth > max) max = depth;
    if (max > stopAfter) return { depth: max, offset };
  }
  return { depth: max };
}

/** go-yaml's `allowedAliasRatio`: 99% up to 400,000 decoded nodes, falling to 10% at 4M. */
function allowedAliasRatio(decoded: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decoded <= low) return 0.99;
  if (decoded >= high) return 0.1;
  return 0.99 - (0.89 * (decoded - low)) / (high - low);
}

/** Expanded sizes (nodes, aliases expanded) of every distinct object: iterative post-order. */
function expandedSizes(value: Container): Map<Container, number> {
  const size = new Map<Container, number>();
  const stack: Array<{ node: Container; entered: boolean }> = [{ node: value, entered: false }];
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    if (!top.entered) {
      top.entered = true;
      for (const c of childrenOf(top.node)) {
        if (isContainer(c) && !size.has(c)) stack.push({ node: c, entered: false });
      }
      continue;
    }
    stack.pop();
    let n = 1;
    for (const c of childrenOf(top.node)) n += isContainer(c) ? (size.get(c) ?? 0) : 1;
    size.set(top.node, n);
  }
  return size;
}

/**
 * How many nodes the value has once every alias is expanded, and how many distinct ones;
 * each distinct object is visited once.
 */
function nodeCounts(value: Container): { expanded: number; distinct: number } {
  const size = expandedSizes(value);
  let distinct = 0;
  for (const node of size.keys()) {
    distinct += 1 + childrenOf(node).filter((c) => !isContainer(c)).length;
  }
  return { expanded: size.get(value) ?? 1, distinct: Math.max(distinct, 1) };
}

/**
 * go-yaml's rule: over 100 alias nodes and 1,000 nodes in all, at most the allowed ratio.
 * Returns how many nodes aliases add (0: nothing is shared).
 */
function aliasedNodes(value: Container): number {
  const { expanded, distinct } = nodeCounts(value);
  const aliased = expanded - distinct;
  if (aliased > 100 && expanded > 1000 && aliased / expanded > allowedAliasRatio(expanded)) {
    throw new YamlDecodeError(EXCESSIVE_ALIASING);
  }
  return aliased;
}

/**
 * Decodes one YAML document into plain JSON values.
 *
 * @throws {YamlDecodeError} too deep, excessive aliasing, or not YAML.
 */
export function decodeYamlText(text: string, options: { uniqueKeys?: boolean } = {}): unknown {
  const scan = yamlTextDepth(text);
  if (scan.offset !== undefined) {
    const line = countLines(text, scan.offset);
    throw new YamlDecodeError(`yaml: line ${line}: exceeded max depth of ${MAX_DECODE_DEPTH}`);
  }
  if (scan.depth > MAX_OBJECT_DEPTH) throw new YamlDecodeError(objectDepthError('the document'));
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: MAX_YAML_ALIAS_COUNT, ...options });
  } catch (e) {
    const message = errorMessage(e);
    if (message.includes('Excessive alias count')) throw new YamlDecodeError(EXCESSIVE_ALIASING);
    throw new YamlDecodeError(message);
  }
  if (!isContainer(value)) return value;
  if (aliasedNodes(value) === 0) return value;
  // Aliases nest anchors in anchors: the text's depth does not bound the value's.
  if (valueDepth(value, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH) {
    throw new YamlDecodeError(objectDepthError('the document'));
  }
  // A deep copy gives every use of a shared (aliased) object its own copy.
  return cloneJson(value);
}

function countLines(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
