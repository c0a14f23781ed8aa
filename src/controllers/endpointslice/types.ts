/**
 * What the planner guarantees of the discovery.k8s.io/v1 endpoints and ports it builds (the
 * API's `Endpoint` and `DiscoveryV1EndpointPort`, with the fields this controller always sets
 * required), and the well-known names the EndpointSlice controller writes (upstream
 * `k8s.io/api/discovery/v1`).
 *
 * @module
 */
import type {
  DiscoveryV1EndpointPort,
  Endpoint,
  EndpointConditions,
  ObjectReference,
} from '../../api/model/index.js';
import type { ResourceType } from '../../client/resource-path.js';

/** The slices' resource (not in `RESOURCES`, which the runtime owns). */
export const ENDPOINT_SLICES_RESOURCE: ResourceType = {
  group: 'discovery.k8s.io',
  version: 'v1',
  plural: 'endpointslices',
};

/** `discovery.LabelServiceName`: the Service a slice belongs to. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** `discovery.LabelManagedBy`: which controller owns a slice. */
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
/** `controllerName`: the value of {@link MANAGED_BY_LABEL} on this controller's slices. */
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
/** `v1.LabelTopologyZone`, copied from the pod's node into the endpoint's `zone`. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** Upstream `--max-endpoints-per-slice` default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;

export type AddressType = 'IPv4' | 'IPv6';

/**
 * `discovery.Endpoint` as this controller writes it (empty optional fields omitted): all three
 * conditions, and the pod as `targetRef`.
 */
export type SliceEndpoint = Endpoint & {
  conditions: Required<EndpointConditions>;
  targetRef: ObjectReference & { kind: 'Pod'; namespace: string; name: string; uid: string };
};

/** `discovery.EndpointPort` after the server's defaults (name "" and protocol TCP). */
export type SlicePort = DiscoveryV1EndpointPort & { name: string; port: number; protocol: string };

/** The endpoints that share one set of ports: they go into slices of their own. */
export interface EndpointGroup {
  readonly ports: readonly SlicePort[];
  readonly endpoints: readonly SliceEndpoint[];
}
