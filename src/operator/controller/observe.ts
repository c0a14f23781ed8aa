/**
 * One reconcile's view of a fleet, read from the informer caches only: the fleet, its
 * workload, member pods and claims (by the operator's fleet label), the prerequisites by name,
 * the ServiceAccount and StorageClass it names, its reservation, and the nodes its pods sit
 * on. Reading caches, not the API, is what makes a steady fleet cost no requests
 * (docs/design/operator.md §10: the Go operator listed pods and claims every 5–7 s per fleet).
 *
 * This is where the operator narrows what its caches hold (any object) to the generated types
 * (`asKind`): each lister holds one kind, so every step after reads typed objects.
 *
 * @module
 */
import {
  asKind,
  type CelldFleet,
  type CelldStorageReservation,
  type Deployment,
  type NetworkPolicy,
  type PersistentVolumeClaim,
  type Pod,
  type PodDisruptionBudget,
  type Service,
  type ServiceAccount,
  type StatefulSet,
  type StorageClass,
} from '../../api/model/index.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import type { Lister } from '../../client/shared-informer.js';
import { nodeConditions } from '../../controllers/node-lifecycle/node-health.js';
import type { NodeObservation } from '../healing/types.js';
import { ZONE_KEY } from '../render/scheduling.js';
import { fleetReservationName } from '../reservation/index.js';
import { BY_FLEET_INDEX } from './resources.js';

/** The listers the operator reads (one shared informer each). */
export interface FleetListers {
  readonly fleets: Lister<KubeObject>;
  readonly reservations: Lister<KubeObject>;
  readonly storageClasses: Lister<KubeObject>;
  readonly serviceAccounts: Lister<KubeObject>;
  readonly services: Lister<KubeObject>;
  readonly networkPolicies: Lister<KubeObject>;
  readonly pdbs: Lister<KubeObject>;
  readonly statefulSets: Lister<KubeObject>;
  readonly deployments: Lister<KubeObject>;
  readonly pods: Lister<KubeObject>;
  readonly claims: Lister<KubeObject>;
  readonly nodes: Lister<KubeObject>;
}

/** The fleet's workload: a StatefulSet, or a Deployment for Bucket fleets unless Ordered. */
export type Workload = StatefulSet | Deployment;

export interface FleetObservation {
  readonly fleet: CelldFleet;
  /** The kind the fleet's layout runs on: a Deployment for Bucket fleets unless Ordered. */
  readonly workloadKind: 'StatefulSet' | 'Deployment';
  /** The object named after the fleet of the workload's kind, ours or not. */
  readonly workload?: Workload;
  /** Pods carrying the fleet label (members and strays; the planners filter by owner). */
  readonly pods: readonly Pod[];
  /** Claims carrying the fleet label, any ordinal, including removed members'. */
  readonly claims: readonly PersistentVolumeClaim[];
  /** Claims at member names `data-<f>-<n>`, ours or foreign, by name (growth's foreign check). */
  readonly claimNamed: (name: string) => PersistentVolumeClaim | undefined;
  readonly services: ReadonlyMap<string, Service>;
  readonly networkPolicy?: NetworkPolicy;
  readonly pdb?: PodDisruptionBudget;
  readonly serviceAccount?: ServiceAccount;
  readonly storageClass?: StorageClass;
  readonly reservationName?: string;
  readonly reservation?: CelldStorageReservation;
  readonly node: (name: string) => NodeObservation;
}

function nsName(obj: KubeObject): [string, string] {
  return [obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''];
}

/**
 * A cached fleet, typed; undefined when it has no `spec` object (the schema requires one, so the
 * server never stores such a fleet: there is nothing to reconcile).
 */
export function cachedFleet(obj: KubeObject | undefined): CelldFleet | undefined {
  if (obj === undefined || !isJsonObject(obj.spec)) return undefined;
  return asKind(obj, 'CelldFleet');
}

/** `lister`'s object `name` in `namespace`, typed as the kind `kind` it holds. */
function getAs<N extends 'NetworkPolicy' | 'PodDisruptionBudget' | 'ServiceAccount' | 'Service'>(
  lister: Lister<KubeObject>,
  kind: N,
  namespace: string,
  name: string,
) {
  const found = lister.get(namespace, name);
  return found === undefined ? undefined : asKind(found, kind);
}

function claimOf(found: KubeObject | undefined): PersistentVolumeClaim | undefined {
  return found === undefined ? undefined : asKind(found, 'PersistentVolumeClaim');
}

/** The fleet's workload in the cache of its kind. */
function workloadOf(
  listers: FleetListers,
  kind: FleetObservation['workloadKind'],
  namespace: string,
  name: string,
): Workload | undefined {
  if (kind === 'Deployment') {
    const found = listers.deployments.get(namespace, name);
    return found === undefined ? undefined : asKind(found, 'Deployment');
  }
  const found = listers.statefulSets.get(namespace, name);
  return found === undefined ? undefined : asKind(found, 'StatefulSet');
}

/** Reads everything one reconcile of `fleet` decides from. */
export function observeFleet(listers: FleetListers, fleet: CelldFleet): FleetObservation {
  const [namespace, name] = nsName(fleet);
  const spec = fleet.spec;
  const key = `${namespace}/${name}`;
  const deployment = spec.profile === 'Bucket' && spec.bucketWorkload !== 'Ordered';
  const workloadKind = deployment ? 'Deployment' : 'StatefulSet';
  const workload = workloadOf(listers, workloadKind, namespace, name);
  const services = new Map<string, Service>();
  for (const svc of [name, `${name}-peers`]) {
    const found = getAs(listers.services, 'Service', namespace, svc);
    if (found !== undefined) services.set(svc, found);
  }
  const obs: {
    -readonly [K in keyof FleetObservation]: FleetObservation[K];
  } = {
    fleet,
    workloadKind,
    pods: listers.pods.byIndex(BY_FLEET_INDEX, key).map((p) => asKind(p, 'Pod')),
    claims: listers.claims
      .byIndex(BY_FLEET_INDEX, key)
      .map((c) => asKind(c, 'PersistentVolumeClaim')),
    claimNamed: (claim) => claimOf(listers.claims.get(namespace, claim)),
    services,
    node: (nodeName) => nodeObservation(listers.nodes.get('', nodeName), nodeName),
  };
  if (workload !== undefined) obs.workload = workload;
  const np = getAs(listers.networkPolicies, 'NetworkPolicy', namespace, name);
  if (np !== undefined) obs.networkPolicy = np;
  const pdb = getAs(listers.pdbs, 'PodDisruptionBudget', namespace, name);
  if (pdb !== undefined) obs.pdb = pdb;
  if (spec.serviceAccountName) {
    const sa = getAs(listers.serviceAccounts, 'ServiceAccount', namespace, spec.serviceAccountName);
    if (sa !== undefined) obs.serviceAccount = sa;
  }
  if (spec.storage?.storageClassName) {
    const sc = listers.storageClasses.get('', spec.storage.storageClassName);
    if (sc !== undefined) obs.storageClass = asKind(sc, 'StorageClass');
  }
  if (spec.storage?.bucket && fleet.metadata?.uid) {
    obs.reservationName = fleetReservationName(fleet);
    const r = listers.reservations.get('', obs.reservationName);
    if (r !== undefined) obs.reservation = asKind(r, 'CelldStorageReservation');
  }
  return obs;
}

/** What the healing planner needs of a node; a node missing from the cache does not exist. */
export function nodeObservation(node: KubeObject | undefined, name: string): NodeObservation {
  if (node === undefined) return { name, exists: false, ready: false };
  const ready = nodeConditions(asKind(node, 'Node')).find((c) => c.type === 'Ready');
  const isReady = ready?.status === 'True';
  const obs: NodeObservation = { name, exists: true, ready: isReady };
  const zone = node.metadata?.labels?.[ZONE_KEY];
  if (zone) obs.zone = zone;
  if (!isReady) {
    const since = parseTime(ready?.lastTransitionTime ?? undefined);
    if (since !== undefined) obs.notReadySince = since;
  }
  return obs;
}
