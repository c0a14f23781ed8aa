/**
 * The scheduler's pure decision for one pod (upstream `schedulePod`): scheduling gates, then
 * the default profile's filters in upstream order, then weighted scores, then a tie-break
 * among the best nodes through an injected random function.
 *
 * Nothing here reads a clock, a client or `Math.random`; the caller writes the binding
 * (`POST …/pods/{name}/binding`) or the `PodScheduled=False` condition from the result.
 *
 * @module
 */
import type { Node, Pod } from '../api/model/index.js';
import { interPodAffinityFilter } from './filters/inter-pod-affinity.js';
import { nodeAffinityFilter } from './filters/node-affinity.js';
import { nodeNameFilter } from './filters/node-name.js';
import { nodePortsFilter } from './filters/node-ports.js';
import { nodeResourcesFitFilter } from './filters/node-resources-fit.js';
import { nodeUnschedulableFilter } from './filters/node-unschedulable.js';
import { podTopologySpreadFilter } from './filters/pod-topology-spread.js';
import { taintTolerationFilter } from './filters/taint-toleration.js';
import { fitErrorMessage, NO_NODES_AVAILABLE, reasonHistogram } from './fit-error.js';
import { buildNodeInfos } from './node-info.js';
import { feasibleNodesToFind, type NodeRotation } from './nodes-to-find.js';
import { labelsOf, namespaceOf, podSpecOf } from './pod-view.js';
import { interPodAffinityScore } from './scores/inter-pod-affinity.js';
import { nodeAffinityScore } from './scores/node-affinity.js';
import { podTopologySpreadScore } from './scores/pod-topology-spread.js';
import { balancedAllocationScore, leastAllocatedScore } from './scores/resource-allocation.js';
import { taintTolerationScore } from './scores/taint-toleration.js';
import type {
  FilterPlugin,
  FilterStatus,
  NodeInfo,
  SchedulingContext,
  ScorePlugin,
} from './types.js';
import { type VolumeBindingHook, volumeBindingFilter } from './volume-binding-hook.js';

export interface ScheduleOptions {
  /** Returns a number in [0, 1); picks among equally scored nodes. Default: always the first by name. */
  readonly random?: () => number;
  /** Namespace labels for affinity `namespaceSelector`s; unknown namespaces have no labels. */
  readonly namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
  /** The storage module's volume checks; without it volumes never restrict placement. */
  readonly volumeBinding?: VolumeBindingHook;
  /**
   * The scheduler's round-robin start (`nodes-to-find.ts`): with it, filtering stops once
   * {@link feasibleNodesToFind} nodes passed, as upstream; without it every node is filtered
   * (preemption's diagnosis, tests).
   */
  readonly rotation?: NodeRotation;
}

/** Upstream `PodScheduled=False` reason `SchedulingGated` and its message. */
export const SCHEDULING_GATED_REASON = 'SchedulingGated';
export const SCHEDULING_GATED_MESSAGE = 'Scheduling is blocked due to non-empty scheduling gates';

export type ScheduleResult =
  | { readonly node: string }
  | {
      readonly unschedulable: {
        /** The `PodScheduled` condition message (reason `Unschedulable`). */
        readonly message: string;
        /** Filter reason → number of nodes rejected for it. */
        readonly reasons: Readonly<Record<string, number>>;
      };
    }
  | { readonly gated: { readonly reason: string; readonly message: string } };

function filterPlugins(opts: ScheduleOptions): FilterPlugin[] {
  const volume = opts.volumeBinding === undefined ? [] : [volumeBindingFilter(opts.volumeBinding)];
  return [
    nodeUnschedulableFilter,
    nodeNameFilter,
    taintTolerationFilter,
    nodeAffinityFilter,
    nodePortsFilter,
    nodeResourcesFitFilter,
    ...volume,
    podTopologySpreadFilter,
    interPodAffinityFilter,
  ];
}

/** The default profile's scorers with upstream weights. */
export const SCORE_PLUGINS: readonly ScorePlugin[] = [
  taintTolerationScore,
  nodeAffinityScore,
  leastAllocatedScore,
  podTopologySpreadScore,
  interPodAffinityScore,
  balancedAllocationScore,
];

export function schedulingContext(
  pod: Pod,
  nodes: readonly NodeInfo[],
  opts: ScheduleOptions = {},
): SchedulingContext {
  const lookup = opts.namespaceLabels;
  return {
    pod,
    podSpec: podSpecOf(pod),
    namespace: namespaceOf(pod),
    podLabels: labelsOf(pod),
    nodes,
    namespaceLabels: (ns) => lookup?.(ns) ?? {},
  };
}

export interface FeasibilityResult {
  readonly feasible: NodeInfo[];
  /** Node name → the status of the first filter that rejected it. */
  readonly rejected: Map<string, FilterStatus>;
}

/**
 * Runs the filters on the nodes; a node stops at its first failing filter (upstream). With
 * `opts.rotation`, from its start round-robin until enough nodes passed (upstream
 * `findNodesThatPassFilters`), advancing it past the nodes looked at; else on every node.
 */
export function feasibleNodes(
  ctx: SchedulingContext,
  opts: ScheduleOptions = {},
): FeasibilityResult {
  const checks = filterPlugins(opts).map((p) => p.prepare(ctx));
  const feasible: NodeInfo[] = [];
  const rejected = new Map<string, FilterStatus>();
  const all = ctx.nodes.length;
  const wanted = opts.rotation === undefined ? all : feasibleNodesToFind(all);
  const start = opts.rotation === undefined || all === 0 ? 0 : opts.rotation.next % all;
  let looked = 0;
  while (looked < all && feasible.length < wanted) {
    const node = ctx.nodes[(start + looked) % all];
    looked++;
    if (node === undefined) continue;
    let failure: FilterStatus | null = null;
    for (const check of checks) {
      failure = check(node);
      if (failure !== null) break;
    }
    if (failure === null) feasible.push(node);
    else rejected.set(node.name, failure);
  }
  if (opts.rotation !== undefined && all > 0) opts.rotation.next = (start + looked) % all;
  return { feasible, rejected };
}

/** Weighted sum of the normalised scores of every plugin, per feasible node. */
export function scoreNodes(
  ctx: SchedulingContext,
  feasible: readonly NodeInfo[],
): Map<string, number> {
  const totals = new Map(feasible.map((n) => [n.name, 0]));
  for (const plugin of SCORE_PLUGINS) {
    const scores = plugin.score(ctx, feasible);
    if (scores === null) continue;
    for (const [name, s] of scores) totals.set(name, (totals.get(name) ?? 0) + s * plugin.weight);
  }
  return totals;
}

/** The best-scored node; ties are ordered by name and picked with `random`. */
export function selectHost(totals: ReadonlyMap<string, number>, random: () => number): string {
  let best = Number.NEGATIVE_INFINITY;
  let top: string[] = [];
  for (const [name, s] of totals) {
    if (s > best) {
      best = s;
      top = [name];
    } else if (s === best) top.push(name);
  }
  top.sort();
  const i = Math.min(top.length - 1, Math.max(0, Math.floor(random() * top.length)));
  return top[i] ?? '';
}

function unschedulable(message: string, reasons: Record<string, number>): ScheduleResult {
  return { unschedulable: { message, reasons } };
}

/**
 * Decides where `pod` goes among `nodes`, given the pods already bound (`spec.nodeName` set;
 * terminal ones are ignored). Returns the node, the unschedulable diagnosis upstream would
 * write, or `gated` while `spec.schedulingGates` is non-empty.
 */
export function schedule(
  pod: Pod,
  nodes: readonly Node[],
  podsOnNodes: readonly Pod[],
  opts: ScheduleOptions = {},
): ScheduleResult {
  return scheduleOnNodeInfos(pod, buildNodeInfos(nodes, podsOnNodes), opts);
}

/**
 * {@link schedule} over prepared {@link NodeInfo}s: the scheduler's incremental cache (with
 * assumed pods) hands them over without rebuilding them from every pod per attempt.
 */
export function scheduleOnNodeInfos(
  pod: Pod,
  nodeInfos: readonly NodeInfo[],
  opts: ScheduleOptions = {},
): ScheduleResult {
  const spec = podSpecOf(pod);
  if ((spec.schedulingGates ?? []).length > 0) {
    return { gated: { reason: SCHEDULING_GATED_REASON, message: SCHEDULING_GATED_MESSAGE } };
  }
  if (nodeInfos.length === 0) return unschedulable(NO_NODES_AVAILABLE, {});
  const ctx = schedulingContext(pod, nodeInfos, opts);
  const preemptionNever = spec.preemptionPolicy === 'Never';
  const pre = opts.volumeBinding?.preFilter?.(pod) ?? null;
  if (pre !== null) {
    const statuses = ctx.nodes.map(() => pre);
    const message = fitErrorMessage({
      totalNodes: nodeInfos.length,
      statuses,
      preFilterMessage: pre.reasons[0] ?? '',
      preemptionNever,
    });
    return unschedulable(message, reasonHistogram(statuses));
  }
  const { feasible, rejected } = feasibleNodes(ctx, opts);
  if (feasible.length === 0) {
    const statuses = [...rejected.values()];
    const message = fitErrorMessage({ totalNodes: nodeInfos.length, statuses, preemptionNever });
    return unschedulable(message, reasonHistogram(statuses));
  }
  const [only] = feasible;
  if (feasible.length === 1 && only !== undefined) return { node: only.name };
  return { node: selectHost(scoreNodes(ctx, feasible), opts.random ?? (() => 0)) };
}
