/**
 * `string.format(list)` from cel-go's `ext.Strings`: printf-style verbs `%s`, `%d`, `%f`, `%e`,
 * `%b`, `%o`, `%x`, `%X` and `%%`, with an optional precision (`%.2f`).
 *
 * @module
 */
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { valueText } from './format-value.js';
import { CelLibraryError } from './values-compare.js';

const VERB = /%(?:\.(\d+))?([sdfebboxX%])/g;

export function formatString(template: string, args: readonly unknown[]): string {
  let next = 0;
  const out = template.replace(VERB, (whole, precision: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length) {
      throw new CelLibraryError(`index ${next} out of range`);
    }
    const arg = args[next++];
    return formatOne(verb, arg, precision === undefined ? undefined : Number(precision), whole);
  });
  if (next < args.length) {
    throw new CelLibraryError(
      `too many arguments supplied to string.format (expected ${next}, got ${args.length})`,
    );
  }
  return out;
}

function integerOf(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof UnsignedInt) return v.valueOf();
  return undefined;
}

function formatOne(
  verb: string,
  arg: unknown,
  precision: number | undefined,
  whole: string,
): string {
  switch (verb) {
    case 's':
      return valueText(arg);
    case 'd': {
      const i = integerOf(arg);
      if (i === undefined) throw clauseError('decimal', 'integers', arg);
      return i.toString();
    }
    case 'f':
    case 'e':
      return floatText(verb, arg, precision ?? 6);
    case 'b':
    case 'o':
    case 'x':
    case 'X':
      return radixText(verb, arg, whole);
    default:
      throw new CelLibraryError(`unrecognized formatting clause "${whole}"`);
  }
}

function floatText(verb: string, arg: unknown, precision: number): string {
  const n = typeof arg === 'number' ? arg : integerOf(arg);
  if (n === undefined) {
    throw clauseError(verb === 'f' ? 'fixed-point' : 'scientific', 'doubles', arg);
  }
  const x = Number(n);
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
  if (verb === 'f') return x.toFixed(precision);
  return x.toExponential(precision).replace(/e([+-])(\d)$/, 'e$10$2');
}

function radixText(verb: string, arg: unknown, whole: string): string {
  const i = integerOf(arg);
  if (verb === 'b') {
    if (typeof arg === 'boolean') return arg ? '1' : '0';
    if (i === undefined) throw clauseError('binary', 'integers', arg);
    return i.toString(2);
  }
  if (verb === 'o') {
    if (i === undefined) throw clauseError('octal', 'integers', arg);
    return i.toString(8);
  }
  let hex: string;
  if (i !== undefined) hex = i.toString(16);
  else if (typeof arg === 'string') hex = Buffer.from(arg, 'utf8').toString('hex');
  else if (arg instanceof Uint8Array) hex = Buffer.from(arg).toString('hex');
  else throw new CelLibraryError(`unrecognized formatting clause "${whole}"`);
  return verb === 'X' ? hex.toUpperCase() : hex;
}

function clauseError(clause: string, accepts: string, arg: unknown): CelLibraryError {
  const got = typeof arg === 'number' ? 'double' : typeof arg === 'string' ? 'string' : typeof arg;
  return new CelLibraryError(
    `error during formatting: ${clause} clause can only be used on ${accepts}, was given ${got}`,
  );
}
