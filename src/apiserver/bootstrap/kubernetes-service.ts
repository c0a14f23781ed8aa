/**
 * What kube-apiserver's bootstrap controller keeps in `default` (upstream
 * `pkg/controlplane/controller/kubernetesservice` and the endpoint reconciler's
 * `EndpointsAdapter`), as pure plans from the stored objects:
 *
 * - Service `kubernetes`: created when missing with the first address of the service range,
 *   port `https` 443/TCP to the API server's secure port, no selector (its endpoints are kept
 *   here, not by the endpoints controllers), labels `component: apiserver`,
 *   `provider: kubernetes`. After that it is left alone, but for its ports and type on the
 *   first pass after a start (upstream's "corrected only during start").
 * - Endpoints `kubernetes`: one subset with the advertised address, label
 *   `endpointslice.kubernetes.io/skip-mirror: "true"` (nothing mirrors it into a slice).
 * - EndpointSlice `kubernetes`: written by the reconciler itself, labelled only
 *   `kubernetes.io/service-name: kubernetes` (no `managed-by`, so the EndpointSlice controller
 *   leaves it alone), one ready endpoint; any other slice labelled for the Service is deleted.
 *
 * The addresses are always reset to the advertised one; the ports only when they are empty
 * or `reconcilePorts` (the first pass after a start: `fleetyard up --port 0` gets a new port
 * each start). A plan that changes nothing writes nothing.
 *
 * @module
 */
import { semanticEqual } from '../../api/kinds/common.js';
import { getArr, getObj, getStr, objects } from '../../api/kinds/json.js';
import { deepCopy, isJsonObject, type KubeObject } from '../../api/object.js';

export const KUBERNETES_SERVICE_NAME = 'kubernetes';
export const KUBERNETES_SERVICE_NAMESPACE = 'default';
/** The Service's port: fixed at 443 upstream too (only the target port follows the server). */
export const KUBERNETES_SERVICE_PORT = 443;
const PORT_NAME = 'https';
export const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** The bootstrap controller's inputs (upstream `kubernetesservice.Config`). */
export interface KubernetesServiceConfig {
  /** The Service's cluster IP: the first address of the service range. */
  readonly serviceIP: string;
  /** The API server's secure port: the Service's target port and the endpoints' port. */
  readonly securePort: number;
  /**
   * The advertised address (IPv4, as the service range), or undefined when the API server has
   * none: then the Endpoints and the slice are not written.
   */
  readonly publicIP: string | undefined;
}

/** One write of a plan: create the object, or replace the stored one with it. */
export interface ObjectWrite {
  readonly action: 'create' | 'update';
  readonly object: KubeObject;
}

type Json = Record<string, unknown>;

/** The Service's one port, as upstream's `createPortAndServiceSpec`. */
function servicePorts(config: KubernetesServiceConfig): Json[] {
  return [
    {
      name: PORT_NAME,
      protocol: 'TCP',
      port: KUBERNETES_SERVICE_PORT,
      targetPort: config.securePort,
    },
  ];
}

/** The Service as upstream's `CreateOrUpdateMasterServiceIfNeeded` creates it. */
export function desiredService(config: KubernetesServiceConfig): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: KUBERNETES_SERVICE_NAME,
      namespace: KUBERNETES_SERVICE_NAMESPACE,
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      ports: servicePorts(config),
      clusterIP: config.serviceIP,
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      type: 'ClusterIP',
    },
  };
}

/** A port's fields as Go compares the struct (absent and zero values alike). */
function portIdentity(port: unknown): string {
  const p = isJsonObject(port) ? port : {};
  return JSON.stringify([
    p.name ?? '',
    p.protocol ?? '',
    p.appProtocol ?? '',
    p.port ?? 0,
    p.targetPort ?? 0,
    p.nodePort ?? 0,
  ]);
}

function samePorts(current: readonly unknown[], desired: readonly unknown[]): boolean {
  return (
    current.length === desired.length &&
    desired.every((p, i) => portIdentity(p) === portIdentity(current[i]))
  );
}

/**
 * The Service's write: create it when missing; when `reconcile` (the first pass after a
 * start), reset ports and type that differ (upstream `getMasterServiceUpdateIfNeeded`).
 */
export function planService(
  current: KubeObject | undefined,
  config: KubernetesServiceConfig,
  reconcile: boolean,
): ObjectWrite | undefined {
  if (current === undefined) return { action: 'create', object: desiredService(config) };
  if (!reconcile) return undefined;
  const spec = getObj(current, 'spec') ?? {};
  const ports = servicePorts(config);
  if (getStr(spec, 'type') === 'ClusterIP' && samePorts(getArr(spec, 'ports') ?? [], ports)) {
    return undefined;
  }
  const next = deepCopy(current);
  next.spec = { ...(next.spec ?? {}), ports, type: 'ClusterIP' };
  return { action: 'update', object: next };
}

/** Upstream `createEndpointPortSpec`. */
function endpointPorts(config: KubernetesServiceConfig): Json[] {
  return [{ name: PORT_NAME, port: config.securePort, protocol: 'TCP' }];
}

function named(name: string): KubeObject {
  return { metadata: { name, namespace: KUBERNETES_SERVICE_NAMESPACE } };
}

/** Upstream `EndpointsAdapter.updateEndpoints` plus the create-or-update decision. */
export function planEndpoints(
  current: KubeObject | undefined,
  config: KubernetesServiceConfig,
  reconcilePorts: boolean,
): ObjectWrite | undefined {
  if (config.publicIP === undefined) return undefined;
  const next = current === undefined ? named(KUBERNETES_SERVICE_NAME) : deepCopy(current);
  next.apiVersion = 'v1';
  next.kind = 'Endpoints';
  next.metadata = { ...next.metadata, labels: { [SKIP_MIRROR_LABEL]: 'true' } };
  const subsets = objects(next, 'subsets');
  const subset: Json = subsets.length === 1 ? { ...subsets[0] } : {};
  subset.addresses = [{ ip: config.publicIP }];
  const ports = getArr(subset, 'ports') ?? [];
  const wanted = endpointPorts(config);
  if (ports.length === 0 || (reconcilePorts && !semanticEqual(ports, wanted))) {
    subset.ports = wanted;
  }
  next.subsets = [subset];
  if (current === undefined) return { action: 'create', object: next };
  const same =
    semanticEqual(current.subsets, next.subsets) &&
    semanticEqual(current.metadata?.labels, next.metadata.labels);
  return same ? undefined : { action: 'update', object: next };
}

/** The slices' writes: delete every other slice of the Service, then create or update its own. */
export interface SlicePlan {
  readonly delete: readonly string[];
  readonly write: ObjectWrite | undefined;
}

/**
 * Upstream `EndpointsAdapter.Sync` for the slices: `slices` are the stored EndpointSlices of
 * `default` that carry the Service's label or its name (a slice whose label was removed is
 * found by name and relabelled, where upstream would fail to create it again and again).
 */
export function planEndpointSlices(
  slices: readonly KubeObject[],
  config: KubernetesServiceConfig,
  reconcilePorts: boolean,
): SlicePlan {
  if (config.publicIP === undefined) return { delete: [], write: undefined };
  const isPrimary = (s: KubeObject) =>
    s.metadata?.name === KUBERNETES_SERVICE_NAME && getStr(s, 'addressType') === 'IPv4';
  const primary = slices.find(isPrimary);
  // Every other one: labelled for the Service (upstream deletes those), or a same-named slice
  // of another address type, which must go for the create to take the name.
  const toDelete = slices.filter((s) => s !== primary).map((s) => s.metadata?.name ?? '');
  return { delete: toDelete, write: planPrimarySlice(primary, config, reconcilePorts) };
}

/** Upstream `EndpointsAdapter.updateEndpointSlice` plus the create-or-update decision. */
function planPrimarySlice(
  current: KubeObject | undefined,
  config: KubernetesServiceConfig,
  reconcilePorts: boolean,
): ObjectWrite | undefined {
  const next = current === undefined ? named(KUBERNETES_SERVICE_NAME) : deepCopy(current);
  next.apiVersion = 'discovery.k8s.io/v1';
  next.kind = 'EndpointSlice';
  next.metadata = {
    ...next.metadata,
    labels: { [SERVICE_NAME_LABEL]: KUBERNETES_SERVICE_NAME },
  };
  next.addressType = 'IPv4';
  next.endpoints = [{ addresses: [config.publicIP], conditions: { ready: true } }];
  const ports = getArr(next, 'ports') ?? [];
  const wanted = endpointPorts(config);
  if (ports.length === 0 || (reconcilePorts && !semanticEqual(ports, wanted))) {
    next.ports = wanted;
  }
  if (current === undefined) return { action: 'create', object: next };
  const same =
    semanticEqual(current.endpoints, next.endpoints) &&
    semanticEqual(current.ports, next.ports) &&
    semanticEqual(current.metadata?.labels, next.metadata.labels);
  return same ? undefined : { action: 'update', object: next };
}
