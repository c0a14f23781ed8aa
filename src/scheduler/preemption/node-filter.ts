/**
 * The default profile's filters run on ONE node (upstream `RunFilterPluginsWithNominatedPods`
 * on the node a preemption dry run changed): PreFilter state over every node, the Filter
 * check on the one. `feasibleNodes` in `schedule.ts` checks every node, which would make a
 * dry run over N nodes with V victims cost N·V·N checks instead of N·V.
 *
 * The plugin list mirrors `filterPlugins` in `schedule.ts` (same order, so the first failing
 * filter and its reasons agree); `node-filter.test.ts` compares the two on random clusters,
 * so a filter added there without here fails a test.
 *
 * @module
 */
import { interPodAffinityFilter } from '../filters/inter-pod-affinity.js';
import { nodeAffinityFilter } from '../filters/node-affinity.js';
import { nodeNameFilter } from '../filters/node-name.js';
import { nodePortsFilter } from '../filters/node-ports.js';
import { nodeResourcesFitFilter } from '../filters/node-resources-fit.js';
import { nodeUnschedulableFilter } from '../filters/node-unschedulable.js';
import { podTopologySpreadFilter } from '../filters/pod-topology-spread.js';
import { taintTolerationFilter } from '../filters/taint-toleration.js';
import type { ScheduleOptions } from '../schedule.js';
import type { FilterPlugin, FilterStatus, NodeInfo, SchedulingContext } from '../types.js';
import { volumeBindingFilter } from '../volume-binding-hook.js';

/** `schedule.ts`'s `filterPlugins`, in its order. */
export function defaultFilterPlugins(opts: ScheduleOptions = {}): FilterPlugin[] {
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

/** The first failing filter's status on `node` (null: it fits), with `ctx` for PreFilter. */
export function filterOneNode(
  ctx: SchedulingContext,
  node: NodeInfo,
  opts: ScheduleOptions = {},
): FilterStatus | null {
  for (const plugin of defaultFilterPlugins(opts)) {
    const status = plugin.prepare(ctx)(node);
    if (status !== null) return status;
  }
  return null;
}
