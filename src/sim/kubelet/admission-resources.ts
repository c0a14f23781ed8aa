/**
 * The resource half of the kubelet's admission (upstream `noderesources.Fits` as called from
 * `pkg/kubelet/lifecycle/predicate.go`), with the numbers the rejection message prints.
 *
 * Checks, in upstream's order, each one a separate shortage:
 * 1. `pods`: the admitted pods plus this one must not exceed allocatable `pods` (110 by
 *    default) — checked even for a pod that requests nothing;
 * 2. nothing else when the pod requests nothing;
 * 3. `cpu` (millicores), `memory`, `ephemeral-storage` (bytes), each only when requested: the
 *    request must fit into allocatable minus what the admitted pods request;
 * 4. other scalar resources (`hugepages-*`, extended `example.com/gpu`), sorted by name (Go
 *    iterates a map there, so upstream's order is random).
 *
 * Before that, extended resources the node does not list at all are dropped from the request
 * (upstream `removeMissingExtendedResources`: cluster-level resources unknown to nodes), so a
 * pod bound by `nodeName` that asks for `example.com/gpu` on a node without any is admitted.
 *
 * @module
 */
import type { PodSpec } from '../../api/model/index.js';
import { isScalarResource, podRequests, type Resources } from '../../scheduler/resources.js';
import type { NodeInfo } from '../../scheduler/types.js';

/** Upstream `InsufficientResource`: amounts in scheduler units (cpu milli, the rest units). */
export interface InsufficientResource {
  readonly resource: string;
  readonly requested: bigint;
  readonly used: bigint;
  readonly capacity: bigint;
}

const FIXED = ['cpu', 'memory', 'ephemeral-storage'] as const;

/**
 * Upstream `IsExtendedResourceName`: a name with a domain outside `kubernetes.io/` (and not a
 * quota `requests.` name).
 */
export function isExtendedResourceName(name: string): boolean {
  return name.includes('/') && !name.includes('kubernetes.io/') && !name.startsWith('requests.');
}

/** The pod's effective requests, without the extended resources the node does not list. */
export function admissionRequests(
  spec: PodSpec,
  allocatable: ReadonlyMap<string, bigint>,
): Resources {
  const request = podRequests(spec);
  for (const name of [...request.keys()]) {
    if (isExtendedResourceName(name) && !allocatable.has(name)) request.delete(name);
  }
  return request;
}

/** Every shortage, in upstream's order; empty when the pod fits. */
export function insufficientResources(
  request: ReadonlyMap<string, bigint>,
  node: NodeInfo,
): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const allowedPods = node.allocatable.get('pods') ?? 0n;
  const podCount = BigInt(node.pods.length);
  if (podCount + 1n > allowedPods) {
    out.push({ resource: 'pods', requested: 1n, used: podCount, capacity: allowedPods });
  }
  const scalars = [...request.keys()].filter(isScalarResource).sort();
  const checked = [...FIXED, ...scalars];
  for (const resource of checked) {
    const requested = request.get(resource) ?? 0n;
    if (requested <= 0n) continue;
    const used = node.requested.get(resource) ?? 0n;
    const capacity = node.allocatable.get(resource) ?? 0n;
    if (requested > capacity - used) out.push({ resource, requested, used, capacity });
  }
  return out;
}
