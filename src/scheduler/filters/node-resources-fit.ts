/**
 * Upstream NodeResourcesFit filter: the pod's effective requests (see `podRequests`) must fit
 * into allocatable minus what the bound pods request, and the node's `pods` allocatable must
 * leave room for one more pod. Every shortage is a separate reason (`Too many pods`,
 * `Insufficient cpu`, `Insufficient memory`, …), so one node may count under several.
 *
 * @module
 */
import { isScalarResource, podRequests } from '../resources.js';
import type { FilterPlugin, FilterStatus, NodeInfo } from '../types.js';

export const TOO_MANY_PODS_REASON = 'Too many pods';

export function insufficientReason(resource: string): string {
  return `Insufficient ${resource}`;
}

/** The order upstream checks resources in; scalar resources follow, sorted by name. */
const FIXED_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'] as const;

export function insufficientResources(
  request: ReadonlyMap<string, bigint>,
  node: NodeInfo,
): string[] {
  const reasons: string[] = [];
  const allowedPods = node.allocatable.get('pods') ?? 0n;
  if (BigInt(node.pods.length + 1) > allowedPods) reasons.push(TOO_MANY_PODS_REASON);
  const checked = [...FIXED_RESOURCES, ...[...request.keys()].filter(isScalarResource).sort()];
  const wantsAnything = checked.some((r) => (request.get(r) ?? 0n) !== 0n);
  if (!wantsAnything) return reasons;
  for (const r of checked) {
    const want = request.get(r) ?? 0n;
    // Upstream checks only what the pod asks for: on an overcommitted node a pod without a
    // cpu request is not refused for cpu.
    if (want === 0n) continue;
    const used = node.requested.get(r) ?? 0n;
    if ((node.allocatable.get(r) ?? 0n) < want + used) reasons.push(insufficientReason(r));
  }
  return reasons;
}

export const nodeResourcesFitFilter: FilterPlugin = {
  name: 'NodeResourcesFit',
  prepare(ctx) {
    const request = podRequests(ctx.podSpec);
    return (node): FilterStatus | null => {
      const reasons = insufficientResources(request, node);
      return reasons.length === 0 ? null : { code: 'Unschedulable', reasons };
    };
  },
};
