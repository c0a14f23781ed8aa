/**
 * cel-go `ext.Sets`, which Kubernetes enables: `sets.contains(a, b)` (every element of b is in
 * a), `sets.equivalent(a, b)` (same elements, ignoring order and duplicates) and
 * `sets.intersects(a, b)` (some element in common).
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import { chargeCost } from '../cost.js';
import { celEquals } from './values-compare.js';

function has(list: readonly unknown[], x: unknown): boolean {
  return list.some((v) => celEquals(v, x));
}

export function setsContains(a: readonly unknown[], b: readonly unknown[]): boolean {
  chargeCost(a.length * b.length);
  return b.every((x) => has(a, x));
}

export function setsEquivalent(a: readonly unknown[], b: readonly unknown[]): boolean {
  return setsContains(a, b) && setsContains(b, a);
}

export function setsIntersects(a: readonly unknown[], b: readonly unknown[]): boolean {
  chargeCost(a.length * b.length);
  return b.some((x) => has(a, x));
}

class SetsNamespace {}

export function registerSets(env: Environment): void {
  const fn =
    (f: (a: unknown[], b: unknown[]) => boolean) => (_ns: unknown, a: unknown[], b: unknown[]) =>
      f(a, b);
  env
    .registerType('SetsNamespace', SetsNamespace)
    .registerConstant('sets', 'SetsNamespace', new SetsNamespace())
    .registerFunction('SetsNamespace.contains(list<A>, list<A>): bool', fn(setsContains))
    .registerFunction('SetsNamespace.equivalent(list<A>, list<A>): bool', fn(setsEquivalent))
    .registerFunction('SetsNamespace.intersects(list<A>, list<A>): bool', fn(setsIntersects));
}
