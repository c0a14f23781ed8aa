/**
 * The rules of the LimitRanger admission plugin (upstream `plugin/pkg/admission/limitranger`),
 * pure: a LimitRange's items with their defaults (upstream `SetDefaults_LimitRangeItem`), the
 * default requests and limits it fills into a pod's containers, and its `min`, `max` and
 * `maxLimitRequestRatio` checks of containers, pods and claims, with upstream's messages:
 *
 * - `maximum cpu usage per Container is 1, but limit is 2`
 * - `minimum memory usage per Pod is 1Gi.  No request is specified`
 * - `cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000`
 *
 * Several failures of one LimitRange are reported together as `[first, second]`.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../../api/object.js';
import { podContainers, podLimits, podRequests } from '../../api/quota/pod-resources.js';
import { parseResourceList } from '../../api/quota/resource-list.js';
import { formatQuantity, type Quantity } from '../../api/validation/quantity.js';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

export interface LimitRangeItem {
  readonly type: string;
  readonly max: ReadonlyMap<string, Quantity>;
  readonly min: ReadonlyMap<string, Quantity>;
  readonly default: ReadonlyMap<string, Quantity>;
  readonly defaultRequest: ReadonlyMap<string, Quantity>;
  readonly maxLimitRequestRatio: ReadonlyMap<string, Quantity>;
}

type List = ReadonlyMap<string, Quantity>;

function record(v: unknown): Record<string, unknown> {
  return isJsonObject(v) ? v : {};
}

/** Fills `into` with `from`'s entries it lacks. */
function withMissing(into: Map<string, Quantity>, from: List): void {
  for (const [k, v] of from) if (!into.has(k)) into.set(k, v);
}

/**
 * The items of a LimitRange. A Container item's `default` falls back to `max`, its
 * `defaultRequest` to `default`, then to `min` (upstream's defaulting of stored LimitRanges).
 */
export function limitRangeItems(lr: KubeObject): LimitRangeItem[] {
  const limits = record(lr.spec).limits;
  if (!Array.isArray(limits)) return [];
  return limits.map((raw) => {
    const item = record(raw);
    const type = typeof item.type === 'string' ? item.type : '';
    const max = parseResourceList(item.max);
    const min = parseResourceList(item.min);
    const dflt = parseResourceList(item.default);
    const dfltRequest = parseResourceList(item.defaultRequest);
    if (type === 'Container') {
      withMissing(dflt, max);
      withMissing(dfltRequest, dflt);
      withMissing(dfltRequest, min);
    }
    return {
      type,
      max,
      min,
      default: dflt,
      defaultRequest: dfltRequest,
      maxLimitRequestRatio: parseResourceList(item.maxLimitRequestRatio),
    };
  });
}

// ---- defaults ----

/** Upstream `defaultContainerResourceRequirements`: the last Container item wins per key. */
function containerDefaults(items: readonly LimitRangeItem[]): { requests: List; limits: List } {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  for (const item of items) {
    if (item.type !== 'Container') continue;
    for (const [k, v] of item.defaultRequest) requests.set(k, v);
    for (const [k, v] of item.default) limits.set(k, v);
  }
  return { requests, limits };
}

/** Sets the missing entries of `list` (a container's requests or limits); returns their names. */
function fillMissing(res: Record<string, unknown>, key: string, defaults: List): string[] {
  const list = record(res[key]);
  const set: string[] = [];
  for (const [k, v] of defaults) {
    if (Object.hasOwn(list, k)) continue;
    list[k] = formatQuantity(v);
    set.push(k);
  }
  if (set.length > 0 || res[key] !== undefined) res[key] = list;
  return set.sort();
}

/**
 * Upstream `PodMutateLimitFunc`: fills the defaults into every container and init container
 * that lacks them, and records what it set in the `kubernetes.io/limit-ranger` annotation.
 * Mutates `pod`; returns whether anything changed.
 */
export function applyContainerDefaults(pod: KubeObject, items: readonly LimitRangeItem[]): boolean {
  const defaults = containerDefaults(items);
  const notes: string[] = [];
  const spec = record(pod.spec);
  for (const [key, label] of [
    ['containers', 'container'],
    ['initContainers', 'init container'],
  ] as const) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      const container = record(c);
      const res = record(container.resources);
      container.resources = res;
      const setRequests = fillMissing(res, 'requests', defaults.requests);
      const setLimits = fillMissing(res, 'limits', defaults.limits);
      const name = typeof container.name === 'string' ? container.name : '';
      if (setRequests.length > 0)
        notes.push(`${setRequests.join(', ')} request for ${label} ${name}`);
      if (setLimits.length > 0) notes.push(`${setLimits.join(', ')} limit for ${label} ${name}`);
    }
  }
  if (notes.length === 0) return false;
  pod.metadata = pod.metadata ?? {};
  pod.metadata.annotations = {
    ...(pod.metadata.annotations ?? {}),
    [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}`,
  };
  return true;
}

// ---- constraints ----

const NANO = 1_000_000_000n;
const MILLI_NANOS = 1_000_000n;
/** Upstream `resource.MaxMilliValue`: the largest value whose milli-value fits an int64. */
const MAX_MILLI_VALUE = (2n ** 63n - 1n) / 1000n;

/** `Quantity.ScaledValue`: rounded up to the unit. */
function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d > 0n ? q + 1n : q;
}

/** Upstream `requestLimitEnforcedValues`: milli-units when all three fit, else units. */
function comparable(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity) {
  const all = [req?.nanos ?? 0n, lim?.nanos ?? 0n, enforced.nanos];
  const units = all.map((n) => ceilDiv(n, NANO));
  const values = units.every((u) => u <= MAX_MILLI_VALUE)
    ? all.map((n) => ceilDiv(n, MILLI_NANOS))
    : units;
  return { req: values[0]!, lim: values[1]!, enforced: values[2]! };
}

function minConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: List,
  limits: List,
) {
  const req = requests.get(name);
  const lim = limits.get(name);
  const v = comparable(req, lim, enforced);
  const e = formatQuantity(enforced);
  if (req === undefined)
    return `minimum ${name} usage per ${type} is ${e}.  No request is specified`;
  if (v.req < v.enforced)
    return `minimum ${name} usage per ${type} is ${e}, but request is ${formatQuantity(req)}`;
  if (lim !== undefined && v.lim < v.enforced) {
    return `minimum ${name} usage per ${type} is ${e}, but limit is ${formatQuantity(lim)}`;
  }
  return undefined;
}

function maxConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: List,
  limits: List,
) {
  const req = requests.get(name);
  const lim = limits.get(name);
  const v = comparable(req, lim, enforced);
  const e = formatQuantity(enforced);
  if (lim === undefined) return `maximum ${name} usage per ${type} is ${e}.  No limit is specified`;
  if (v.lim > v.enforced)
    return `maximum ${name} usage per ${type} is ${e}, but limit is ${formatQuantity(lim)}`;
  if (req !== undefined && v.req > v.enforced) {
    return `maximum ${name} usage per ${type} is ${e}, but request is ${formatQuantity(req)}`;
  }
  return undefined;
}

/** Claims have no limits: `max` applies to the request. */
function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: List) {
  const req = requests.get(name);
  const v = comparable(req, undefined, enforced);
  const e = formatQuantity(enforced);
  if (req === undefined)
    return `maximum ${name} usage per ${type} is ${e}.  No request is specified`;
  if (v.req > v.enforced)
    return `maximum ${name} usage per ${type} is ${e}, but request is ${formatQuantity(req)}`;
  return undefined;
}

function ratioConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: List,
  limits: List,
) {
  const v = comparable(requests.get(name), limits.get(name), enforced);
  const e = formatQuantity(enforced);
  if (!requests.has(name) || v.req === 0n) {
    return `${name} max limit to request ratio per ${type} is ${e}, but no request is specified or request is 0`;
  }
  if (!limits.has(name) || v.lim === 0n) {
    return `${name} max limit to request ratio per ${type} is ${e}, but no limit is specified or limit is 0`;
  }
  // Upstream compares float64s: the ratio of the comparable values against the enforced one.
  const observed = Number(v.lim) / Number(v.req);
  const enforcedUnits = ceilDiv(enforced.nanos, NANO);
  const milli = enforcedUnits <= MAX_MILLI_VALUE;
  const scaledObserved = milli ? observed * 1000 : observed;
  const max = Number(milli ? ceilDiv(enforced.nanos, MILLI_NANOS) : enforcedUnits);
  if (scaledObserved > max) {
    return `${name} max limit to request ratio per ${type} is ${e}, but provided ratio is ${goFormatFixed6(observed)}`;
  }
  return undefined;
}

/** Go's `fmt.Sprintf("%f", x)`: the exact binary value rounded half-to-even to 6 decimals. */
export function goFormatFixed6(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const negative = x < 0 || Object.is(x, -0);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = exponentBits === 0 ? fraction : fraction | (1n << 52n);
  const exp = (exponentBits === 0 ? 1 : exponentBits) - 1075;
  let scaled: bigint;
  if (exp >= 0) scaled = (mantissa << BigInt(exp)) * 1_000_000n;
  else {
    const num = mantissa * 1_000_000n;
    const den = 1n << BigInt(-exp);
    scaled = num / den;
    const twice = 2n * (num % den);
    if (twice > den || (twice === den && scaled % 2n === 1n)) scaled += 1n;
  }
  const int = scaled / 1_000_000n;
  const frac = (scaled % 1_000_000n).toString().padStart(6, '0');
  return `${negative ? '-' : ''}${int}.${frac}`;
}

/** Upstream `utilerrors.NewAggregate(errs).Error()`: one message, or `[a, b]` without repeats. */
export function aggregateMessage(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

function sortedEntries(list: List): Array<[string, Quantity]> {
  return [...list].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The min/max/ratio failures of one set of requests and limits against one item. */
function checkItem(item: LimitRangeItem, requests: List, limits: List): string[] {
  const out: Array<string | undefined> = [];
  for (const [k, v] of sortedEntries(item.min))
    out.push(minConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of sortedEntries(item.max))
    out.push(maxConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of sortedEntries(item.maxLimitRequestRatio)) {
    out.push(ratioConstraint(item.type, k, v, requests, limits));
  }
  return out.filter((m): m is string => m !== undefined);
}

/** Upstream `PodValidateLimitFunc`: the refusal of one LimitRange, or undefined. */
export function validatePodLimits(
  pod: KubeObject,
  items: readonly LimitRangeItem[],
): string | undefined {
  const errors: string[] = [];
  for (const item of items) {
    if (item.type === 'Container') {
      for (const c of podContainers(pod)) errors.push(...checkItem(item, c.requests, c.limits));
    } else if (item.type === 'Pod') {
      const opts = { overhead: false };
      errors.push(...checkItem(item, podRequests(pod, opts), podLimits(pod, opts)));
    }
  }
  return aggregateMessage(errors);
}

/** Upstream `PersistentVolumeClaimValidateLimitFunc`: `min` and `max` of the storage request. */
export function validateClaimLimits(
  pvc: KubeObject,
  items: readonly LimitRangeItem[],
): string | undefined {
  const requests = parseResourceList(record(record(record(pvc.spec).resources).requests));
  const errors: string[] = [];
  for (const item of items) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sortedEntries(item.min)) {
      const m = minConstraint(item.type, k, v, requests, new Map());
      if (m !== undefined) errors.push(m);
    }
    for (const [k, v] of sortedEntries(item.max)) {
      const m = maxRequestConstraint(item.type, k, v, requests);
      if (m !== undefined) errors.push(m);
    }
  }
  return aggregateMessage(errors);
}
