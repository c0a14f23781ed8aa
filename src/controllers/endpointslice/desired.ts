/**
 * What a Service's EndpointSlices should hold (upstream `reconciler.reconcileByAddressType`'s
 * input, as a pure function): one endpoint per selected pod, grouped by the ports the pod
 * resolves the Service's ports to (pods with different named container ports land in
 * different slices, as upstream's `endpointMeta` hash does).
 *
 * Pods are listed when not terminal and with an IP of the Service's family; terminating pods
 * stay (with `terminating: true`), unlike in core/v1 Endpoints. `serving` is the pod's Ready
 * condition, and `ready` is `serving && !terminating`, or always true when the Service
 * publishes not-ready addresses.
 *
 * @module
 */
import type { EndpointSlice, Pod, Service } from '../../api/model/index.js';
import { isPodReady } from '../../api/policy/pod-conditions.js';
import {
  endpointPort,
  findPort,
  podAddress,
  selectsPod,
  shouldPodBeInEndpoints,
} from '../endpoints/pod-address.js';
import type { AddressType, EndpointGroup, SliceEndpoint, SlicePort } from './types.js';

/** The address type of the Service's slices: its first IP family, else its cluster IP's. */
export function addressTypeOf(service: Service): AddressType {
  const first = service.spec?.ipFamilies?.[0];
  if (first === 'IPv4' || first === 'IPv6') return first;
  return (service.spec?.clusterIP ?? '').includes(':') ? 'IPv6' : 'IPv4';
}

/** Ports in a canonical order (by name, then number), so equal sets compare equal. */
export function sortPorts(ports: readonly SlicePort[]): SlicePort[] {
  return [...ports].sort((a, b) => a.name.localeCompare(b.name) || a.port - b.port);
}

/** A stable key of a port set (after the server's defaults). */
export function portsKey(ports: readonly SlicePort[]): string {
  return JSON.stringify(
    sortPorts(ports).map((p) => [p.name, p.port, p.protocol, p.appProtocol ?? '']),
  );
}

/** The ports of a stored slice, read with the server's defaults. */
export function slicePorts(slice: EndpointSlice): SlicePort[] {
  return (slice.ports ?? []).map((p) => {
    const appProtocol = p.appProtocol;
    return {
      name: p.name ?? '',
      port: p.port ?? 0,
      protocol: p.protocol ?? 'TCP',
      ...(appProtocol === undefined ? {} : { appProtocol }),
    };
  });
}

function podPorts(service: Service, pod: Pod): SlicePort[] {
  const out: SlicePort[] = [];
  for (const sp of service.spec?.ports ?? []) {
    const num = findPort(pod, sp);
    // A pod without the named target port serves the Service's other ports only.
    if (num === undefined) continue;
    const p = endpointPort(sp, num);
    out.push({ ...p, name: p.name ?? '' });
  }
  return sortPorts(out);
}

/** The endpoint of one pod (undefined when the pod has no address for this Service). */
export function podEndpoint(
  service: Service,
  pod: Pod,
  zoneOf: (nodeName: string) => string | undefined,
): SliceEndpoint | undefined {
  if (!shouldPodBeInEndpoints(pod, true)) return undefined;
  const address = podAddress(service, pod);
  if (address === undefined) return undefined;
  const serving = isPodReady(pod);
  const terminating = pod.metadata?.deletionTimestamp != null;
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const zone = address.nodeName === undefined ? undefined : zoneOf(address.nodeName);
  const meta = pod.metadata ?? {};
  return {
    addresses: [address.ip],
    conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
    ...(address.hostname ? { hostname: address.hostname } : {}),
    ...(address.nodeName ? { nodeName: address.nodeName } : {}),
    ...(zone ? { zone } : {}),
    targetRef: {
      kind: 'Pod',
      namespace: meta.namespace ?? '',
      name: meta.name ?? '',
      uid: meta.uid ?? '',
    },
  };
}

const byName = new Intl.Collator('en', { numeric: true });

/** The Service's endpoints by port-set key, pods in natural name order (web-2 before web-10). */
export function desiredGroups(
  service: Service,
  pods: readonly Pod[],
  zoneOf: (nodeName: string) => string | undefined,
): Map<string, EndpointGroup> {
  const selected = pods
    .filter((p) => selectsPod(service, p))
    .sort((a, b) => byName.compare(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  const groups = new Map<string, { ports: SlicePort[]; endpoints: SliceEndpoint[] }>();
  for (const pod of selected) {
    const endpoint = podEndpoint(service, pod, zoneOf);
    if (endpoint === undefined) continue;
    const ports = podPorts(service, pod);
    const key = portsKey(ports);
    let group = groups.get(key);
    if (group === undefined) {
      group = { ports, endpoints: [] };
      groups.set(key, group);
    }
    group.endpoints.push(endpoint);
  }
  return groups;
}
