/**
 * From one pod to its endpoint address and ports for one Service, after upstream
 * `podToEndpointAddressForService`, `endpointsliceutil.ShouldPodBeInEndpoints`,
 * `ShouldSetHostname` and `podutil.FindPort`.
 *
 * @module
 */

import type {
  Container,
  ContainerPort,
  EndpointAddress,
  EndpointPort,
  Pod,
  Service,
  ServicePort,
} from '../../api/model/index.js';

/** An endpoint port as this controller builds it: the protocol is always set. */
export type ResolvedEndpointPort = EndpointPort & { protocol: string };

/** Upstream `IsPodTerminal`: Succeeded or Failed pods never serve. */
function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** The pod's IPs: `status.podIPs`, or `[status.podIP]` when only the singular field is set. */
export function podIPs(pod: Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map((e) => e.ip).filter((ip) => ip !== '');
  if (ips.length > 0) return ips;
  const single = pod.status?.podIP ?? '';
  return single === '' ? [] : [single];
}

/**
 * `ShouldPodBeInEndpoints`: not terminal, has an IP, and not terminating unless the Service
 * publishes not-ready addresses (`includeTerminating` is `publishNotReadyAddresses`).
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isTerminal(pod)) return false;
  if (podIPs(pod).length === 0) return false;
  return includeTerminating || pod.metadata?.deletionTimestamp == null;
}

function isIPv6(ip: string): boolean {
  return ip.includes(':');
}

/** The family the Service's endpoints use: `ipFamilies[0]`, else its cluster IP's, else the pod's. */
function serviceFamily(service: Service, pod: Pod): 'IPv4' | 'IPv6' {
  const first = service.spec?.ipFamilies?.[0];
  if (first === 'IPv4' || first === 'IPv6') return first;
  const clusterIP = service.spec?.clusterIP ?? '';
  const probe = clusterIP !== '' && clusterIP !== 'None' ? clusterIP : (podIPs(pod)[0] ?? '');
  return isIPv6(probe) ? 'IPv6' : 'IPv4';
}

/**
 * `ShouldSetHostname`: the pod names a hostname and its subdomain is this Service (same
 * namespace). Upstream does not require the Service to be headless here; DNS only serves the
 * name for headless ones.
 */
export function shouldSetHostname(pod: Pod, service: Service): boolean {
  return (
    (pod.spec?.hostname ?? '') !== '' &&
    pod.spec?.subdomain === service.metadata?.name &&
    pod.metadata?.namespace === service.metadata?.namespace
  );
}

/**
 * The pod's address for the Service: the first pod IP of the Service's family, `nodeName`,
 * a Pod `targetRef`, and `hostname` under {@link shouldSetHostname}. Undefined when the pod
 * has no IP of that family (a single-stack pod behind the other family's Service).
 */
export function podAddress(service: Service, pod: Pod): EndpointAddress | undefined {
  const v6 = serviceFamily(service, pod) === 'IPv6';
  const ip = podIPs(pod).find((candidate) => isIPv6(candidate) === v6);
  if (ip === undefined) return undefined;
  const meta = pod.metadata ?? {};
  const nodeName = pod.spec?.nodeName ?? '';
  const targetRef = {
    kind: 'Pod',
    namespace: meta.namespace ?? '',
    name: meta.name ?? '',
    uid: meta.uid ?? '',
  };
  return {
    ip,
    ...(shouldSetHostname(pod, service) ? { hostname: pod.spec?.hostname ?? '' } : {}),
    ...(nodeName === '' ? {} : { nodeName }),
    targetRef,
  };
}

/** Container ports that count for named target ports: containers and sidecar init containers. */
function containerPorts(pod: Pod): ContainerPort[] {
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  const containers: Container[] = [...(pod.spec?.containers ?? []), ...sidecars];
  return containers.flatMap((c) => c.ports ?? []);
}

/**
 * `podutil.FindPort`: a numeric `targetPort` as is (absent: the service port, as defaulting
 * would set it); a named one resolves to the container port with that name and the service
 * port's protocol. Undefined when no container port has the name.
 */
export function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  const protocol = servicePort.protocol ?? 'TCP';
  const match = containerPorts(pod).find(
    (p) => p.name === target && (p.protocol ?? 'TCP') === protocol,
  );
  return match?.containerPort;
}

/** `endpointPortFromServicePort`: the service port's name, protocol and appProtocol. */
export function endpointPort(servicePort: ServicePort, port: number): ResolvedEndpointPort {
  const name = servicePort.name ?? '';
  const appProtocol = servicePort.appProtocol;
  return {
    ...(name === '' ? {} : { name }),
    port,
    protocol: servicePort.protocol ?? 'TCP',
    ...(appProtocol === undefined ? {} : { appProtocol }),
  };
}

/**
 * Whether the Service's selector picks the pod: same namespace, and every selector label
 * equal. A Service without a selector (or with an empty one, which the API drops on the wire
 * upstream) selects nothing.
 */
export function selectsPod(service: Service, pod: Pod): boolean {
  if (service.metadata?.namespace !== pod.metadata?.namespace) return false;
  const selector = service.spec?.selector ?? {};
  const entries = Object.entries(selector);
  if (entries.length === 0) return false;
  const labels = pod.metadata?.labels ?? {};
  return entries.every(([k, v]) => labels[k] === v);
}
