/**
 * Rows of core/v1 kinds, as upstream `printService`, `printEndpoints`, `printNode`,
 * `printNamespace`, `printConfigMap`, `printSecret` and `printServiceAccount`. The server
 * prints wide rows, so load-balancer addresses are never clipped to 16 characters.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, arr, bool, int, meta, nameOf, obj, objs, str, stringMap } from './access.js';
import { formatLabels, joinHostPort } from './format.js';
import type { PrintedRow } from './types.js';

/** Upstream `loadBalancerStatusStringer` (wide): the ingress IPs/hostnames, sorted, unique. */
function loadBalancerAddresses(status: unknown): string {
  const addresses = new Set<string>();
  for (const ing of objs(obj(obj(status).loadBalancer).ingress)) {
    if (str(ing.ip) !== '') addresses.add(str(ing.ip));
    else if (str(ing.hostname) !== '') addresses.add(str(ing.hostname));
  }
  return [...addresses].sort().join(',');
}

/** Upstream `getServiceExternalIP`: `<none>`, `<pending>`, the addresses, or the external name. */
function externalIP(svc: KubeObject): string {
  const spec = obj(svc.spec);
  const externalIPs = arr(spec.externalIPs).map(str);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(svc.status);
      if (externalIPs.length > 0)
        return [...(lb === '' ? [] : lb.split(',')), ...externalIPs].join(',');
      return lb === '' ? '<pending>' : lb;
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

/** Upstream `makePortString`: `80/TCP`, `80:30080/TCP`, comma-separated. */
function portsString(ports: unknown): string {
  return objs(ports)
    .map((p) => {
      const nodePort = int(p.nodePort);
      const base = nodePort > 0 ? `${int(p.port)}:${nodePort}` : `${int(p.port)}`;
      return `${base}/${str(p.protocol)}`;
    })
    .join(',');
}

export function printService(svc: KubeObject, now: Date): PrintedRow {
  const spec = obj(svc.spec);
  const clusterIPs = arr(spec.clusterIPs);
  const ports = portsString(spec.ports);
  return {
    cells: [
      nameOf(svc),
      str(spec.type),
      clusterIPs.length > 0 ? str(clusterIPs[0]) : '<none>',
      externalIP(svc),
      ports === '' ? '<none>' : ports,
      ageOf(svc, now),
      formatLabels(spec.selector),
    ],
  };
}

const MAX_ENDPOINTS = 3;

/** Upstream `formatEndpoints`: up to three `ip:port`, then `+ N more...`; `<none>` without subsets. */
export function formatEndpoints(subsets: unknown): string {
  const sets = objs(subsets);
  if (sets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  let more = false;
  const add = (addresses: ReturnType<typeof objs>, text: (ip: string) => string) => {
    count += addresses.length;
    for (const a of addresses) {
      if (list.length === MAX_ENDPOINTS) {
        more = true;
        break;
      }
      list.push(text(str(a.ip)));
    }
  };
  for (const ss of sets) {
    const addresses = objs(ss.addresses);
    const ports = objs(ss.ports);
    // Headless services may have no ports: the addresses alone.
    if (ports.length === 0) add(addresses, (ip) => ip);
    for (const port of ports) add(addresses, (ip) => joinHostPort(ip, int(port.port)));
  }
  const text = list.join(',');
  return more ? `${text} + ${count - MAX_ENDPOINTS} more...` : text;
}

export function printEndpoints(o: KubeObject, now: Date): PrintedRow {
  return { cells: [nameOf(o), formatEndpoints(o.subsets), ageOf(o, now)] };
}

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

/** Upstream `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role` values. */
function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(stringMap(meta(node).labels))) {
    if (k.startsWith(ROLE_PREFIX)) {
      const role = k.slice(ROLE_PREFIX.length);
      if (role !== '') roles.add(role);
    } else if (k === ROLE_LABEL && v !== '') {
      roles.add(v);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeStatus(node: KubeObject): string {
  let ready: Record<string, unknown> | undefined;
  // Later conditions of the same type win, as upstream's map does.
  for (const c of objs(obj(node.status).conditions)) if (c.type === 'Ready') ready = c;
  const status = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (bool(obj(node.spec).unschedulable)) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeAddress(node: KubeObject, type: string): string {
  const a = objs(obj(node.status).addresses).find((x) => x.type === type);
  return a === undefined ? '<none>' : str(a.address);
}

export function printNode(node: KubeObject, now: Date): PrintedRow {
  const info = obj(obj(node.status).nodeInfo);
  const orUnknown = (v: unknown) => (str(v) === '' ? '<unknown>' : str(v));
  return {
    cells: [
      nameOf(node),
      nodeStatus(node),
      nodeRoles(node),
      ageOf(node, now),
      str(info.kubeletVersion),
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      orUnknown(info.osImage),
      orUnknown(info.kernelVersion),
      orUnknown(info.containerRuntimeVersion),
    ],
  };
}

export function printNamespace(ns: KubeObject, now: Date): PrintedRow {
  return { cells: [nameOf(ns), str(obj(ns.status).phase), ageOf(ns, now)] };
}

export function printConfigMap(cm: KubeObject, now: Date): PrintedRow {
  const keys = Object.keys(obj(cm.data)).length + Object.keys(obj(cm.binaryData)).length;
  return { cells: [nameOf(cm), keys, ageOf(cm, now)] };
}

export function printSecret(secret: KubeObject, now: Date): PrintedRow {
  return {
    cells: [
      nameOf(secret),
      str(secret.type),
      Object.keys(obj(secret.data)).length,
      ageOf(secret, now),
    ],
  };
}

export function printServiceAccount(sa: KubeObject, now: Date): PrintedRow {
  return { cells: [nameOf(sa), arr(sa.secrets).length, ageOf(sa, now)] };
}
