/**
 * Upstream NodeUnschedulable filter: a cordoned node (`spec.unschedulable: true`) accepts only
 * pods tolerating the `node.kubernetes.io/unschedulable:NoSchedule` taint.
 *
 * @module
 */
import { tolerationsTolerate } from '../tolerations.js';
import type { FilterPlugin } from '../types.js';

export const NODE_UNSCHEDULABLE_REASON = 'node(s) were unschedulable';
export const UNSCHEDULABLE_TAINT_KEY = 'node.kubernetes.io/unschedulable';

export const nodeUnschedulableFilter: FilterPlugin = {
  name: 'NodeUnschedulable',
  prepare(ctx) {
    const tolerates = tolerationsTolerate(ctx.podSpec.tolerations ?? [], {
      key: UNSCHEDULABLE_TAINT_KEY,
      effect: 'NoSchedule',
    });
    return (node) =>
      node.spec.unschedulable === true && !tolerates
        ? { code: 'UnschedulableAndUnresolvable', reasons: [NODE_UNSCHEDULABLE_REASON] }
        : null;
  },
};
