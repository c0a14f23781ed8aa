/**
 * Upstream `qos.GetPodQOS`: a Pod's quality-of-service class from its containers' CPU and
 * memory requests and limits, computed once at creation into `status.qosClass`.
 *
 * @module
 */
import { compareQuantities, parseQuantity, type Quantity } from '../validation/quantity.js';
import { getObj, type JsonObject, objects } from './json.js';

/** Upstream `PodQOSClass` values. */
export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = ['cpu', 'memory'];

/** Adds the positive CPU/memory quantities of `list` into `acc`; returns the names found. */
function accumulate(list: JsonObject | undefined, acc: Map<string, bigint>): Set<string> {
  const found = new Set<string>();
  for (const [name, v] of Object.entries(list ?? {})) {
    if (!QOS_RESOURCES.includes(name) || (typeof v !== 'string' && typeof v !== 'number')) continue;
    const r = parseQuantity(v);
    if (!r.ok || r.quantity.nanos <= 0n) continue;
    found.add(name);
    acc.set(name, (acc.get(name) ?? 0n) + r.quantity.nanos);
  }
  return found;
}

function asQuantity(nanos: bigint): Quantity {
  return { nanos, format: 'DecimalSI' };
}

/** The QoS class of a pod spec (containers and init containers). */
export function podQOSClass(spec: JsonObject): QOSClass {
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  for (const c of [...objects(spec, 'containers'), ...objects(spec, 'initContainers')]) {
    const res = getObj(c, 'resources');
    accumulate(getObj(res, 'requests'), requests);
    const limitsFound = accumulate(getObj(res, 'limits'), limits);
    if (!QOS_RESOURCES.every((r) => limitsFound.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || compareQuantities(asQuantity(lim), asQuantity(req)) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
