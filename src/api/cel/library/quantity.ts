/**
 * Kubernetes quantity library (upstream `k8s.io/apiserver/pkg/cel/library/quantity.go`):
 * `quantity(string)`, `isQuantity(string)` and, on `kubernetes.Quantity`, `sign()`,
 * `isGreaterThan`, `isLessThan`, `compareTo`, `add`, `sub` (with a quantity or an int),
 * `asInteger()`, `asApproximateFloat()`, `isInteger()`, plus `==` by value. Parsing and
 * comparison reuse the API's `resource.Quantity` implementation.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import {
  formatQuantity,
  parseQuantity,
  type Quantity,
  type QuantityFormat,
} from '../../validation/quantity.js';
import { CelLibraryError } from './values-compare.js';

const NANO = 1_000_000_000n;
const MAX_INT = 2n ** 63n - 1n;
const MIN_INT = -(2n ** 63n);

/** A quantity as a CEL value. */
export class KubernetesQuantity {
  readonly nanos: bigint;
  readonly format: QuantityFormat;
  constructor(q: Quantity) {
    this.nanos = q.nanos;
    this.format = q.format;
  }
  toString(): string {
    return formatQuantity(this);
  }
}

export function toQuantity(s: string): KubernetesQuantity {
  const r = parseQuantity(s);
  if (!r.ok) throw new CelLibraryError(r.error);
  return new KubernetesQuantity(r.quantity);
}

export function isQuantity(s: string): boolean {
  return parseQuantity(s).ok;
}

function compare(a: KubernetesQuantity, b: KubernetesQuantity): bigint {
  return a.nanos < b.nanos ? -1n : a.nanos > b.nanos ? 1n : 0n;
}

function plus(a: KubernetesQuantity, nanos: bigint): KubernetesQuantity {
  return new KubernetesQuantity({ nanos: a.nanos + nanos, format: a.format });
}

/** Upstream `AsInt64`: the integer value when it is whole and fits in int64. */
function asInt64(q: KubernetesQuantity): bigint | undefined {
  if (q.nanos % NANO !== 0n) return undefined;
  const v = q.nanos / NANO;
  return v > MAX_INT || v < MIN_INT ? undefined : v;
}

export function asInteger(q: KubernetesQuantity): bigint {
  const v = asInt64(q);
  if (v === undefined) throw new CelLibraryError('cannot convert value to integer');
  return v;
}

const T = 'kubernetes.Quantity';
type Q = KubernetesQuantity;

export function registerQuantity(env: Environment): void {
  env
    .registerType(T, KubernetesQuantity)
    .registerFunction(`quantity(string): ${T}`, toQuantity)
    .registerFunction('isQuantity(string): bool', isQuantity)
    .registerFunction(`${T}.sign(): int`, (q: Q) => (q.nanos > 0n ? 1n : q.nanos < 0n ? -1n : 0n))
    .registerFunction(`${T}.isGreaterThan(${T}): bool`, (a: Q, b: Q) => compare(a, b) > 0n)
    .registerFunction(`${T}.isLessThan(${T}): bool`, (a: Q, b: Q) => compare(a, b) < 0n)
    .registerFunction(`${T}.compareTo(${T}): int`, compare)
    .registerFunction(`${T}.add(${T}): ${T}`, (a: Q, b: Q) => plus(a, b.nanos))
    .registerFunction(`${T}.add(int): ${T}`, (a: Q, n: bigint) => plus(a, n * NANO))
    .registerFunction(`${T}.sub(${T}): ${T}`, (a: Q, b: Q) => plus(a, -b.nanos))
    .registerFunction(`${T}.sub(int): ${T}`, (a: Q, n: bigint) => plus(a, -n * NANO))
    .registerFunction(`${T}.asInteger(): int`, asInteger)
    .registerFunction(`${T}.asApproximateFloat(): double`, (q: Q) => Number(q.nanos) / 1e9)
    .registerFunction(`${T}.isInteger(): bool`, (q: Q) => asInt64(q) !== undefined)
    .registerOperator(`${T} == ${T}`, (a: Q, b: Q) => a.nanos === b.nanos);
}
