/**
 * Upstream NodePorts filter: a container `hostPort` conflicts with one already used on the node
 * for the same protocol when either host IP is the wildcard `0.0.0.0` or both are equal
 * (`host-ports.ts`, which the kubelet's admission shares).
 *
 * @module
 */
import { anyHostPortConflict, hostPortsOf } from '../host-ports.js';
import { podSpecOf } from '../pod-view.js';
import type { FilterPlugin } from '../types.js';

export const NODE_PORTS_REASON = "node(s) didn't have free ports for the requested pod ports";

export const nodePortsFilter: FilterPlugin = {
  name: 'NodePorts',
  prepare(ctx) {
    const wanted = hostPortsOf(ctx.podSpec);
    return (node) => {
      if (wanted.length === 0) return null;
      const used = node.pods.flatMap((p) => hostPortsOf(podSpecOf(p)));
      return anyHostPortConflict(wanted, used)
        ? { code: 'Unschedulable', reasons: [NODE_PORTS_REASON] }
        : null;
    };
  },
};
