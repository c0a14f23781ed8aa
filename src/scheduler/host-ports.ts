/**
 * Host ports as the scheduler's NodePorts filter and the kubelet's admission see them (upstream `util.GetHostPorts` and
 * `HostPortInfo.CheckConflict`, which the NodePorts predicate uses).
 *
 * A pod holds the `hostPort`s of its regular containers and of its sidecars (init containers
 * with `restartPolicy: Always`, which run for the pod's whole life); plain init containers
 * exit before the pod runs and hold none. An empty `hostIP` is the wildcard `0.0.0.0` and an
 * empty protocol is TCP. Two ports conflict when the port and protocol are equal and either IP
 * is the wildcard or both IPs are equal: `0.0.0.0:80/TCP` blocks `10.0.0.1:80/TCP` but not
 * `0.0.0.0:80/UDP`. (`::` is not a wildcard there, as upstream.)
 *
 * @module
 */
import type { Container, PodSpec } from '../api/model/index.js';

export const WILDCARD_HOST_IP = '0.0.0.0';

export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

function portsOf(c: Container): HostPort[] {
  const out: HostPort[] = [];
  for (const p of c.ports ?? []) {
    if (p.hostPort === undefined || p.hostPort <= 0) continue;
    out.push({ ip: p.hostIP || WILDCARD_HOST_IP, protocol: p.protocol || 'TCP', port: p.hostPort });
  }
  return out;
}

/** The host ports a pod holds while it runs: sidecars first, then regular containers. */
export function hostPortsOf(spec: PodSpec): HostPort[] {
  const sidecars = (spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  return [...sidecars, ...(spec.containers ?? [])].flatMap(portsOf);
}

export function hostPortsConflict(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return a.ip === WILDCARD_HOST_IP || b.ip === WILDCARD_HOST_IP || a.ip === b.ip;
}

/** Whether any of `wanted` conflicts with any of `used`. */
export function anyHostPortConflict(
  wanted: readonly HostPort[],
  used: readonly HostPort[],
): boolean {
  return wanted.some((w) => used.some((u) => hostPortsConflict(w, u)));
}
