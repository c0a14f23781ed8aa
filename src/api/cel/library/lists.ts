/**
 * Kubernetes list library (upstream `k8s.io/apiserver/pkg/cel/library/lists.go`):
 * `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(x)`, `lastIndexOf(x)` on lists of
 * comparable (or, for `sum`, summable) elements.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { chargeCost } from '../cost.js';
import { CelLibraryError, celCompare, celEquals, durationNanos } from './values-compare.js';

const NANOS_PER_SECOND = 1_000_000_000n;
const MAX_INT = 2n ** 63n - 1n;
const MIN_INT = -(2n ** 63n);

export function isSorted(list: readonly unknown[]): boolean {
  chargeCost(list.length);
  for (let i = 1; i < list.length; i++) if (celCompare(list[i - 1], list[i]) > 0) return false;
  return true;
}

/** Sum of ints, uints, doubles or durations; an empty list sums to int 0 as upstream. */
export function sum(list: readonly unknown[]): unknown {
  chargeCost(list.length);
  const first = list[0];
  if (first === undefined) return 0n;
  if (typeof first === 'number') return list.reduce<number>((a, v) => a + Number(v), 0);
  if (first instanceof UnsignedInt) {
    return new UnsignedInt(list.reduce<bigint>((a, v) => a + uintAddend(v), 0n));
  }
  if (first instanceof Duration) {
    const total = list.reduce<bigint>((a, v) => a + (durationNanos(v) ?? 0n), 0n);
    return new Duration(total / NANOS_PER_SECOND, Number(total % NANOS_PER_SECOND));
  }
  if (typeof first === 'bigint') {
    const total = list.reduce<bigint>((a, v) => a + intAddend(v), 0n);
    if (total > MAX_INT || total < MIN_INT) throw new CelLibraryError('integer overflow');
    return total;
  }
  throw new CelLibraryError('no such overload');
}

/** An element of a uint list's sum: `BigInt(v)`, which is a uint's own value. */
function uintAddend(v: unknown): bigint {
  if (v instanceof UnsignedInt) return v.value;
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string') return BigInt(v);
  throw new CelLibraryError('no such overload');
}

/** An element of an int list's sum (a uint adds its value, as `+` on its `valueOf` did). */
function intAddend(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (v instanceof UnsignedInt) return v.value;
  throw new CelLibraryError('no such overload');
}

function extreme(list: readonly unknown[], name: string, better: (c: number) => boolean): unknown {
  chargeCost(list.length);
  if (list.length === 0) throw new CelLibraryError(`${name} called on empty list`);
  let best = list[0];
  for (const v of list.slice(1)) if (better(celCompare(v, best))) best = v;
  return best;
}

export function indexOf(list: readonly unknown[], x: unknown): bigint {
  chargeCost(list.length);
  return BigInt(list.findIndex((v) => celEquals(v, x)));
}

export function lastIndexOf(list: readonly unknown[], x: unknown): bigint {
  chargeCost(list.length);
  return BigInt(list.findLastIndex((v) => celEquals(v, x)));
}

export function registerLists(env: Environment): void {
  env
    .registerFunction('list<A>.isSorted(): bool', isSorted)
    .registerFunction('list<A>.sum(): A', sum)
    .registerFunction('list<A>.min(): A', (l: unknown[]) => extreme(l, 'min', (c) => c < 0))
    .registerFunction('list<A>.max(): A', (l: unknown[]) => extreme(l, 'max', (c) => c > 0))
    .registerFunction('list<A>.indexOf(A): int', indexOf)
    .registerFunction('list<A>.lastIndexOf(A): int', lastIndexOf);
}
