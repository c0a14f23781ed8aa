/**
 * Upstream NodeAffinity filter: `spec.nodeSelector` plus required node affinity
 * (`matchExpressions` In/NotIn/Exists/DoesNotExist/Gt/Lt, `matchFields` metadata.name).
 *
 * @module
 */
import { matchesRequiredNodeAffinity } from '../node-selector.js';
import type { FilterPlugin } from '../types.js';

export const NODE_AFFINITY_REASON = "node(s) didn't match Pod's node affinity/selector";

export const nodeAffinityFilter: FilterPlugin = {
  name: 'NodeAffinity',
  prepare(ctx) {
    return (node) =>
      matchesRequiredNodeAffinity(ctx.podSpec, node)
        ? null
        : { code: 'UnschedulableAndUnresolvable', reasons: [NODE_AFFINITY_REASON] };
  },
};
