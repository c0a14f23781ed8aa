/**
 * Upstream TaintToleration filter: the node's first NoSchedule/NoExecute taint the pod does not
 * tolerate rejects it, reported as `node(s) had untolerated taint {key: value}`.
 *
 * @module
 */
import type { Taint } from '../../api/model/index.js';
import { findUntoleratedTaint, isDoNotScheduleTaint } from '../tolerations.js';
import type { FilterPlugin } from '../types.js';

export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

export const taintTolerationFilter: FilterPlugin = {
  name: 'TaintToleration',
  prepare(ctx) {
    const tolerations = ctx.podSpec.tolerations ?? [];
    return (node) => {
      const taint = findUntoleratedTaint(node.spec.taints ?? [], tolerations, isDoNotScheduleTaint);
      return taint === undefined
        ? null
        : { code: 'UnschedulableAndUnresolvable', reasons: [untoleratedTaintReason(taint)] };
    };
  },
};
