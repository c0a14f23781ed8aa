/**
 * One reconcile's view of a fleet, read from the informer caches only: the fleet, its
 * workload, member pods and claims (by the operator's fleet label), the prerequisites by name,
 * the ServiceAccount and StorageClass it names, its reservation, and the nodes its pods sit
 * on. Reading caches, not the API, is what makes a steady fleet cost no requests (§8: the Go
 * operator listed pods and claims every 5–7 s per fleet).
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import type { Lister } from '../../client/shared-informer.js';
import { nodeConditions } from '../../controllers/node-lifecycle/node-health.js';
import type { NodeObservation } from '../healing/types.js';
import { ZONE_KEY } from '../render/scheduling.js';
import { fleetReservationName, type ReservationFleet } from '../reservation/index.js';
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

export interface FleetObservation {
  readonly fleet: KubeObject;
  /** The kind the fleet's layout runs on: a Deployment for Bucket fleets unless Ordered. */
  readonly workloadKind: 'StatefulSet' | 'Deployment';
  /** The object named after the fleet of the workload's kind, ours or not. */
  readonly workload?: KubeObject;
  /** Pods carrying the fleet label (members and strays; the planners filter by owner). */
  readonly pods: readonly KubeObject[];
  /** Claims carrying the fleet label, any ordinal, including removed members'. */
  readonly claims: readonly KubeObject[];
  /** Claims at member names `data-<f>-<n>`, ours or foreign, by name (growth's foreign check). */
  readonly claimNamed: (name: string) => KubeObject | undefined;
  readonly services: ReadonlyMap<string, KubeObject>;
  readonly networkPolicy?: KubeObject;
  readonly pdb?: KubeObject;
  readonly serviceAccount?: KubeObject;
  readonly storageClass?: KubeObject;
  readonly reservationName?: string;
  readonly reservation?: KubeObject;
  readonly node: (name: string) => NodeObservation;
}

function nsName(obj: KubeObject): [string, string] {
  return [obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''];
}

/** Reads everything one reconcile of `fleet` decides from. */
export function observeFleet(listers: FleetListers, fleet: KubeObject): FleetObservation {
  const [namespace, name] = nsName(fleet);
  const spec = (fleet.spec ?? {}) as {
    profile?: string;
    bucketWorkload?: string;
    serviceAccountName?: string;
    storage?: { storageClassName?: string; bucket?: string };
  };
  const key = `${namespace}/${name}`;
  const deployment = spec.profile === 'Bucket' && spec.bucketWorkload !== 'Ordered';
  const workload = (deployment ? listers.deployments : listers.statefulSets).get(namespace, name);
  const workloadKind = deployment ? 'Deployment' : 'StatefulSet';
  const services = new Map<string, KubeObject>();
  for (const svc of [name, `${name}-peers`]) {
    const found = listers.services.get(namespace, svc);
    if (found !== undefined) services.set(svc, found);
  }
  const obs: {
    -readonly [K in keyof FleetObservation]: FleetObservation[K];
  } = {
    fleet,
    workloadKind,
    pods: listers.pods.byIndex(BY_FLEET_INDEX, key),
    claims: listers.claims.byIndex(BY_FLEET_INDEX, key),
    claimNamed: (claim) => listers.claims.get(namespace, claim),
    services,
    node: (nodeName) => nodeObservation(listers.nodes.get('', nodeName), nodeName),
  };
  if (workload !== undefined) obs.workload = workload;
  const np = listers.networkPolicies.get(namespace, name);
  if (np !== undefined) obs.networkPolicy = np;
  const pdb = listers.pdbs.get(namespace, name);
  if (pdb !== undefined) obs.pdb = pdb;
  if (spec.serviceAccountName) {
    const sa = listers.serviceAccounts.get(namespace, spec.serviceAccountName);
    if (sa !== undefined) obs.serviceAccount = sa;
  }
  if (spec.storage?.storageClassName) {
    const sc = listers.storageClasses.get('', spec.storage.storageClassName);
    if (sc !== undefined) obs.storageClass = sc;
  }
  if (spec.storage?.bucket && fleet.metadata?.uid) {
    obs.reservationName = fleetReservationName(fleet as unknown as ReservationFleet);
    const r = listers.reservations.get('', obs.reservationName);
    if (r !== undefined) obs.reservation = r;
  }
  return obs;
}

/** What the healing planner needs of a node; a node missing from the cache does not exist. */
export function nodeObservation(node: KubeObject | undefined, name: string): NodeObservation {
  if (node === undefined) return { name, exists: false, ready: false };
  const ready = nodeConditions(node).find((c) => c.type === 'Ready');
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
