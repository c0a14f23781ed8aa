/**
 * The decision of quota admission (upstream `resourcequota.CheckRequest`), pure: given the
 * namespace's quotas as last recorded (`status.hard`, `status.used`), one create or update,
 * and its kind's evaluator, either the quotas' new `status.used` (what the write will use) or
 * the reason it is refused, in upstream's words:
 *
 * - `exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2` (only the
 *   exceeded resources are listed);
 * - `failed quota: q: must specify limits.cpu for: app` (a quota tracking compute resources
 *   needs every container to declare them);
 * - `status unknown for quota: q, resources: pods` (the quota controller has not counted a
 *   tracked resource yet).
 *
 * A quota takes part when its `status.hard` names a resource of the kind and its scopes match
 * the object; a quota the controller has not synced (no `status.hard`) constrains nothing,
 * as upstream. An update is charged only what it adds over the old object.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../object.js';
import type { Quantity } from '../validation/quantity.js';
import type { QuotaEvaluator, QuotaOperation } from './evaluators.js';
import {
  addLists,
  exceededNames,
  mask,
  negativeNames,
  parseResourceList,
  prettyPrint,
  prettyPrintNames,
  type ResourceList,
  removeZeros,
  subtractNonNegative,
} from './resource-list.js';
import { quotaScopeRequirements, type ScopeRequirement } from './scopes.js';

/** A quota as admission reads it. */
export interface QuotaState {
  readonly name: string;
  readonly scopes: readonly ScopeRequirement[];
  readonly hard: ResourceList;
  readonly used: ResourceList;
}

/** Reads a stored ResourceQuota's name, scopes and status. */
export function quotaState(quota: KubeObject): QuotaState {
  const status = isJsonObject(quota.status) ? quota.status : {};
  return {
    name: quota.metadata?.name ?? '',
    scopes: quotaScopeRequirements(quota),
    hard: parseResourceList(status.hard),
    used: parseResourceList(status.used),
  };
}

export interface QuotaRequest {
  readonly operation: QuotaOperation;
  readonly object: KubeObject;
  /** The stored object, for updates. */
  readonly old?: KubeObject;
  readonly now: number;
}

export type CheckResult =
  | { readonly ok: true; readonly quotas: readonly QuotaState[] }
  | { readonly ok: false; readonly message: string };

/** Upstream `generic.Matches`: a tracked resource in `status.hard`, and every scope matches. */
export function quotaMatches(ev: QuotaEvaluator, quota: QuotaState, obj: KubeObject): boolean {
  if (ev.matchingResources([...quota.hard.keys()]).length === 0) return false;
  return quota.scopes.every((s) => ev.matchesScope(s, obj));
}

/** Upstream `hasUsageStats`: every tracked hard resource has a recorded usage. */
function hasUsageStats(quota: QuotaState, tracked: readonly string[]): boolean {
  return tracked.every((name) => !quota.hard.has(name) || quota.used.has(name));
}

/** The quotas that constrain this object, or the refusal of one of them. */
function interestingQuotas(
  quotas: readonly QuotaState[],
  ev: QuotaEvaluator,
  obj: KubeObject,
): number[] | string {
  const out: number[] = [];
  for (const [i, q] of quotas.entries()) {
    if (!quotaMatches(ev, q, obj)) continue;
    const tracked = ev.matchingResources([...q.hard.keys()]);
    const why = ev.constraints(tracked, obj);
    if (why !== undefined) return `failed quota: ${q.name}: ${why}`;
    if (!hasUsageStats(q, tracked)) {
      return `status unknown for quota: ${q.name}, resources: ${prettyPrintNames(tracked)}`;
    }
    out.push(i);
  }
  return out;
}

/** Per quota, what the request adds (an update: only the growth over the old object). */
function deltas(
  quotas: readonly QuotaState[],
  indexes: readonly number[],
  ev: QuotaEvaluator,
  req: QuotaRequest,
  input: ResourceList,
): Map<number, Map<string, Quantity>> {
  const out = new Map<number, Map<string, Quantity>>(indexes.map((i) => [i, new Map(input)]));
  const old = req.old;
  if (
    req.operation === 'update' &&
    old !== undefined &&
    (old.metadata?.resourceVersion ?? '') !== ''
  ) {
    const delta = subtractNonNegative(input, ev.usage(old, req.now));
    for (const i of indexes) {
      if (quotaMatches(ev, quotas[i]!, old)) out.set(i, delta);
    }
  }
  for (const [i, d] of out) {
    const nonZero = removeZeros(d);
    if (nonZero.size === 0) out.delete(i);
    else out.set(i, nonZero);
  }
  return out;
}

/** Upstream `CheckRequest`. */
export function checkRequest(
  quotas: readonly QuotaState[],
  req: QuotaRequest,
  ev: QuotaEvaluator,
): CheckResult {
  if (!ev.handles(req.operation)) return { ok: true, quotas };
  const indexes = interestingQuotas(quotas, ev, req.object);
  if (typeof indexes === 'string') return { ok: false, message: indexes };
  if (indexes.length === 0) return { ok: true, quotas };
  const input = ev.usage(req.object, req.now);
  const negative = negativeNames(input);
  if (negative.length > 0) {
    return {
      ok: false,
      message: `quota usage is negative for resource(s): ${prettyPrintNames(negative)}`,
    };
  }
  const byQuota = deltas(quotas, indexes, ev, req, input);
  const next = [...quotas];
  for (const [i, delta] of byQuota) {
    const q = quotas[i]!;
    const requested = mask(delta, q.hard.keys());
    const newUsed = addLists(q.used, requested);
    const exceeded = exceededNames(mask(newUsed, requested.keys()), q.hard);
    if (exceeded.length > 0) {
      return {
        ok: false,
        message:
          `exceeded quota: ${q.name}, requested: ${prettyPrint(mask(requested, exceeded))}, ` +
          `used: ${prettyPrint(mask(q.used, exceeded))}, limited: ${prettyPrint(mask(q.hard, exceeded))}`,
      };
    }
    next[i] = { ...q, used: newUsed };
  }
  return { ok: true, quotas: next };
}
