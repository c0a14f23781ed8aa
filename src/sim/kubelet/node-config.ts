/**
 * The options of the simulated nodes and their resolved, per-node identities: name, zone, node
 * IP and pod CIDR. Pure; the numbering is stable, so a restarted process finds its nodes again.
 *
 * Naming and addressing (1-based `i`):
 *
 * | what                            | value                                  |
 * |---------------------------------|----------------------------------------|
 * | node name, `kubernetes.io/hostname` | `fleetyard-node-<i>`               |
 * | `topology.kubernetes.io/region` | `<region>` (default `local`)           |
 * | `topology.kubernetes.io/zone`   | `<region>-<zone>` (GCP style: `local-a`), zones round-robin |
 * | InternalIP (`status.hostIP`)    | `172.18.0.<i+1>` (kind's docker network habit), counting on through `172.18.0.0/16` past 254 nodes: `172.18.3.233` is node 1000 |
 * | `spec.podCIDR`                  | `10.244.<i>.0/24` (the node-ipam default mask), the i-th /24 from `10.244.0.0` past 255 nodes: `10.247.232.0/24` is node 1000 |
 *
 * Up to {@link MAX_SIMULATED_NODES} nodes: the /24s from `10.244.0.0` stay inside `10.0.0.0/8`
 * (clear of the Service range `10.96.0.0/12`) up to node 3071. Nodes 1…250 keep the addresses
 * they always had.
 *
 * @module
 */

/** Quantities as Kubernetes strings (`"4"`, `"16Gi"`). */
export interface NodeCapacity {
  /** @default "4" */
  cpu?: string;
  /** @default "16Gi" */
  memory?: string;
  /** @default "110" (the kubelet's maxPods) */
  pods?: string;
  /** @default "100Gi" */
  'ephemeral-storage'?: string;
}

export interface NodeTiming {
  /** Lease renew interval (nodelease: 0.25 × the 40 s lease duration). @default 10_000 */
  leaseRenewMs?: number;
  /** Lease duration in seconds (`--node-lease-duration-seconds`). @default 40 */
  leaseDurationSeconds?: number;
  /** How often the node status is computed (`nodeStatusUpdateFrequency`). @default 10_000 */
  nodeStatusUpdateMs?: number;
  /** How often an unchanged status is posted anyway (`nodeStatusReportFrequency`). @default 300_000 */
  nodeStatusReportMs?: number;
  /**
   * How long running containers take to exit after SIGTERM on pod deletion; a pod's
   * `sim.fleetyard.dev/shutdown-delay` wins. `null` = they ignore SIGTERM and are killed at the
   * end of the grace period. @default 0 (exit at once, as kwok deletes at once)
   */
  shutdownDelayMs?: number | null;
}

export interface SimulatedNodesOptions {
  /** @default 3 */
  count?: number;
  /** Zone suffixes, assigned round-robin. @default ['a', 'b', 'c'] */
  zones?: readonly string[];
  /** @default 'local' */
  region?: string;
  /** `node.kubernetes.io/instance-type`. @default 'fleetyard-sim' */
  instanceType?: string;
  /** `kubernetes.io/arch` and `nodeInfo.architecture`. @default 'amd64' */
  arch?: string;
  capacity?: NodeCapacity;
  /** Images whose pull fails. @default /:(nonexistent|404)$/ */
  failingImage?: RegExp;
  timing?: NodeTiming;
  /** Concurrent pod reconciles, over all nodes. @default {@link defaultWorkers}(count) */
  workers?: number;
  /** Node name prefix. @default 'fleetyard-node-' */
  namePrefix?: string;
}

/** One simulated node's identity. */
export interface NodeIdentity {
  /** 1-based. */
  index: number;
  name: string;
  zone: string;
  region: string;
  ip: string;
  podCIDR: string;
}

export interface ResolvedOptions {
  nodes: NodeIdentity[];
  instanceType: string;
  arch: string;
  capacity: Required<NodeCapacity>;
  failingImage?: RegExp;
  timing: Required<Omit<NodeTiming, 'shutdownDelayMs'>> & { shutdownDelayMs: number | undefined };
  workers: number;
}

export const DEFAULT_CAPACITY: Required<NodeCapacity> = {
  cpu: '4',
  memory: '16Gi',
  pods: '110',
  'ephemeral-storage': '100Gi',
};

/**
 * Concurrent pod reconciles for `count` nodes: 8 per node, at least 16, at most 256.
 *
 * Upstream runs one pod worker per pod, so a kubelet's throughput grows with the cluster; one
 * shared pool of 8 left the 5,000-pod benchmark (50 nodes) waiting over 10 s (p99) in the queue.
 * A worker here is an async loop, not a thread (a few hundred bytes), and spends its time
 * waiting for the API server, so the pool sizes the writes in flight:
 * - 8 per node: a node starting a burst of pods (110 max) keeps 8 writes in flight, as the
 *   old global default did for the whole cluster.
 * - at least 16: a 1–2-node cluster still overlaps a slow write with the no-op looks that
 *   follow every write.
 * - at most 256 (reached at 32 nodes): bounds the pending requests of one process. The
 *   kubelet's client has 32 sockets, so past 32 more workers do not add writes on the wire;
 *   they let the reconciles that write nothing (the look after each write, pods of a down
 *   node, timers finding nothing due) pass the ones waiting for a socket.
 */
export function defaultWorkers(count: number): number {
  return Math.min(256, Math.max(16, 8 * count));
}

/** How many nodes a cluster has unless told (`fleetyard up --nodes`, `startCluster`). */
export const DEFAULT_NODE_COUNT = 3;
/** The zones nodes are spread over unless told, round-robin (`--zones`). */
export const DEFAULT_ZONES: readonly string[] = ['a', 'b', 'c'];

/**
 * The most simulated nodes one process runs: 3,000, past upstream's 1,000-node scale target
 * and under the 3,071 /24 pod CIDRs between `10.244.0.0` and the end of `10.0.0.0/8`.
 */
export const MAX_SIMULATED_NODES = 3000;

function formatIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** `172.18.0.0 + i + 1`: `172.18.0.<i+1>` for nodes 1…254, then on through the /16. */
export function nodeIp(index: number): string {
  return formatIPv4(172 * 2 ** 24 + 18 * 2 ** 16 + index + 1);
}

/** The `index`-th /24 from `10.244.0.0`: `10.244.<i>.0/24` for nodes 1…255, then `10.245.0.0/24`… */
export function nodePodCidr(index: number): string {
  return `${formatIPv4(10 * 2 ** 24 + 244 * 2 ** 16 + index * 256)}/24`;
}

/** Applies the defaults and numbers the nodes. Throws RangeError on a count outside 1…3,000. */
export function resolveOptions(options: SimulatedNodesOptions = {}): ResolvedOptions {
  const count = options.count ?? DEFAULT_NODE_COUNT;
  if (!Number.isInteger(count) || count < 1 || count > MAX_SIMULATED_NODES) {
    throw new RangeError(
      `simulated nodes: count must be an integer in 1…${MAX_SIMULATED_NODES}, got ${count}`,
    );
  }
  const zones = options.zones?.length ? options.zones : DEFAULT_ZONES;
  const region = options.region ?? 'local';
  const prefix = options.namePrefix ?? 'fleetyard-node-';
  const nodes = Array.from({ length: count }, (_, k) => {
    const index = k + 1;
    return {
      index,
      name: `${prefix}${index}`,
      zone: `${region}-${zones[k % zones.length] ?? 'a'}`,
      region,
      ip: nodeIp(index),
      podCIDR: nodePodCidr(index),
    };
  });
  const t = options.timing ?? {};
  return {
    nodes,
    instanceType: options.instanceType ?? 'fleetyard-sim',
    arch: options.arch ?? 'amd64',
    capacity: { ...DEFAULT_CAPACITY, ...options.capacity },
    ...(options.failingImage ? { failingImage: options.failingImage } : {}),
    timing: {
      leaseRenewMs: t.leaseRenewMs ?? 10_000,
      leaseDurationSeconds: t.leaseDurationSeconds ?? 40,
      nodeStatusUpdateMs: t.nodeStatusUpdateMs ?? 10_000,
      nodeStatusReportMs: t.nodeStatusReportMs ?? 300_000,
      shutdownDelayMs: t.shutdownDelayMs === null ? undefined : (t.shutdownDelayMs ?? 0),
    },
    workers: options.workers ?? defaultWorkers(count),
  };
}

/** The names `count` simulated nodes get (`fleetyard-node-1`…), as {@link resolveOptions} numbers them. */
export function simulatedNodeNames(count: number): string[] {
  return resolveOptions({ count }).nodes.map((n) => n.name);
}
