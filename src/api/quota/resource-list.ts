/**
 * Resource lists as quota does arithmetic on them (upstream `k8s.io/apiserver/pkg/quota/v1`
 * `resources.go` over `resource.Quantity`): exact sums in nano-units, the format rules of
 * `Quantity.Add`/`Sub` (a zero operand takes the other's format, so `0 + 1Gi` prints `1Gi`),
 * masks, comparisons, and the `name=value,…` text of quota errors.
 *
 * A list is a `Map` from resource name to {@link Quantity}; {@link toJsonList} writes it with
 * sorted keys, as Go encodes a map.
 *
 * @module
 */
import {
  compareQuantities,
  formatQuantity,
  parseQuantity,
  type Quantity,
} from '../validation/quantity.js';

export type ResourceList = ReadonlyMap<string, Quantity>;

const NANO = 1_000_000_000n;

/** A zero quantity in DecimalSI, as `resource.Quantity{Format: DecimalSI}`. */
export const ZERO: Quantity = { nanos: 0n, format: 'DecimalSI' };

/** `resource.NewQuantity(n, DecimalSI)`. */
export function count(n: number | bigint): Quantity {
  return { nanos: BigInt(n) * NANO, format: 'DecimalSI' };
}

/** `Quantity.Add`: the result keeps `a`'s format unless `a` is zero. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** `Quantity.Sub`: the result keeps `a`'s format unless `a` is zero. */
export function subQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** `Quantity.RoundUp(0)`: up to a whole unit (storage is counted in whole bytes). */
export function roundUpToUnit(q: Quantity): Quantity {
  const rem = ((q.nanos % NANO) + NANO) % NANO;
  return rem === 0n ? q : { nanos: q.nanos - rem + NANO, format: q.format };
}

/** The parsed quantity of a JSON value (`"500m"`, `2`), undefined when it does not parse. */
export function quantityOf(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = parseQuantity(v);
  return r.ok ? r.quantity : undefined;
}

/** A JSON resource list (`{cpu: "1", memory: "1Gi"}`); entries that do not parse are left out. */
export function parseResourceList(v: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [name, raw] of Object.entries(v)) {
    const q = quantityOf(raw);
    if (q !== undefined) out.set(name, q);
  }
  return out;
}

/** The JSON form of a list: canonical quantities, keys sorted as Go writes a map. */
export function toJsonList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...list.keys()].sort()) out[name] = formatQuantity(list.get(name)!);
  return out;
}

/** `quota.Add`: every key of either list; shared keys summed. */
export function addLists(a: ResourceList, b: ResourceList): Map<string, Quantity> {
  const out = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur === undefined ? v : addQuantity(cur, v));
  }
  return out;
}

/** `quota.SubtractWithNonNegativeResult`: `a - b` per key, negatives and b-only keys as 0. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [k, v] of a) {
    const other = b.get(k);
    const diff = other === undefined ? v : subQuantity(v, other);
    out.set(k, diff.nanos > 0n ? diff : ZERO);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, ZERO);
  return out;
}

/** `quota.Mask`: only the entries named in `names`. */
export function mask(list: ResourceList, names: Iterable<string>): Map<string, Quantity> {
  const keep = new Set(names);
  return new Map([...list].filter(([k]) => keep.has(k)));
}

/** `quota.RemoveZeros`. */
export function removeZeros(list: ResourceList): Map<string, Quantity> {
  return new Map([...list].filter(([, v]) => v.nanos !== 0n));
}

/** `quota.IsNegative`: the names with a negative value. */
export function negativeNames(list: ResourceList): string[] {
  return [...list].filter(([, v]) => v.nanos < 0n).map(([k]) => k);
}

/** `quota.Equals`: the same keys, and equal quantities (format aside). */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const other = b.get(k);
    if (other === undefined || compareQuantities(v, other) !== 0) return false;
  }
  return true;
}

/** `quota.LessThanOrEqual`: the keys of `hard` that `used` exceeds (none: allowed). */
export function exceededNames(used: ResourceList, hard: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, limit] of hard) {
    const value = used.get(k);
    if (value !== undefined && compareQuantities(value, limit) > 0) out.push(k);
  }
  return out;
}

/** Upstream `prettyPrint`: `name=value` sorted by name, joined by `,`. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k)!)}`)
    .join(',');
}

/** Upstream `prettyPrintResourceNames`: sorted, joined by `,`. */
export function prettyPrintNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}

/** `quota.Intersection`: deduplicated and sorted. */
export function intersection(a: readonly string[], b: readonly string[]): string[] {
  const inB = new Set(b);
  return [...new Set(a.filter((x) => inB.has(x)))].sort();
}
