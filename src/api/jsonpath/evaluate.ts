/**
 * Evaluation of a parsed JSONPath template against JSON data, as upstream's
 * `JSONPath.FindResults`: one result list per top-level template node (text runs included),
 * `{range …}{end}` repeating the nodes between them for every value, and missing fields an
 * error unless missing keys are allowed (printer columns and kubectl allow them).
 *
 * Values are plain JSON: `null` behaves as Go's nil interface (skipped by every step); the
 * {@link NO_VALUE} marker stands for "no value at all" (the body of an empty range).
 *
 * @module
 */
import { errorMessage } from '../error-message.js';
import { compareValues, FloatLiteral } from './compare.js';
import { goFormatV, goTypeName } from './go-format.js';
import { JsonPathError, type JsonPathNode, type ListNode, type SliceParam } from './nodes.js';

/** Go's invalid `reflect.Value`: what an empty range's body is evaluated against. */
export const NO_VALUE: unique symbol = Symbol('no value');

/** An evaluation failure that carries what the failing step returned (upstream returns both). */
class StepError extends JsonPathError {
  readonly partial: unknown[];
  constructor(message: string, partial: unknown[]) {
    super(message);
    this.partial = partial;
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof FloatLiteral);
}

/** Go iterates a string's UTF-8 bytes; `..` and `*` see them as uint8 values. */
function stringBytes(s: string): number[] {
  return [...new TextEncoder().encode(s)];
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isMap(v)) return Object.values(v);
  if (typeof v === 'string') return stringBytes(v);
  return [];
}

export class Evaluator {
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  private lastEnd = -1;

  private readonly nodes: readonly JsonPathNode[];
  private readonly allowMissingKeys: boolean;

  constructor(nodes: readonly JsonPathNode[], allowMissingKeys: boolean) {
    this.nodes = nodes;
    this.allowMissingKeys = allowMissingKeys;
  }

  /** Results per top-level node from `from` on, evaluated against `data`. */
  findResults(data: unknown, from = 0): unknown[][] {
    const cur = [data];
    const full: unknown[][] = [];
    for (let i = from; i < this.nodes.length; i++) {
      const node = this.nodes[i];
      if (node === undefined) break;
      const results = this.walk(cur, node);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--;
        this.lastEnd = i;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        if (results.length > 0) {
          for (const value of results) full.push(...this.findResults(value, i + 1));
        } else {
          // An empty range still walks its body so the position reaches the matching end.
          this.findResults(NO_VALUE, i + 1);
        }
        this.inRange--;
        if (this.lastEnd > i) i = this.lastEnd;
        continue;
      }
      full.push(results);
    }
    return full;
  }

  private walk(input: unknown[], node: JsonPathNode): unknown[] {
    switch (node.type) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return [node.text];
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
      case 'bool':
        return input.map(() => node.value);
      case 'float':
        return input.map(() => new FloatLiteral(node.value));
      case 'wildcard':
        return input.flatMap((v) => (v === null ? [] : children(v)));
      case 'recursive':
        return evalRecursive(input);
      case 'union':
        return node.nodes.flatMap((list) => this.evalList(input, list));
      case 'identifier':
        return this.evalIdentifier(input, node.name);
    }
  }

  private evalList(input: unknown[], list: ListNode): unknown[] {
    let cur = input;
    for (const node of list.nodes) cur = this.walk(cur, node);
    return cur;
  }

  private evalIdentifier(input: unknown[], name: string): unknown[] {
    if (name === 'range') {
      this.beginRange++;
      return input;
    }
    if (name === 'end') {
      if (this.inRange > 0) {
        this.endRange++;
        return [];
      }
      throw new StepError('not in range, nothing to end', []);
    }
    throw new StepError(`unrecognized identifier ${name}`, input);
  }

  private evalField(input: unknown[], name: string): unknown[] {
    const results: unknown[] = [];
    if (input.length === 0) return results;
    for (const v of input) {
      if (isMap(v) && Object.hasOwn(v, name)) results.push(v[name]);
    }
    if (results.length === 0 && !this.allowMissingKeys) {
      throw new StepError(`${name} is not found`, results);
    }
    return results;
  }

  private evalFilter(input: unknown[], node: Extract<JsonPathNode, { type: 'filter' }>): unknown[] {
    const results: unknown[] = [];
    for (const v of input) {
      if (!Array.isArray(v)) {
        throw new StepError(`${goFormatV(v)} is not array or slice and cannot be filtered`, input);
      }
      for (const item of v) {
        if (this.filterPasses(item, node, input)) results.push(item);
      }
    }
    return results;
  }

  private filterPasses(
    item: unknown,
    node: Extract<JsonPathNode, { type: 'filter' }>,
    input: unknown[],
  ): boolean {
    if (node.operator === 'exists') {
      // Upstream ignores the error here and looks at whatever the left side returned.
      try {
        return this.evalList([item], node.left).length > 0;
      } catch (e) {
        if (e instanceof StepError) return e.partial.length > 0;
        throw e;
      }
    }
    const left = this.single(this.evalList([item], node.left), input);
    if (left.length === 0) return false;
    const right = this.single(this.evalList([item], node.right), input);
    if (right.length === 0) return false;
    try {
      return compareValues(node.operator, left[0], right[0]);
    } catch (e) {
      throw new StepError(errorMessage(e), []);
    }
  }

  private single(values: unknown[], input: unknown[]): unknown[] {
    if (values.length > 1) throw new StepError('can only compare one element at a time', input);
    return values;
  }
}

/** The `[start, end)` range and step a slice selects from a list of `len`, or an error text. */
function sliceRange(
  len: number,
  node: readonly [SliceParam, SliceParam, SliceParam],
): { start: number; end: number; step: number } | string {
  let start = node[0].known ? node[0].value : 0;
  if (start < 0) start += len;
  let end = node[1].known ? node[1].value : len;
  if (end < 0 || (end === 0 && node[1].derived)) end += len;
  // Requesting zero elements is allowed whatever the bounds.
  if (end === start) return { start, end, step: 1 };
  if (start >= len || start < 0) return `array index out of bounds: index ${start}, length ${len}`;
  if (end > len || end < 0) return `array index out of bounds: index ${end - 1}, length ${len}`;
  if (start > end) return `starting index ${start} is greater than ending index ${end}`;
  if (node[2].known && node[2].value <= 0) return 'step must be > 0';
  return { start, end, step: node[2].known ? node[2].value : 1 };
}

function evalArray(
  input: unknown[],
  node: readonly [SliceParam, SliceParam, SliceParam],
): unknown[] {
  const result: unknown[] = [];
  for (const v of input) {
    if (v === null || v === NO_VALUE) continue;
    if (!Array.isArray(v)) throw new StepError(`${goTypeName(v)} is not array or slice`, input);
    const range = sliceRange(v.length, node);
    if (typeof range === 'string') throw new StepError(range, input);
    // Upstream returns at once on an empty slice, skipping the remaining inputs.
    if (range.end === range.start) return result;
    for (let i = range.start; i < range.end; i += range.step) result.push(v[i]);
  }
  return result;
}

function evalRecursive(input: unknown[]): unknown[] {
  const result: unknown[] = [];
  // An explicit stack in the order upstream's recursion visits values (depth first).
  const visit = (values: unknown[]): void => {
    for (const v of values) {
      if (v === null || v === NO_VALUE) continue;
      const kids = children(v);
      if (kids.length === 0) continue;
      result.push(v);
      visit(kids);
    }
  };
  visit(input);
  return result;
}
