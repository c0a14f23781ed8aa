/**
 * Equality and ordering of CEL runtime values as cel-js represents them (bigint ints, number
 * doubles, `UnsignedInt`, strings, bytes, `Date` timestamps, `Duration`s, arrays, maps as records
 * or `Map`s), for the library functions that compare elements (`indexOf`, `sets.contains`,
 * `isSorted`, `min`).
 *
 * @module
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';

export class CelLibraryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelLibraryError';
  }
}

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof UnsignedInt) return v.valueOf();
  return undefined;
}

function entriesOf(v: object): Map<unknown, unknown> | undefined {
  if (v instanceof Map) return v;
  if (Array.isArray(v) || v instanceof Uint8Array || v instanceof Date) return undefined;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return undefined;
  return new Map(Object.entries(v));
}

/** CEL `==` for runtime values, numbers compared across int, uint and double. */
export function celEquals(a: unknown, b: unknown): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) {
    // biome-ignore lint/suspicious/noDoubleEquals: loose equality compares bigint with number by value.
    return na !== undefined && nb !== undefined && na == nb;
  }
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return objectsEqual(a, b);
}

function objectsEqual(a: object, b: object): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => celEquals(x, b[i]));
  }
  if (a instanceof Duration && b instanceof Duration) {
    return durationNanos(a) === durationNanos(b);
  }
  const ea = entriesOf(a);
  const eb = entriesOf(b);
  if (!ea || !eb || ea.size !== eb.size) return false;
  for (const [k, v] of ea) if (!eb.has(k) || !celEquals(v, eb.get(k))) return false;
  return true;
}

/** CEL ordering (`<`) for comparable runtime values: -1, 0 or 1; throws for others. */
export function celCompare(a: unknown, b: unknown): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return compareObjects(a, b);
}

function compareObjects(a: unknown, b: unknown): number {
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  const da = durationNanos(a);
  const db = durationNanos(b);
  if (da !== undefined && db !== undefined) return da < db ? -1 : da > db ? 1 : 0;
  throw new CelLibraryError('no such overload');
}

/** A cel-js `Duration` in nanoseconds. */
export function durationNanos(v: unknown): bigint | undefined {
  if (!(v instanceof Duration)) return undefined;
  return v.seconds * 1_000_000_000n + BigInt(v.nanos);
}
