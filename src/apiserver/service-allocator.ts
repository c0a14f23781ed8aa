/**
 * Cluster IPs and node ports for Services, as upstream's Service REST storage allocates them:
 * a ClusterIP, NodePort or LoadBalancer Service without `clusterIP` gets one from the service
 * range 10.96.0.0/12 (kube-apiserver's default `--service-cluster-ip-range`), and its ports
 * get node ports from 30000-32767 when the type exposes them. Updates that omit allocated
 * values keep them.
 *
 * The range's first address, 10.96.0.1, is the `kubernetes` Service's (the API server's
 * bootstrap controller creates `default/kubernetes` with it, see `bootstrap/`): it is never
 * handed out, and any other Service that asks for it is refused as upstream refuses an
 * address in use ("provided IP is already allocated"), also before that Service exists.
 * Dynamic addresses come from the range above its first 256 addresses, as upstream's static
 * subrange (KEP-3070) keeps the low band for addresses users choose (kube-dns' 10.96.0.10);
 * the low band is used only once the rest is full.
 *
 * What is in use is known from a watch on Services (durable state) plus reservations for
 * writes in flight, so two concurrent creates never get the same address.
 *
 * @module
 */
import { invalid } from '../api/errors.js';
import { fieldErrors, OMIT_VALUE, path } from '../api/field-error.js';
import { getObj, objects } from '../api/kinds/json.js';
import type { JsonObject, KubeObject } from '../api/object.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { Backend, StorageEvent, Watcher } from '../storage/backend.js';
import { listPrefix } from './store/keys.js';
import { parseStoredObject } from './store/object-json.js';

/** The `kubernetes` Service's address: the first of the service range. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
/** 10.96.0.0/12: 10.96.0.1 to 10.111.255.254. */
const RANGE_START = ipToNumber(KUBERNETES_SERVICE_IP);
const RANGE_END = ipToNumber('10.111.255.254');
/**
 * Upstream's static band: min(max(16, size / 16), 256) addresses, 256 for a /12
 * (`calculateRangeOffset`). Dynamic allocation starts above it.
 */
const STATIC_BAND = 256;
const DYNAMIC_START = RANGE_START + STATIC_BAND;
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

interface Holding {
  readonly ips: readonly string[];
  readonly ports: readonly number[];
}

export class ServiceAllocator {
  readonly #backend: Backend;
  readonly #durable = new Map<string, Holding>();
  readonly #reserved = new Set<Holding>();
  #watcher: Watcher | undefined;
  #nextIp = DYNAMIC_START;
  #nextPort = NODE_PORT_MIN;

  constructor(backend: Backend) {
    this.#backend = backend;
  }

  start(): void {
    const prefix = listPrefix({ group: '', plural: 'services', namespaced: true }, '');
    const current = this.#backend.list(prefix);
    for (const kv of current.items)
      this.#durable.set(kv.key, holdingOf(parseStoredObject(kv.value)));
    this.#watcher = this.#backend.watch(prefix, current.revision, (events) =>
      this.#observe(events),
    );
  }

  stop(): void {
    this.#watcher?.stop();
  }

  /** Fills missing cluster IPs and node ports; returns the release of the reservation. */
  allocate(def: ResourceDefinition, obj: KubeObject): (() => void) | undefined {
    if (!isService(def)) return undefined;
    const spec = specOf(obj);
    const used = this.#used();
    const ips: string[] = [];
    const ports: number[] = [];
    refuseTaken(obj, spec, used.ips);
    if (spec.type !== 'ExternalName' && !spec.clusterIP) {
      const ip = this.#takeIp(used.ips);
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
      spec.ipFamilies ??= ['IPv4'];
      ips.push(ip);
    }
    if (
      spec.type === 'NodePort' ||
      (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false)
    ) {
      for (const port of objects(spec, 'ports')) {
        if (typeof port.nodePort === 'number' && port.nodePort !== 0) continue;
        const nodePort = this.#takePort(used.ports);
        port.nodePort = nodePort;
        ports.push(nodePort);
      }
    }
    const holding: Holding = { ips, ports };
    this.#reserved.add(holding);
    return () => this.#reserved.delete(holding);
  }

  /** An update that omits allocated values keeps them (upstream `PatchAllocatedValues`). */
  preserve(def: ResourceDefinition, next: KubeObject, current: KubeObject): void {
    if (!isService(def)) return;
    const spec = specOf(next);
    const old = specOf(current);
    if (spec.type !== 'ExternalName' && old.type !== 'ExternalName') preserveClusterIPs(spec, old);
    if (spec.type !== 'ClusterIP') preserveNodePorts(spec, old);
  }

  #observe(events: readonly StorageEvent[]): void {
    for (const ev of events) {
      if (ev.type === 'delete') this.#durable.delete(ev.kv.key);
      else this.#durable.set(ev.kv.key, holdingOf(parseStoredObject(ev.kv.value)));
    }
  }

  #used(): { ips: Set<string>; ports: Set<number> } {
    const ips = new Set<string>();
    const ports = new Set<number>();
    for (const h of [...this.#durable.values(), ...this.#reserved]) {
      for (const ip of h.ips) ips.add(ip);
      for (const p of h.ports) ports.add(p);
    }
    return { ips, ports };
  }

  /** The next free address of the dynamic band (round-robin), else of the static band. */
  #takeIp(used: Set<string>): string {
    const size = RANGE_END - DYNAMIC_START + 1;
    for (let i = 0; i < size; i++) {
      const candidate = numberToIp(this.#nextIp);
      this.#nextIp = this.#nextIp >= RANGE_END ? DYNAMIC_START : this.#nextIp + 1;
      if (!used.has(candidate)) return candidate;
    }
    // The first address stays the `kubernetes` Service's even when everything else is taken.
    for (let n = RANGE_START + 1; n < DYNAMIC_START; n++) {
      const candidate = numberToIp(n);
      if (!used.has(candidate)) return candidate;
    }
    throw new Error('range is full');
  }

  #takePort(used: Set<number>): number {
    for (let i = NODE_PORT_MIN; i <= NODE_PORT_MAX; i++) {
      const candidate = this.#nextPort;
      this.#nextPort = candidate >= NODE_PORT_MAX ? NODE_PORT_MIN : candidate + 1;
      if (!used.has(candidate)) return candidate;
    }
    throw new Error('range of valid ports is full');
  }
}

/**
 * A requested cluster IP that another Service holds is refused, as upstream; so is the
 * `kubernetes` Service's address for any other Service.
 */
function refuseTaken(obj: KubeObject, spec: JsonObject, used: Set<string>): void {
  const ip = spec.clusterIP;
  if (typeof ip !== 'string' || ip === '' || ip === 'None') return;
  if (!used.has(ip) && !(ip === KUBERNETES_SERVICE_IP && !isKubernetesService(obj))) return;
  const ipsText = `[]string{${JSON.stringify(ip)}}`;
  throw invalid({ group: '', kind: 'Service' }, obj.metadata?.name ?? '', [
    fieldErrors.invalid(
      path('spec', 'clusterIPs'),
      OMIT_VALUE,
      `${ipsText}: failed to allocate IP ${ip}: provided IP is already allocated`,
    ),
  ]);
}

function preserveClusterIPs(spec: JsonObject, old: JsonObject): void {
  for (const field of ['clusterIP', 'clusterIPs', 'ipFamilies']) {
    if (!spec[field] && old[field]) spec[field] = old[field];
  }
}

function preserveNodePorts(spec: JsonObject, old: JsonObject): void {
  const oldPorts = objects(old, 'ports');
  const protocol = (p: JsonObject): unknown => p.protocol ?? 'TCP';
  for (const port of objects(spec, 'ports')) {
    if (port.nodePort) continue;
    const match = oldPorts.find((p) => p.port === port.port && protocol(p) === protocol(port));
    if (match?.nodePort) port.nodePort = match.nodePort;
  }
}

/** `default/kubernetes`, the API server's own Service. */
function isKubernetesService(obj: KubeObject): boolean {
  return obj.metadata?.namespace === 'default' && obj.metadata.name === 'kubernetes';
}

function isService(def: ResourceDefinition): boolean {
  return def.group === '' && def.plural === 'services';
}

/**
 * A Service's `spec`, to read and fill in place. Stored and admitted Services are valid, so
 * an absent or malformed spec only ever reads as empty (and what is filled in goes nowhere).
 */
function specOf(obj: KubeObject): JsonObject {
  return getObj(obj, 'spec') ?? {};
}

function holdingOf(obj: KubeObject): Holding {
  const spec = specOf(obj);
  const ips = (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]).filter(
    (ip): ip is string => typeof ip === 'string' && ip !== '' && ip !== 'None',
  );
  const ports = objects(spec, 'ports')
    .map((p) => p.nodePort)
    .filter((p): p is number => typeof p === 'number' && p > 0);
  return { ips, ports };
}

function ipToNumber(ip: string): number {
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function numberToIp(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}
