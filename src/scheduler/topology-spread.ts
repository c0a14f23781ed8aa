/**
 * Pod topology spread constraints compiled for the filter and the score (upstream
 * `podtopologyspread/common.go`): the selector with `matchLabelKeys` folded in, the node
 * inclusion policies, and per-node counting of matching pods.
 *
 * Defaults: `nodeAffinityPolicy: Honor` (only nodes matching the pod's nodeSelector/required
 * node affinity form domains), `nodeTaintsPolicy: Ignore`, `minDomains: 1`.
 *
 * @module
 */

import { newRequirement } from '../api/labels/requirement.js';
import { LabelSelector, labelSelectorFromObject } from '../api/labels/selector.js';
import type { TopologySpreadConstraint } from '../api/model/index.js';
import { matchesRequiredNodeAffinity } from './node-selector.js';
import { isTerminating, labelsOf, namespaceOf } from './pod-view.js';
import { isDoNotScheduleTaint, tolerationsTolerate } from './tolerations.js';
import type { NodeInfo, SchedulingContext } from './types.js';

export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly minDomains: number;
  readonly selector: LabelSelector;
  readonly honorNodeAffinity: boolean;
  readonly honorTaints: boolean;
}

function constraintSelector(
  c: TopologySpreadConstraint,
  podLabels: Readonly<Record<string, string>>,
): LabelSelector {
  try {
    const base = labelSelectorFromObject(c.labelSelector);
    if (base.matchesNothing) return base;
    const extra = (c.matchLabelKeys ?? [])
      .filter((k) => Object.hasOwn(podLabels, k))
      .map((k) => newRequirement(k, 'in', [podLabels[k] ?? '']));
    return extra.length === 0 ? base : LabelSelector.of([...base.requirements, ...extra]);
  } catch {
    return LabelSelector.nothing();
  }
}

/** The pod's constraints with the given `whenUnsatisfiable` (DoNotSchedule or ScheduleAnyway). */
export function spreadConstraints(
  ctx: SchedulingContext,
  when: 'DoNotSchedule' | 'ScheduleAnyway',
): SpreadConstraint[] {
  return (ctx.podSpec.topologySpreadConstraints ?? [])
    .filter((c) => c.whenUnsatisfiable === when)
    .map((c) => ({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      minDomains: c.minDomains ?? 1,
      selector: constraintSelector(c, ctx.podLabels),
      honorNodeAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorTaints: c.nodeTaintsPolicy === 'Honor',
    }));
}

/** Upstream `matchNodeInclusionPolicies`. */
export function nodeIncluded(c: SpreadConstraint, ctx: SchedulingContext, node: NodeInfo): boolean {
  if (c.honorNodeAffinity && !matchesRequiredNodeAffinity(ctx.podSpec, node)) return false;
  if (c.honorTaints) {
    const tolerations = ctx.podSpec.tolerations ?? [];
    const blocked = (node.spec.taints ?? []).some(
      (t) => isDoNotScheduleTaint(t) && !tolerationsTolerate(tolerations, t),
    );
    if (blocked) return false;
  }
  return true;
}

/** True when the node carries every constraint's topology key. */
export function hasAllTopologyKeys(
  constraints: readonly SpreadConstraint[],
  node: NodeInfo,
): boolean {
  return constraints.every((c) => Object.hasOwn(node.labels, c.topologyKey));
}

/** Pods on the node in the pod's namespace, not being deleted, that the selector matches. */
export function countMatching(c: SpreadConstraint, node: NodeInfo, namespace: string): number {
  let n = 0;
  for (const p of node.pods) {
    if (isTerminating(p) || namespaceOf(p) !== namespace) continue;
    if (c.selector.matches(labelsOf(p))) n++;
  }
  return n;
}
