/**
 * Filter comparisons (`[?(@.x < 3)]`) with the rules of the Go template functions upstream
 * uses (`client-go/third_party/forked/golang/template`): both sides must have the same basic
 * kind (bool, int, float, string); an int never equals a float; maps, lists and null cannot
 * be compared; bools are only `==`/`!=`.
 *
 * A JSON number is an int when it is integral (Go decodes `3` as int64) and a float
 * otherwise; a template literal keeps the kind it was written with (`3` vs `3.5`).
 *
 * @module
 */
import { JsonPathError } from './nodes.js';

/** A template float literal; kept apart so `1.0` stays a float as Go parses it. */
export class FloatLiteral {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

type BasicKind = 'bool' | 'int' | 'float' | 'string';

const BAD_TYPE = 'invalid type for comparison';
const BAD_COMPARISON = 'incompatible types for comparison';

function basicKind(v: unknown): BasicKind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (v instanceof FloatLiteral) return 'float';
  throw new JsonPathError(BAD_TYPE);
}

/** The number of an `int` or `float` operand (anything else cannot reach here: NaN). */
function numeric(v: unknown): number {
  if (typeof v === 'number') return v;
  return v instanceof FloatLiteral ? v.value : Number.NaN;
}

function sameKind(a: unknown, b: unknown): BasicKind {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 !== k2) throw new JsonPathError(BAD_COMPARISON);
  return k1;
}

function equal(a: unknown, b: unknown): boolean {
  const kind = sameKind(a, b);
  return kind === 'int' || kind === 'float' ? numeric(a) === numeric(b) : a === b;
}

function less(a: unknown, b: unknown): boolean {
  const kind = sameKind(a, b);
  if (kind === 'bool') throw new JsonPathError(BAD_TYPE);
  if (typeof a === 'string' && typeof b === 'string') return a < b;
  return numeric(a) < numeric(b);
}

/** Applies a filter operator; throws upstream's error for an unknown operator or bad kinds. */
export function compareValues(operator: string, left: unknown, right: unknown): boolean {
  switch (operator) {
    case '==':
      return equal(left, right);
    case '!=':
      return !equal(left, right);
    case '<':
      return less(left, right);
    case '>':
      return !(less(left, right) || equal(left, right));
    case '<=':
      return less(left, right) || equal(left, right);
    case '>=':
      return !less(left, right);
    default:
      throw new JsonPathError(`unrecognized filter operator ${operator}`);
  }
}
