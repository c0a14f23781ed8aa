/**
 * Upstream NodeName filter: a pod that names its node (`spec.nodeName`) fits only that node.
 *
 * @module
 */
import type { FilterPlugin } from '../types.js';

export const NODE_NAME_REASON = "node(s) didn't match the requested node name";

export const nodeNameFilter: FilterPlugin = {
  name: 'NodeName',
  prepare(ctx) {
    const wanted = ctx.podSpec.nodeName ?? '';
    return (node) =>
      wanted === '' || wanted === node.name
        ? null
        : { code: 'UnschedulableAndUnresolvable', reasons: [NODE_NAME_REASON] };
  },
};
