/**
 * Quota evaluators (upstream `pkg/quota/v1/evaluator/core` and `quota/v1/generic`): for one
 * kind, which quota resource names it answers for, what one object uses, which scopes it
 * matches, and the constraints a covering quota puts on it.
 *
 * - pods: `pods`, `count/pods`, `cpu`/`memory`/`ephemeral-storage` (= requests),
 *   `requests.*`, `limits.*`, hugepages and extended `requests.<domain>/<name>`; a terminal
 *   pod (Succeeded/Failed), or one past its deletion grace period, uses only `count/pods`;
 * - services: `services`, `count/services`, `services.nodeports` (one per port of a NodePort
 *   or LoadBalancer service), `services.loadbalancers`;
 * - persistentvolumeclaims: `persistentvolumeclaims`, `count/persistentvolumeclaims`,
 *   `requests.storage` (the larger of the request and `status.allocatedResources`, rounded
 *   up to whole bytes), and both per class as `<class>.storageclass.storage.k8s.io/<name>`;
 * - everything else: `count/<resource>.<group>` (core: `count/<resource>`), plus the legacy
 *   names `configmaps`, `secrets`, `resourcequotas`, `replicationcontrollers`.
 *
 * @module
 */

import { storageClassOf } from '../kinds/storage-class.js';
import { isJsonObject, type KubeObject } from '../object.js';
import type { Quantity } from '../validation/quantity.js';
import { podContainers, podLimits, podRequests } from './pod-resources.js';
import { addLists, count, intersection, quantityOf, roundUpToUnit, ZERO } from './resource-list.js';
import { podMatchesScope, type ScopeRequirement } from './scopes.js';

export type QuotaOperation = 'create' | 'update';

export interface QuotaEvaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether an operation on the main resource can change usage. */
  handles(op: QuotaOperation): boolean;
  /** The names of `names` this evaluator tracks. */
  matchingResources(names: readonly string[]): string[];
  matchesScope(req: ScopeRequirement, obj: KubeObject): boolean;
  /** What `obj` uses; `now` decides whether a deleting pod's grace period is over. */
  usage(obj: KubeObject, now: number): Map<string, Quantity>;
  /** Why `obj` cannot be admitted under a quota tracking `required`; undefined when it can. */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
}

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

/** Upstream `ObjectCountQuotaResourceNameFor`. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

function record(v: unknown): Record<string, unknown> {
  return isJsonObject(v) ? v : {};
}

const noScope = (): boolean => false;
const noConstraints = (): undefined => undefined;

/** Upstream `NewObjectCountEvaluator`: one object is one of `count/…` (and the alias). */
export function objectCountEvaluator(
  group: string,
  resource: string,
  alias?: string,
): QuotaEvaluator {
  const names =
    alias === undefined
      ? [objectCountName(group, resource)]
      : [objectCountName(group, resource), alias];
  return {
    group,
    resource,
    handles: (op) => op === 'create',
    matchingResources: (input) => intersection(input, names),
    matchesScope: noScope,
    usage: () => new Map(names.map((n) => [n, count(1)])),
    constraints: noConstraints,
  };
}

// ---- pods ----

const POD_RESOURCES = [
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
];
const POD_RESOURCE_PREFIXES = ['hugepages-', 'requests.hugepages-'];
/** Quota's backward-compatibility rule: tracking these makes every container declare them. */
const VALIDATION_SET = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);

/** Upstream `IsNativeResource`: no domain, or a `kubernetes.io/` one. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** Upstream `IsExtendedResourceName` (a container resource such as `example.com/gpu`). */
function isExtendedResourceName(name: string): boolean {
  return !isNativeResource(name) && !name.startsWith('requests.');
}

/** Upstream `podComputeUsageHelper`. */
function computeUsage(
  requests: ReadonlyMap<string, Quantity>,
  limits: ReadonlyMap<string, Quantity>,
) {
  const out = new Map<string, Quantity>([['pods', count(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req !== undefined) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim !== undefined) out.set(`limits.${r}`, lim);
  }
  for (const [name, q] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, q);
      out.set(`requests.${name}`, q);
    }
    if (isExtendedResourceName(name)) out.set(`requests.${name}`, q);
  }
  return out;
}

/** Upstream `QuotaV1Pod`: terminal pods, and pods past their deletion grace, are not charged. */
export function podCountsForQuota(pod: KubeObject, now: number): boolean {
  const phase = record(pod.status).phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const end = podChargeEnd(pod);
  return end === undefined || now <= end;
}

/** When a deleting pod stops being charged (deletionTimestamp + grace), in epoch ms. */
export function podChargeEnd(pod: KubeObject): number | undefined {
  const ts = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (typeof ts !== 'string' || typeof grace !== 'number') return undefined;
  const at = Date.parse(ts);
  return Number.isNaN(at) ? undefined : at + grace * 1000;
}

/** Upstream `podEvaluator.Constraints`: `must specify limits.cpu for: a,b; requests.memory for: a`. */
function podConstraints(required: readonly string[], pod: KubeObject): string | undefined {
  const need = required.filter((r) => VALIDATION_SET.has(r));
  const missing = new Map<string, Set<string>>();
  for (const c of podContainers(pod)) {
    const have = computeUsage(c.requests, c.limits);
    for (const r of need) {
      if (have.has(r)) continue;
      const names = missing.get(r) ?? new Set<string>();
      names.add(c.name);
      missing.set(r, names);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()]
    .sort()
    .map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

export const podEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'pods',
  // Pod resources change only through the `resize` subresource, which is not served.
  handles: (op) => op === 'create',
  matchingResources(input) {
    const out = intersection(input, POD_RESOURCES);
    for (const name of input) {
      if (POD_RESOURCE_PREFIXES.some((p) => name.startsWith(p))) out.push(name);
      else if (!isNativeResource(name) && name.startsWith('requests.')) out.push(name);
    }
    return out;
  },
  matchesScope: podMatchesScope,
  usage(pod, now) {
    const base = new Map([['count/pods', count(1)]]);
    if (!podCountsForQuota(pod, now)) return base;
    const opts = { overhead: true };
    return addLists(base, computeUsage(podRequests(pod, opts), podLimits(pod, opts)));
  },
  constraints: podConstraints,
};

// ---- services ----

const SERVICE_RESOURCES = [
  'count/services',
  'services',
  'services.nodeports',
  'services.loadbalancers',
];

function serviceUsage(svc: KubeObject): Map<string, Quantity> {
  const spec = record(svc.spec);
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  const out = new Map<string, Quantity>([
    ['count/services', count(1)],
    ['services', count(1)],
    ['services.loadbalancers', ZERO],
    ['services.nodeports', ZERO],
  ]);
  if (spec.type === 'NodePort') out.set('services.nodeports', count(ports.length));
  if (spec.type === 'LoadBalancer') {
    // Without node ports for the balancer only explicitly requested ones are used.
    const explicit = ports.filter((p) => (record(p).nodePort ?? 0) !== 0).length;
    out.set(
      'services.nodeports',
      count(spec.allocateLoadBalancerNodePorts === false ? explicit : ports.length),
    );
    out.set('services.loadbalancers', count(1));
  }
  return out;
}

export const serviceEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'services',
  // Updates too: changing the type changes node ports and load balancers.
  handles: () => true,
  matchingResources: (input) => intersection(input, SERVICE_RESOURCES),
  matchesScope: noScope,
  usage: serviceUsage,
  constraints: noConstraints,
};

// ---- persistentvolumeclaims ----

const PVC_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];

/** Upstream `getStorageUsage`: the request, or the allocation when larger, in whole bytes. */
function claimStorage(pvc: KubeObject): Quantity | undefined {
  const request = quantityOf(record(record(record(pvc.spec).resources).requests).storage);
  if (request === undefined) return undefined;
  const allocated = quantityOf(record(record(pvc.status).allocatedResources).storage);
  const larger = allocated !== undefined && allocated.nanos > request.nanos ? allocated : request;
  return roundUpToUnit(larger);
}

function claimUsage(pvc: KubeObject): Map<string, Quantity> {
  const out = new Map<string, Quantity>([
    ['persistentvolumeclaims', count(1)],
    ['count/persistentvolumeclaims', count(1)],
  ]);
  const cls = storageClassOf(pvc);
  if (cls !== '') out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, count(1));
  const storage = claimStorage(pvc);
  if (storage !== undefined) {
    out.set('requests.storage', storage);
    if (cls !== '') out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
  return out;
}

export const claimEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  // Updates too: a resize asks for more storage.
  handles: () => true,
  matchingResources(input) {
    const out: string[] = [];
    for (const name of input) {
      if (name === 'count/persistentvolumeclaims' || PVC_RESOURCES.includes(name)) out.push(name);
      else if (PVC_RESOURCES.some((r) => name.endsWith(`${STORAGE_CLASS_SUFFIX}${r}`)))
        out.push(name);
    }
    return out;
  },
  // The VolumeAttributesClass scope needs a gate that is off in v1.33.
  matchesScope: noScope,
  usage: claimUsage,
  constraints: noConstraints,
};

// ---- the registry ----

/** Upstream `legacyObjectCountAliases`. */
const LEGACY_ALIASES: Readonly<Record<string, string>> = {
  configmaps: 'configmaps',
  resourcequotas: 'resourcequotas',
  replicationcontrollers: 'replicationcontrollers',
  secrets: 'secrets',
};

/** Upstream's default ignored resources that can be stored in a namespace: core Events. */
function ignored(group: string, resource: string): boolean {
  return group === '' && resource === 'events';
}

/** The evaluator of a resource (undefined for ignored ones); unknown kinds are counted. */
export function evaluatorFor(group: string, resource: string): QuotaEvaluator | undefined {
  if (ignored(group, resource)) return undefined;
  if (group === '') {
    if (resource === 'pods') return podEvaluator;
    if (resource === 'services') return serviceEvaluator;
    if (resource === 'persistentvolumeclaims') return claimEvaluator;
    const alias = LEGACY_ALIASES[resource];
    if (alias !== undefined) return objectCountEvaluator(group, resource, alias);
  }
  return objectCountEvaluator(group, resource);
}

/** The group and resource a quota name `count/<resource>[.<group>]` counts. */
export function countedResource(name: string): { group: string; resource: string } | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  if (rest === '' || dot === 0) return undefined;
  return dot < 0
    ? { group: '', resource: rest }
    : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

/**
 * The evaluators that track some of `names` (a quota's hard resources): the core ones, and an
 * object counter for every `count/…` of another kind.
 */
export function evaluatorsForNames(names: readonly string[]): QuotaEvaluator[] {
  const out = new Map<string, QuotaEvaluator>();
  const fixed = [podEvaluator, serviceEvaluator, claimEvaluator];
  for (const [resource, alias] of Object.entries(LEGACY_ALIASES)) {
    fixed.push(objectCountEvaluator('', resource, alias));
  }
  for (const ev of fixed) {
    if (ev.matchingResources(names).length > 0) out.set(`${ev.group}/${ev.resource}`, ev);
  }
  for (const name of names) {
    const counted = countedResource(name);
    if (counted === undefined) continue;
    const key = `${counted.group}/${counted.resource}`;
    const ev = evaluatorFor(counted.group, counted.resource);
    if (!out.has(key) && ev !== undefined) out.set(key, ev);
  }
  return [...out.values()];
}
