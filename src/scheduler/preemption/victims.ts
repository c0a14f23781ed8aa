/**
 * Which pods to preempt on one node, and which node to preempt on: upstream DefaultPreemption's
 * `SelectVictimsOnNode` and `pickOneNodeForPreemption`
 * (`pkg/scheduler/framework/plugins/defaultpreemption`, `pkg/scheduler/framework/preemption`).
 *
 * On a node, every pod of lower priority than the preemptor is a potential victim. If the
 * preemptor does not fit with all of them gone, the node is no candidate. Otherwise the
 * victims are reprieved one by one, most important first (higher priority, then earlier start):
 * first those whose eviction would violate a PodDisruptionBudget, then the rest; a pod is put
 * back when the preemptor still fits with it. What stays removed are the victims.
 *
 * Among candidate nodes the winner has, in this order of precedence: the fewest PDB
 * violations, the lowest highest-priority victim, the lowest sum of victim priorities, the
 * fewest victims, the latest earliest start time among its highest-priority victims; then the
 * first by name (upstream's map order is random; by name is deterministic).
 *
 * Pure: the fit check is injected, start times are epoch milliseconds.
 *
 * @module
 */

import { type LabelSelector, labelSelectorFromObject } from '../../api/labels/selector.js';
import type { Pod, PodDisruptionBudget } from '../../api/model/index.js';
import { parseTime } from '../../api/time.js';
import { labelsOf, nameOf, namespaceOf } from '../pod-view.js';

/** Upstream `corev1helpers.PodPriority`: `spec.priority`, 0 when unset. */
export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}

/** Upstream `GetPodStartTime`: `status.startTime`, else now (bound pods not yet started). */
export function podStartTime(pod: Pod, now: number): number {
  return parseTime(pod.status?.startTime) ?? now;
}

/** Upstream `MoreImportantPod`: higher priority, then the one that started earlier. */
export function moreImportant(a: Pod, b: Pod, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/** Sort order of {@link moreImportant} (stable for equals). */
export function byImportance(now: number): (a: Pod, b: Pod) => number {
  return (a, b) => (moreImportant(a, b, now) ? -1 : moreImportant(b, a, now) ? 1 : 0);
}

/** A budget as the victim split reads it: its selector, or undefined when it selects nothing. */
interface Budget {
  readonly namespace: string;
  readonly selector: LabelSelector | undefined;
  readonly disrupted: Readonly<Record<string, unknown>>;
}

function budgetOf(pdb: PodDisruptionBudget): Budget {
  let selector: LabelSelector | undefined;
  try {
    selector = labelSelectorFromObject(pdb.spec?.selector);
  } catch {
    selector = undefined;
  }
  // A nil or empty selector matches nothing here (upstream `selector.Empty()`).
  if (selector?.isEmpty() === true || selector?.matchesNothing === true) selector = undefined;
  return {
    namespace: pdb.metadata?.namespace ?? '',
    selector,
    disrupted: pdb.status?.disruptedPods ?? {},
  };
}

/** Whether `budget` counts `pod`: same namespace, selected, not already in `disruptedPods`. */
function charges(budget: Budget, pod: Pod): boolean {
  if (budget.selector === undefined || budget.namespace !== namespaceOf(pod)) return false;
  if (!budget.selector.matches(labelsOf(pod))) return false;
  // Already counted by the disruption controller: charging it again would double-count.
  return !Object.hasOwn(budget.disrupted, nameOf(pod));
}

/**
 * Upstream `filterPodsWithPDBViolation`: walks `pods` in order, charging each to the budgets
 * that select it; a pod that takes a budget's allowed disruptions below zero is violating.
 */
export function splitByPdbViolation(
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: Pod[]; nonViolating: Pod[] } {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const budgets = pdbs.map(budgetOf);
  const violating: Pod[] = [];
  const nonViolating: Pod[] = [];
  for (const pod of pods) {
    let violated = false;
    // A pod without labels matches no budget.
    if (Object.keys(labelsOf(pod)).length > 0) {
      budgets.forEach((budget, i) => {
        if (!charges(budget, pod)) return;
        allowed[i] = (allowed[i] ?? 0) - 1;
        if ((allowed[i] ?? 0) < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(pod);
  }
  return { violating, nonViolating };
}

/** The victims on one node: most important first, and how many break a budget. */
export interface NodeVictims {
  readonly pods: readonly Pod[];
  readonly numPdbViolations: number;
}

/**
 * Whether the preemptor fits on the node when exactly `remaining` of its pods stay (the
 * node's other pods, of equal or higher priority, always stay).
 */
export type FitsWith = (remaining: readonly Pod[]) => boolean;

export type SelectVictimsResult =
  | { readonly victims: NodeVictims }
  | {
      /** No lower-priority pods here (upstream: UnschedulableAndUnresolvable). */
      readonly noVictims: true;
    }
  | {
      /** Still does not fit with every lower-priority pod gone. */
      readonly doesNotFit: true;
    };

/** Upstream `SelectVictimsOnNode` over the node's pods. */
export function selectVictimsOnNode(
  preemptorPriority: number,
  nodePods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
  fitsWith: FitsWith,
  now: number,
): SelectVictimsResult {
  const potential = nodePods.filter((p) => podPriority(p) < preemptorPriority);
  if (potential.length === 0) return { noVictims: true };
  const kept = new Set(nodePods.filter((p) => podPriority(p) >= preemptorPriority));
  const remaining = (): Pod[] => nodePods.filter((p) => kept.has(p));
  if (!fitsWith(remaining())) return { doesNotFit: true };
  potential.sort(byImportance(now));
  const { violating, nonViolating } = splitByPdbViolation(potential, pdbs);
  const victims: Pod[] = [];
  let numPdbViolations = 0;
  const reprieve = (pod: Pod): boolean => {
    kept.add(pod);
    if (fitsWith(remaining())) return true;
    kept.delete(pod);
    victims.push(pod);
    return false;
  };
  for (const pod of violating) if (!reprieve(pod)) numPdbViolations++;
  for (const pod of nonViolating) reprieve(pod);
  victims.sort(byImportance(now));
  return { victims: { pods: victims, numPdbViolations } };
}

/** Upstream `GetEarliestPodStartTime`: earliest start among the highest-priority victims. */
function earliestStartOfTopVictims(pods: readonly Pod[], now: number): number {
  const top = Math.max(...pods.map(podPriority));
  return Math.min(...pods.filter((p) => podPriority(p) === top).map((p) => podStartTime(p, now)));
}

/** Upstream adds MaxInt32 + 1 to every priority so negative priorities sum sensibly. */
const PRIORITY_OFFSET = 2 ** 31;

/** Upstream `pickOneNodeForPreemption`: the score functions in precedence order. */
export function pickOneNodeForPreemption(
  candidates: ReadonlyMap<string, NodeVictims>,
  now: number,
): string | undefined {
  let nodes = [...candidates.keys()].sort();
  const scores: Array<(v: NodeVictims) => number> = [
    (v) => -v.numPdbViolations,
    (v) => -Math.max(...v.pods.map(podPriority)),
    (v) => -v.pods.reduce((sum, p) => sum + podPriority(p) + PRIORITY_OFFSET, 0),
    (v) => -v.pods.length,
    (v) => earliestStartOfTopVictims(v.pods, now),
  ];
  for (const score of scores) {
    if (nodes.length <= 1) break;
    let best = Number.NEGATIVE_INFINITY;
    let selected: string[] = [];
    for (const node of nodes) {
      const victims = candidates.get(node);
      if (victims === undefined) continue;
      const s = score(victims);
      if (s > best) {
        best = s;
        selected = [node];
      } else if (s === best) selected.push(node);
    }
    nodes = selected;
  }
  return nodes[0];
}
