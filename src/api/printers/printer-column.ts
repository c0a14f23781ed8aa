/**
 * Cells of CRD `additionalPrinterColumns`, as upstream's apiextensions `tableconvertor`:
 * the column's `jsonPath` is parsed as `{<jsonPath>}` with missing keys allowed, only the
 * first value found is used, and it is typed by the column's `type`:
 *
 * - `string`: printed as kubectl would (`%v`, JSON for maps/lists, `<no value>` for null);
 * - `integer` / `number` / `boolean`: the JSON value when it has that type (floats truncated
 *   to integers), else no value;
 * - `date`: an RFC 3339 string rendered as an age (`5m`), `<unknown>` when empty, `<invalid>`
 *   when unparseable.
 *
 * No value (nothing found, or the wrong type) is `null`, which kubectl prints as `<none>`.
 *
 * @module
 */

import { Evaluator, NO_VALUE } from '../jsonpath/evaluate.js';
import { printValue } from '../jsonpath/go-format.js';
import { JsonPathError, type ListNode } from '../jsonpath/nodes.js';
import { parseTemplate } from '../jsonpath/parser.js';
import { GO_ZERO_TIME, humanDuration, parseRfc3339 } from './duration.js';

/** A parsed printer column, ready to compute cells. */
export interface CompiledPrinterColumn {
  readonly jsonPath: string;
  readonly type: string;
  /** The cell for one object at `now` (ages are relative to it). */
  cell(obj: unknown, now: Date): unknown;
}

/**
 * Parses a column's `jsonPath` (bare, e.g. `.status.phase`).
 *
 * @throws {JsonPathError} `unrecognized column definition ".x["` when it does not parse, as
 *   upstream's `tableconvertor.New` reports.
 */
export function compilePrinterColumn(col: {
  readonly type: string;
  readonly jsonPath: string;
}): CompiledPrinterColumn {
  let root: ListNode;
  try {
    root = parseTemplate(`{${col.jsonPath}}`);
  } catch (e) {
    if (e instanceof JsonPathError) {
      throw new JsonPathError(`unrecognized column definition ${JSON.stringify(col.jsonPath)}`);
    }
    throw e;
  }
  return {
    jsonPath: col.jsonPath,
    type: col.type,
    cell: (obj, now) => printerColumnCell(root, col.type, obj, now),
  };
}

function firstValue(root: ListNode, obj: unknown): { found: boolean; value: unknown } {
  try {
    const results = new Evaluator(root.nodes, true).findResults(obj);
    const first = results[0];
    if (first === undefined || first.length === 0) return { found: false, value: undefined };
    return { found: true, value: first[0] };
  } catch (e) {
    if (e instanceof JsonPathError) return { found: false, value: undefined };
    throw e;
  }
}

function printerColumnCell(root: ListNode, type: string, obj: unknown, now: Date): unknown {
  const { found, value } = firstValue(root, obj);
  if (!found) return null;
  if (type === 'string') {
    // Go prints a nil interface through an invalid reflect.Value: `<no value>`.
    return printValue(value === null ? NO_VALUE : value);
  }
  return typedCell(type, value, now);
}

function typedCell(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? dateCell(value, now) : null;
    default:
      return null;
  }
}

function dateCell(value: string, now: Date): string {
  if (value === '' || value === 'null') return '<unknown>';
  const t = parseRfc3339(value);
  if (t === undefined) return '<invalid>';
  if (t === GO_ZERO_TIME) return '<unknown>';
  return humanDuration(now.getTime() - t);
}
