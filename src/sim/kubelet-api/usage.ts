/**
 * The resource usage the Metrics API reports for simulated pods and nodes, as metrics-server
 * would scrape it from the kubelets:
 *
 * - a running container uses what it requests (`resources.requests`, else its limits), or
 *   {@link DEFAULT_CPU_NANOCORES} and {@link DEFAULT_MEMORY_BYTES} when it asks for nothing;
 * - `sim.fleetyard.dev/cpu-usage` / `sim.fleetyard.dev/memory-usage` on a Pod override it:
 *   a quantity (`250m`, `64Mi`) is the whole pod's usage, shared evenly by its running
 *   containers; `name=qty,name=qty` sets containers one by one (others keep the default);
 * - only pods in phase Running with running containers are reported (metrics-server has no
 *   metrics for the others), and only their running containers;
 * - a node's usage is the sum of its reported pods' usage, or the same annotations on the
 *   Node; a node that is not Ready, or is `sim.fleetyard.dev/state: down`, is not reported.
 *
 * Editing an annotation changes the next reading at once, which is how a scenario drives an
 * HPA up and down.
 *
 * @module
 */
import type { Container, Node, Pod } from '../../api/model/index.js';
import { parseQuantity } from '../../api/validation/quantity.js';
import { ANNOTATION_PREFIX, NODE_STATE_ANNOTATION } from '../kubelet/annotations.js';

export const CPU_USAGE_ANNOTATION = `${ANNOTATION_PREFIX}cpu-usage`;
export const MEMORY_USAGE_ANNOTATION = `${ANNOTATION_PREFIX}memory-usage`;

/** 1m: a container that requests nothing still shows as busy with something. */
export const DEFAULT_CPU_NANOCORES = 1_000_000n;
/** 4Mi. */
export const DEFAULT_MEMORY_BYTES = 4n * 1024n * 1024n;

const NANO = 1_000_000_000n;

export interface Usage {
  readonly name: string;
  readonly cpuNanoCores: bigint;
  readonly memoryBytes: bigint;
}

function quantity(v: unknown): bigint | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = parseQuantity(v);
  return r.ok && r.quantity.nanos >= 0n ? r.quantity.nanos : undefined;
}

function requested(c: Container, resource: 'cpu' | 'memory'): bigint | undefined {
  const r = c.resources;
  return quantity(r?.requests?.[resource]) ?? quantity(r?.limits?.[resource]);
}

/** An annotation's value: one pod-wide amount, or amounts by container name (in nano-units). */
function override(text: string | undefined): { total?: bigint; byName: Map<string, bigint> } {
  const byName = new Map<string, bigint>();
  if (text === undefined || text.trim() === '') return { byName };
  if (!text.includes('=')) {
    const total = quantity(text.trim());
    return total === undefined ? { byName } : { total, byName };
  }
  for (const entry of text.split(',')) {
    const [name, value] = entry.split('=');
    const q = value === undefined ? undefined : quantity(value.trim());
    if (name?.trim() && q !== undefined) byName.set(name.trim(), q);
  }
  return { byName };
}

/** The pod's running containers, with their specs. */
function runningContainers(pod: Pod): Container[] {
  const running = new Set(
    [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]
      .filter((s) => s.state?.running !== undefined)
      .map((s) => s.name),
  );
  const spec = pod.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])].filter((c) =>
    running.has(c.name),
  );
}

/** One resource for every running container: requests, then the annotation's say. */
function amounts(
  containers: readonly Container[],
  resource: 'cpu' | 'memory',
  annotation: string | undefined,
  fallback: bigint,
): bigint[] {
  const o = override(annotation);
  if (o.total !== undefined) {
    const n = BigInt(containers.length);
    return containers.map((_, i) => o.total! / n + (i === 0 ? o.total! % n : 0n));
  }
  return containers.map((c) => o.byName.get(c.name) ?? requested(c, resource) ?? fallback);
}

/** Per-container usage of a pod, or undefined when metrics-server would have none. */
export function podUsage(pod: Pod): Usage[] | undefined {
  if (pod.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) return undefined;
  const containers = runningContainers(pod);
  if (containers.length === 0) return undefined;
  const a = pod.metadata?.annotations ?? {};
  const cpu = amounts(containers, 'cpu', a[CPU_USAGE_ANNOTATION], DEFAULT_CPU_NANOCORES);
  const memory = amounts(
    containers,
    'memory',
    a[MEMORY_USAGE_ANNOTATION],
    DEFAULT_MEMORY_BYTES * NANO,
  );
  return containers.map((c, i) => ({
    name: c.name,
    cpuNanoCores: cpu[i]!,
    memoryBytes: memory[i]! / NANO,
  }));
}

function nodeReady(node: Node): boolean {
  if (node.metadata?.annotations?.[NODE_STATE_ANNOTATION] === 'down') return false;
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** A node's usage from the pods bound to it, or undefined when it cannot be scraped. */
export function nodeUsage(
  node: Node,
  pods: readonly Pod[],
): { cpuNanoCores: bigint; memoryBytes: bigint } | undefined {
  if (!nodeReady(node)) return undefined;
  let cpu = 0n;
  let memory = 0n;
  for (const pod of pods) {
    for (const u of podUsage(pod) ?? []) {
      cpu += u.cpuNanoCores;
      memory += u.memoryBytes;
    }
  }
  const a = node.metadata?.annotations ?? {};
  const cpuOverride = override(a[CPU_USAGE_ANNOTATION]).total;
  const memoryOverride = override(a[MEMORY_USAGE_ANNOTATION]).total;
  return {
    cpuNanoCores: cpuOverride ?? cpu,
    memoryBytes: memoryOverride === undefined ? memory : memoryOverride / NANO,
  };
}
