/**
 * The pure decision of upstream DefaultPreemption's PostFilter (`Evaluator.Preempt`) for a pod
 * no node fits: is it eligible, which nodes might help, the victims on each
 * ({@link selectVictimsOnNode}), the best node ({@link pickOneNodeForPreemption}), and the
 * message upstream appends to the `FailedScheduling` text.
 *
 * - `preemptionPolicy: Never` → `preemption: not eligible due to preemptionPolicy=Never.`
 * - the pod's nominated node still has a lower-priority pod terminating because of a
 *   preemption → `preemption: not eligible due to a terminating pod on the nominated node.`
 *   (its earlier victims are on their way out; preempting more would be wasteful)
 * - nodes rejected as UnschedulableAndUnresolvable (affinity, taints, …) → "Preemption is not
 *   helpful for scheduling"; nodes without lower-priority pods → "No preemption victims found
 *   for incoming pod"; nodes where the pod does not fit even without them → the filter's reasons.
 *
 * The caller writes the result: victims get the `DisruptionTarget` condition and are deleted,
 * the pod gets `status.nominatedNodeName` (cleared, when set, if no node has victims).
 *
 * @module
 */
import type { Pod, PodDisruptionBudget } from '../../api/model/index.js';
import { preemptionFailureText } from '../fit-error.js';
import { buildNodeInfos } from '../node-info.js';
import { podSpecOf } from '../pod-view.js';
import { type ScheduleOptions, schedulingContext } from '../schedule.js';
import type { FilterStatus, NodeInfo } from '../types.js';
import { filterOneNode } from './node-filter.js';
import {
  type NodeVictims,
  pickOneNodeForPreemption,
  podPriority,
  selectVictimsOnNode,
} from './victims.js';

export const NOT_ELIGIBLE_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const NOT_ELIGIBLE_TERMINATING =
  'not eligible due to a terminating pod on the nominated node.';
export const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NO_VICTIMS_FOUND = 'No preemption victims found for incoming pod';

export interface PreemptInput {
  readonly pod: Pod;
  /** Every node as the scheduling attempt saw it (nominated pods included). */
  readonly nodes: readonly NodeInfo[];
  /** Each node's status from the failed attempt (feasible nodes absent). */
  readonly rejected: ReadonlyMap<string, FilterStatus>;
  readonly pdbs: readonly PodDisruptionBudget[];
  readonly now: number;
  readonly schedule?: ScheduleOptions;
  /** A pod already on its way out because of an earlier preemption (upstream `podTerminatingByPreemption`). */
  readonly terminatingByPreemption: (pod: Pod) => boolean;
}

export type PreemptResult =
  | { readonly preempt: { readonly node: string; readonly victims: readonly Pod[] } }
  | {
      /** Upstream's PostFilter message, `preemption: …`. */
      readonly message: string;
      /** Set the pod's nominated node to "" (upstream `NewPostFilterResultWithNominatedNode("")`). */
      readonly clearNomination: boolean;
    };

/** Upstream `PodEligibleToPreemptOthers`: '' when eligible, else why not. */
export function ineligibility(input: PreemptInput): string {
  const { pod } = input;
  if (podSpecOf(pod).preemptionPolicy === 'Never') return NOT_ELIGIBLE_NEVER;
  const nominated = pod.status?.nominatedNodeName ?? '';
  if (nominated === '') return '';
  // Its nominated node cannot take it anyway: preempt again elsewhere.
  if (input.rejected.get(nominated)?.code === 'UnschedulableAndUnresolvable') return '';
  const info = input.nodes.find((n) => n.name === nominated);
  const priority = podPriority(pod);
  const terminating = (info?.pods ?? []).some(
    (p) => podPriority(p) < priority && input.terminatingByPreemption(p),
  );
  return terminating ? NOT_ELIGIBLE_TERMINATING : '';
}

/** The node's status with only `remaining` of its pods (the rest of the cluster unchanged). */
function statusWith(
  input: PreemptInput,
  node: NodeInfo,
  remaining: readonly Pod[],
): FilterStatus | null {
  const [changed] = buildNodeInfos([node.node], remaining);
  if (changed === undefined) return null;
  const nodes = input.nodes.map((n) => (n.name === node.name ? changed : n));
  const ctx = schedulingContext(input.pod, nodes, input.schedule);
  return filterOneNode(ctx, changed, input.schedule);
}

const unresolvable = (reason: string): FilterStatus => ({
  code: 'UnschedulableAndUnresolvable',
  reasons: [reason],
});

/** Upstream `Evaluator.Preempt` without its writes. */
export function preempt(input: PreemptInput): PreemptResult {
  const why = ineligibility(input);
  if (why !== '') return { message: `preemption: ${why}`, clearNomination: false };
  const priority = podPriority(input.pod);
  const statuses = new Map<string, FilterStatus>();
  const candidates = new Map<string, NodeVictims>();
  for (const node of input.nodes) {
    const status = input.rejected.get(node.name);
    if (status?.code === 'UnschedulableAndUnresolvable') {
      statuses.set(node.name, unresolvable(NOT_HELPFUL));
      continue;
    }
    let last: FilterStatus | null = null;
    const fitsWith = (remaining: readonly Pod[]): boolean => {
      last = statusWith(input, node, remaining);
      return last === null;
    };
    const result = selectVictimsOnNode(priority, node.pods, input.pdbs, fitsWith, input.now);
    if ('victims' in result && result.victims.pods.length > 0) {
      candidates.set(node.name, result.victims);
    } else if ('noVictims' in result) {
      statuses.set(node.name, unresolvable(NO_VICTIMS_FOUND));
    } else if ('doesNotFit' in result && last !== null) {
      statuses.set(node.name, last);
    } else {
      // Fits without preempting anyone: upstream reports this as an error status.
      statuses.set(node.name, {
        code: 'UnschedulableAndUnresolvable',
        reasons: [`expected at least one victim pod on node "${node.name}"`],
      });
    }
  }
  const node = pickOneNodeForPreemption(candidates, input.now);
  const victims = node === undefined ? undefined : candidates.get(node);
  if (node !== undefined && victims !== undefined)
    return { preempt: { node, victims: victims.pods } };
  const text = preemptionFailureText(input.nodes.length, [...statuses.values()]);
  return { message: `preemption: ${text}`, clearNomination: true };
}
