/**
 * Upstream NodePorts filter: a container `hostPort` conflicts with one already used on the node
 * for the same protocol when either host IP is the wildcard `0.0.0.0` or both are equal.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { podSpecOf } from '../pod-view.js';
import type { FilterPlugin, PodSpecView } from '../types.js';

export const NODE_PORTS_REASON = "node(s) didn't have free ports for the requested pod ports";

interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** The ports a pod holds while it runs: sidecars (restartable init containers) and containers. */
function hostPorts(spec: PodSpecView): HostPort[] {
  const out: HostPort[] = [];
  const sidecars = (spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const c of [...sidecars, ...(spec.containers ?? [])]) {
    for (const p of c.ports ?? []) {
      if (p.hostPort === undefined || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return out;
}

function conflicts(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return a.ip === '0.0.0.0' || b.ip === '0.0.0.0' || a.ip === b.ip;
}

function usedPorts(pods: readonly KubeObject[]): HostPort[] {
  return pods.flatMap((p) => hostPorts(podSpecOf(p)));
}

export const nodePortsFilter: FilterPlugin = {
  name: 'NodePorts',
  prepare(ctx) {
    const wanted = hostPorts(ctx.podSpec);
    return (node) => {
      if (wanted.length === 0) return null;
      const used = usedPorts(node.pods);
      return wanted.some((w) => used.some((u) => conflicts(w, u)))
        ? { code: 'Unschedulable', reasons: [NODE_PORTS_REASON] }
        : null;
    };
  },
};
