/**
 * Pod resource requests and node allocatable in the scheduler's units: cpu in millicores,
 * everything else in whole units, both rounded up as upstream's `MilliValue()`/`Value()` do.
 *
 * A pod's request follows upstream `resourcehelper.PodRequests`: the sum of its containers
 * (plus restartable "sidecar" init containers), or the largest init-container step if that is
 * bigger, plus `spec.overhead`. Example: containers 100m + 200m, init containers 500m → 500m;
 * with a 50m sidecar before the 500m init container → max(100+200+50, 500+50) = 550m.
 *
 * @module
 */

import type { Container, PodSpec } from '../api/model/index.js';
import { parseQuantity } from '../api/validation/quantity.js';
import type { ResourceMap } from './types.js';

export type Resources = Map<string, bigint>;

/** Upstream `DefaultMilliCPURequest` and `DefaultMemoryRequest` (scoring only). */
export const DEFAULT_MILLI_CPU_REQUEST = 100n;
export const DEFAULT_MEMORY_REQUEST = 200n * 1024n * 1024n;

const NANO = 1_000_000_000n;
const MILLI_IN_NANOS = 1_000_000n;

function ceilDiv(a: bigint, b: bigint): bigint {
  return a >= 0n ? (a + b - 1n) / b : a / b;
}

/** A quantity in scheduler units; unparsable values count as zero. */
export function resourceAmount(name: string, value: string | number): bigint {
  const r = parseQuantity(value);
  if (!r.ok) return 0n;
  return ceilDiv(r.quantity.nanos, name === 'cpu' ? MILLI_IN_NANOS : NANO);
}

export function toResources(list: ResourceMap | null | undefined): Resources {
  const out: Resources = new Map();
  for (const [name, v] of Object.entries(list ?? {})) out.set(name, resourceAmount(name, v));
  return out;
}

export function addInto(target: Resources, add: ReadonlyMap<string, bigint>): void {
  for (const [k, v] of add) target.set(k, (target.get(k) ?? 0n) + v);
}

function maxInto(target: Resources, other: ReadonlyMap<string, bigint>): void {
  for (const [k, v] of other) if (v > (target.get(k) ?? 0n)) target.set(k, v);
}

/**
 * One container's requests. A resource with only a limit requests the limit (what API
 * defaulting would have written). With `nonZero`, missing cpu/memory become 100m/200Mi.
 */
function containerRequests(c: Container, nonZero: boolean): Resources {
  const out = toResources(c.resources?.limits);
  for (const [k, v] of toResources(c.resources?.requests)) out.set(k, v);
  if (nonZero) {
    if (!out.has('cpu')) out.set('cpu', DEFAULT_MILLI_CPU_REQUEST);
    if (!out.has('memory')) out.set('memory', DEFAULT_MEMORY_REQUEST);
  }
  return out;
}

/** Upstream `PodRequests` (with `NonMissingContainerRequests` when `nonZero`). */
export function podRequests(spec: PodSpec, nonZero = false): Resources {
  const total: Resources = new Map();
  for (const c of spec.containers ?? []) addInto(total, containerRequests(c, nonZero));
  const sidecars: Resources = new Map();
  const initPeak: Resources = new Map();
  for (const c of spec.initContainers ?? []) {
    const reqs = containerRequests(c, nonZero);
    const step: Resources = new Map();
    if (c.restartPolicy === 'Always') {
      addInto(total, reqs);
      addInto(sidecars, reqs);
      addInto(step, sidecars);
    } else {
      addInto(step, reqs);
      addInto(step, sidecars);
    }
    maxInto(initPeak, step);
  }
  maxInto(total, initPeak);
  addInto(total, toResources(spec.overhead));
  return total;
}

/**
 * Resources the fit filter checks beyond cpu/memory/ephemeral-storage: upstream "scalar"
 * names (extended `domain/name`, `hugepages-*`, `attachable-volumes-*`).
 */
export function isScalarResource(name: string): boolean {
  return (
    name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')
  );
}
