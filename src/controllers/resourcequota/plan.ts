/**
 * What the resource quota controller writes, pure (upstream `syncResourceQuota`): a quota's
 * `status.hard` is its `spec.hard`, and `status.used` the counted usage of every hard resource
 * the controller can count, keeping the last recorded value of one it could not (a kind that
 * failed to list) and dropping resources no longer in `spec.hard`. Nothing is written when
 * both already say so (quantities compared by value: `1Gi` equals `1024Mi`).
 *
 * A deleting pod stops being charged when its grace period ends, with no event to say so:
 * the plan names that moment, so the controller recounts then.
 *
 * @module
 */
import type { ResourceQuota, ResourceQuotaStatus } from '../../api/model/index.js';
import { isJsonObject, type JsonObject, type KubeObject } from '../../api/object.js';
import {
  evaluatorsForNames,
  podChargeEnd,
  podCountsForQuota,
  type QuotaEvaluator,
} from '../../api/quota/evaluators.js';
import { listsEqual, mask, parseResourceList, toJsonList } from '../../api/quota/resource-list.js';
import { quotaScopeRequirements } from '../../api/quota/scopes.js';
import { calculateUsage } from '../../api/quota/usage.js';
import type { Quantity } from '../../api/validation/quantity.js';

/** The status a quota plan writes: both lists, always. */
export type QuotaStatus = Readonly<Required<ResourceQuotaStatus>>;

export interface QuotaPlan {
  /** The status to write; undefined when the recorded one is already right. */
  readonly status?: QuotaStatus;
  /** When a counted pod's grace period ends (epoch ms): recount just after it. */
  readonly recountAt?: number;
}

/** An object's field of any counted kind as JSON (`{}` when absent): quota counts any kind. */
function record(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

/** The hard resource names of a quota's spec. */
export function hardNames(quota: ResourceQuota): string[] {
  return [...parseResourceList(quota.spec?.hard).keys()];
}

/** The evaluators whose kinds the quota counts. */
export function quotaEvaluators(quota: ResourceQuota): QuotaEvaluator[] {
  return evaluatorsForNames(hardNames(quota));
}

/**
 * Plans one quota from the objects of its namespace. `objects(ev)` gives the objects of an
 * evaluator's kind, or undefined when they could not be listed.
 */
export function planQuota(
  quota: ResourceQuota,
  objects: (ev: QuotaEvaluator) => readonly KubeObject[] | undefined,
  now: number,
): QuotaPlan {
  const status = quota.status ?? {};
  const hard = parseResourceList(quota.spec?.hard);
  const names = [...hard.keys()];
  const evaluators = evaluatorsForNames(names);
  const observed = calculateUsage({
    hard: names,
    scopes: quotaScopeRequirements(quota),
    evaluators,
    objects,
    now,
  });
  const recorded = parseResourceList(status.used);
  const used = mask(new Map<string, Quantity>([...recorded, ...observed]), names);
  const dirty =
    status.hard === undefined ||
    status.used === undefined ||
    !listsEqual(hard, parseResourceList(status.hard)) ||
    !listsEqual(used, recorded);
  const recountAt = nextChargeEnd(evaluators, objects, now);
  return {
    ...(dirty ? { status: { hard: toJsonList(hard), used: toJsonList(used) } } : {}),
    ...(recountAt === undefined ? {} : { recountAt }),
  };
}

/** The earliest end of a grace period among the pods still charged. */
function nextChargeEnd(
  evaluators: readonly QuotaEvaluator[],
  objects: (ev: QuotaEvaluator) => readonly KubeObject[] | undefined,
  now: number,
): number | undefined {
  const pods = evaluators.find((ev) => ev.group === '' && ev.resource === 'pods');
  if (pods === undefined) return undefined;
  let earliest: number | undefined;
  for (const pod of objects(pods) ?? []) {
    const end = podChargeEnd(pod);
    if (end === undefined || !podCountsForQuota(pod, now)) continue;
    if (earliest === undefined || end < earliest) earliest = end;
  }
  return earliest;
}

/** Whether a quota counts objects of `group`/`resource` (its changes call for a recount). */
export function quotaTracks(quota: ResourceQuota, group: string, resource: string): boolean {
  return quotaEvaluators(quota).some((ev) => ev.group === group && ev.resource === resource);
}

/**
 * What of an object a quota can see: its usage (at a time before any deletion ends) and the
 * scopes it falls in. An update that leaves this alone (a pod's status, a label) needs no
 * recount.
 */
export function usageFingerprint(ev: QuotaEvaluator, obj: KubeObject): string {
  const usage = toJsonList(ev.usage(obj, Number.NEGATIVE_INFINITY));
  const scopes = ['Terminating', 'BestEffort', 'CrossNamespacePodAffinity'].map((s) =>
    ev.matchesScope({ scopeName: s, operator: 'Exists', values: [] }, obj),
  );
  const spec = record(obj.spec);
  return JSON.stringify([
    usage,
    scopes,
    spec.priorityClassName ?? '',
    record(obj.status).phase ?? '',
    obj.metadata?.deletionTimestamp ?? '',
    obj.metadata?.deletionGracePeriodSeconds ?? '',
  ]);
}
