/**
 * A pod's effective requests and limits (upstream `pkg/api/v1/resource` `PodRequests` /
 * `PodLimits`, which quota charges and LimitRanger's `Pod` type checks): the containers'
 * sum, raised to what any init container needs while it runs (a sidecar, an init container
 * with `restartPolicy: Always`, keeps running, so it adds to everything after it), plus
 * `spec.overhead` when asked (quota counts it; LimitRanger does not).
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../object.js';
import { compareQuantities, type Quantity } from '../validation/quantity.js';
import { addQuantity, parseResourceList } from './resource-list.js';

type MutableList = Map<string, Quantity>;

/** One container's parsed requests and limits (unparsable amounts left out). */
export interface ContainerView {
  readonly name: string;
  readonly requests: Map<string, Quantity>;
  readonly limits: Map<string, Quantity>;
  readonly sidecar: boolean;
}

function record(v: unknown): Record<string, unknown> {
  return isJsonObject(v) ? v : {};
}

function containers(spec: Record<string, unknown>, key: string): ContainerView[] {
  const list = spec[key];
  if (!Array.isArray(list)) return [];
  return list.map((c) => {
    const res = record(record(c).resources);
    const name = record(c).name;
    return {
      name: typeof name === 'string' ? name : '',
      requests: parseResourceList(res.requests),
      limits: parseResourceList(res.limits),
      sidecar: record(c).restartPolicy === 'Always',
    };
  });
}

/** The containers, then the init containers, of a pod. */
export function podContainers(pod: KubeObject): ContainerView[] {
  const spec = record(pod.spec);
  return [...containers(spec, 'containers'), ...containers(spec, 'initContainers')];
}

/** `addResourceList`: sums into `into`. */
function addInto(into: MutableList, list: ReadonlyMap<string, Quantity>): void {
  for (const [k, v] of list) {
    const cur = into.get(k);
    into.set(k, cur === undefined ? v : addQuantity(cur, v));
  }
}

/** `maxResourceList`: raises `into` to `list` per key. */
function maxInto(into: MutableList, list: ReadonlyMap<string, Quantity>): void {
  for (const [k, v] of list) {
    const cur = into.get(k);
    if (cur === undefined || compareQuantities(v, cur) > 0) into.set(k, v);
  }
}

function aggregate(spec: Record<string, unknown>, pick: (c: ContainerView) => MutableList) {
  const total: MutableList = new Map();
  for (const c of containers(spec, 'containers')) addInto(total, pick(c));
  const sidecars: MutableList = new Map();
  const initMax: MutableList = new Map();
  for (const c of containers(spec, 'initContainers')) {
    let running: MutableList;
    if (c.sidecar) {
      addInto(total, pick(c));
      addInto(sidecars, pick(c));
      running = sidecars;
    } else {
      running = new Map();
      addInto(running, pick(c));
      addInto(running, sidecars);
    }
    maxInto(initMax, running);
  }
  maxInto(total, initMax);
  return total;
}

export interface PodResourceOptions {
  /** Adds `spec.overhead` (upstream's default; LimitRanger's own sum leaves it out). */
  readonly overhead: boolean;
}

/** Upstream `PodRequests`. */
export function podRequests(pod: KubeObject, opts: PodResourceOptions): Map<string, Quantity> {
  const spec = record(pod.spec);
  const reqs = aggregate(spec, (c) => c.requests);
  if (opts.overhead) addInto(reqs, parseResourceList(spec.overhead));
  return reqs;
}

/** Upstream `PodLimits`: overhead is added only to resources that have a limit. */
export function podLimits(pod: KubeObject, opts: PodResourceOptions): Map<string, Quantity> {
  const spec = record(pod.spec);
  const limits = aggregate(spec, (c) => c.limits);
  if (opts.overhead) {
    for (const [k, v] of parseResourceList(spec.overhead)) {
      const cur = limits.get(k);
      if (cur !== undefined) limits.set(k, addQuantity(cur, v));
    }
  }
  return limits;
}
