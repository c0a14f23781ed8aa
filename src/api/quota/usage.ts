/**
 * What a quota's namespace uses (upstream `quota.CalculateUsage` + `generic.CalculateUsageStats`),
 * pure: for every evaluator tracking one of the quota's hard resources, the sum of the usage of
 * its kind's objects that match the quota's scopes. Each tracked resource starts at zero, so a
 * quota over an empty namespace reports `pods: 0`.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import type { Quantity } from '../validation/quantity.js';
import type { QuotaEvaluator } from './evaluators.js';
import { addLists, intersection, mask, ZERO } from './resource-list.js';
import type { ScopeRequirement } from './scopes.js';

export interface UsageInput {
  /** The quota's hard resource names (`spec.hard`). */
  readonly hard: readonly string[];
  readonly scopes: readonly ScopeRequirement[];
  /** The evaluators tracking some of `hard`. */
  readonly evaluators: readonly QuotaEvaluator[];
  /** The objects of an evaluator's kind in the quota's namespace; undefined when unknown. */
  readonly objects: (ev: QuotaEvaluator) => readonly KubeObject[] | undefined;
  readonly now: number;
}

/**
 * The observed usage of the resources that could be counted. A resource whose kind could not
 * be listed is absent, so the caller keeps its last recorded value (as upstream does after a
 * failed list).
 */
export function calculateUsage(input: UsageInput): Map<string, Quantity> {
  const potential = input.evaluators.flatMap((ev) => ev.matchingResources(input.hard));
  let matched = intersection(input.hard, potential);
  let total = new Map<string, Quantity>();
  for (const ev of input.evaluators) {
    const names = ev.matchingResources(matched);
    if (names.length === 0) continue;
    const objects = input.objects(ev);
    if (objects === undefined) {
      matched = matched.filter((n) => !names.includes(n));
      continue;
    }
    let used = new Map<string, Quantity>(names.map((n) => [n, ZERO]));
    for (const obj of objects) {
      if (input.scopes.every((s) => ev.matchesScope(s, obj))) {
        used = addLists(used, ev.usage(obj, input.now));
      }
    }
    total = addLists(total, used);
  }
  return mask(total, matched);
}
