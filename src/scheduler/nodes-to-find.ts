/**
 * How many feasible nodes the scheduler looks for before it stops filtering (upstream
 * `numFeasibleNodesToFind`, `schedule_one.go`), with the default `percentageOfNodesToScore` of
 * 0, which adapts: all nodes below 100; else 50 % less 1 % per 125 nodes, at least 5 %, and
 * never fewer than 100 nodes. At 1,000 nodes that is 420: a pod's filters and scores run on
 * 42 % of the cluster, which is what keeps scheduling cost from growing with it.
 *
 * The search starts where the previous pod's stopped (upstream `nextStartNodeIndex`), so the
 * cluster is visited round-robin rather than the same first nodes every time.
 *
 * @module
 */

/** Upstream `minFeasibleNodesToFind`. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** Upstream `minFeasibleNodesPercentageToFind`. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

export function feasibleNodesToFind(allNodes: number): number {
  if (allNodes < MIN_FEASIBLE_NODES_TO_FIND) return allNodes;
  const percentage = Math.max(
    MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND,
    50 - Math.trunc(allNodes / 125),
  );
  return Math.max(MIN_FEASIBLE_NODES_TO_FIND, Math.trunc((allNodes * percentage) / 100));
}

/** Where the next pod's node search starts (the scheduler's, across pods). */
export interface NodeRotation {
  next: number;
}
