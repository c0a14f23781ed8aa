/**
 * From one pod to its endpoint address and ports for one Service, after upstream
 * `podToEndpointAddressForService`, `endpointsliceutil.ShouldPodBeInEndpoints`,
 * `ShouldSetHostname` and `podutil.FindPort`.
 *
 * @module
 */

import {
  getArr,
  getObj,
  getStr,
  getStringMap,
  isJsonObject,
  objects,
} from '../../api/kinds/json.js';
import type { KubeObject } from '../../api/object.js';
import type { EndpointAddress, EndpointPort } from './types.js';

/** Upstream `IsPodTerminal`: Succeeded or Failed pods never serve. */
function isTerminal(pod: KubeObject): boolean {
  const phase = getStr(getObj(pod, 'status'), 'phase');
  return phase === 'Succeeded' || phase === 'Failed';
}

/** The pod's IPs: `status.podIPs`, or `[status.podIP]` when only the singular field is set. */
export function podIPs(pod: KubeObject): string[] {
  const status = getObj(pod, 'status');
  const ips = (getArr(status, 'podIPs') ?? [])
    .map((e) => (isJsonObject(e) ? (getStr(e, 'ip') ?? '') : ''))
    .filter((ip) => ip !== '');
  if (ips.length > 0) return ips;
  const single = getStr(status, 'podIP') ?? '';
  return single === '' ? [] : [single];
}

/**
 * `ShouldPodBeInEndpoints`: not terminal, has an IP, and not terminating unless the Service
 * publishes not-ready addresses (`includeTerminating` is `publishNotReadyAddresses`).
 */
export function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  if (isTerminal(pod)) return false;
  if (podIPs(pod).length === 0) return false;
  return includeTerminating || pod.metadata?.deletionTimestamp == null;
}

function isIPv6(ip: string): boolean {
  return ip.includes(':');
}

/** The family the Service's endpoints use: `ipFamilies[0]`, else its cluster IP's, else the pod's. */
function serviceFamily(service: KubeObject, pod: KubeObject): 'IPv4' | 'IPv6' {
  const spec = getObj(service, 'spec');
  const first = (getArr(spec, 'ipFamilies') ?? [])[0];
  if (first === 'IPv4' || first === 'IPv6') return first;
  const clusterIP = getStr(spec, 'clusterIP') ?? '';
  const probe = clusterIP !== '' && clusterIP !== 'None' ? clusterIP : (podIPs(pod)[0] ?? '');
  return isIPv6(probe) ? 'IPv6' : 'IPv4';
}

/**
 * `ShouldSetHostname`: the pod names a hostname and its subdomain is this Service (same
 * namespace). Upstream does not require the Service to be headless here; DNS only serves the
 * name for headless ones.
 */
export function shouldSetHostname(pod: KubeObject, service: KubeObject): boolean {
  const spec = getObj(pod, 'spec');
  return (
    (getStr(spec, 'hostname') ?? '') !== '' &&
    getStr(spec, 'subdomain') === service.metadata?.name &&
    pod.metadata?.namespace === service.metadata?.namespace
  );
}

/**
 * The pod's address for the Service: the first pod IP of the Service's family, `nodeName`,
 * a Pod `targetRef`, and `hostname` under {@link shouldSetHostname}. Undefined when the pod
 * has no IP of that family (a single-stack pod behind the other family's Service).
 */
export function podAddress(service: KubeObject, pod: KubeObject): EndpointAddress | undefined {
  const v6 = serviceFamily(service, pod) === 'IPv6';
  const ip = podIPs(pod).find((candidate) => isIPv6(candidate) === v6);
  if (ip === undefined) return undefined;
  const meta = pod.metadata ?? {};
  const nodeName = getStr(getObj(pod, 'spec'), 'nodeName') ?? '';
  const targetRef = {
    kind: 'Pod',
    namespace: meta.namespace ?? '',
    name: meta.name ?? '',
    uid: meta.uid ?? '',
  };
  return {
    ip,
    ...(shouldSetHostname(pod, service)
      ? { hostname: getStr(getObj(pod, 'spec'), 'hostname') ?? '' }
      : {}),
    ...(nodeName === '' ? {} : { nodeName }),
    targetRef,
  };
}

/** Container ports that count for named target ports: containers and sidecar init containers. */
function containerPorts(pod: KubeObject): Record<string, unknown>[] {
  const spec = getObj(pod, 'spec');
  const sidecars = objects(spec, 'initContainers').filter(
    (c) => getStr(c, 'restartPolicy') === 'Always',
  );
  return [...objects(spec, 'containers'), ...sidecars].flatMap((c) => objects(c, 'ports'));
}

/**
 * `podutil.FindPort`: a numeric `targetPort` as is (absent: the service port, as defaulting
 * would set it); a named one resolves to the container port with that name and the service
 * port's protocol. Undefined when no container port has the name.
 */
export function findPort(
  pod: KubeObject,
  servicePort: Record<string, unknown>,
): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (typeof target !== 'string') return undefined;
  const protocol = getStr(servicePort, 'protocol') ?? 'TCP';
  const match = containerPorts(pod).find(
    (p) => getStr(p, 'name') === target && (getStr(p, 'protocol') ?? 'TCP') === protocol,
  );
  const num = match?.containerPort;
  return typeof num === 'number' ? num : undefined;
}

/** `endpointPortFromServicePort`: the service port's name, protocol and appProtocol. */
export function endpointPort(servicePort: Record<string, unknown>, port: number): EndpointPort {
  const name = getStr(servicePort, 'name') ?? '';
  const appProtocol = getStr(servicePort, 'appProtocol');
  return {
    ...(name === '' ? {} : { name }),
    port,
    protocol: getStr(servicePort, 'protocol') ?? 'TCP',
    ...(appProtocol === undefined ? {} : { appProtocol }),
  };
}

/**
 * Whether the Service's selector picks the pod: same namespace, and every selector label
 * equal. A Service without a selector (or with an empty one, which the API drops on the wire
 * upstream) selects nothing.
 */
export function selectsPod(service: KubeObject, pod: KubeObject): boolean {
  if (service.metadata?.namespace !== pod.metadata?.namespace) return false;
  const selector = getStringMap(getObj(service, 'spec'), 'selector') ?? {};
  const entries = Object.entries(selector);
  if (entries.length === 0) return false;
  const labels = pod.metadata?.labels ?? {};
  return entries.every(([k, v]) => labels[k] === v);
}
