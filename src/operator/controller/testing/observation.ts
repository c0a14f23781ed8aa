/**
 * Hand-built {@link FleetObservation}s for the pure parts of the operator controller (gates,
 * status): a fleet object and only the children a case names; everything else is absent, as
 * an empty cache would report it. Cases give plain objects; they are narrowed to their kinds
 * here, as `observeFleet` narrows what the caches hold.
 *
 * @module
 */
import { asKind, type CelldFleet } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { NodeObservation } from '../../healing/types.js';
import type { FleetObservation } from '../observe.js';

export const FLEET_UID = 'fleet-uid-1';

/** A CelldFleet object as the cache holds it. */
export function fleetObject(
  spec: Record<string, unknown>,
  meta: Partial<NonNullable<KubeObject['metadata']>> = {},
  status?: Record<string, unknown>,
): CelldFleet {
  return asKind(
    {
      metadata: {
        name: 'orders',
        namespace: 'default',
        uid: FLEET_UID,
        generation: 1,
        resourceVersion: '10',
        ...meta,
      },
      spec,
      ...(status === undefined ? {} : { status }),
    },
    'CelldFleet',
  );
}

/** What a case may fill in, as plain objects of their kinds. */
export interface ObservationParts {
  readonly workloadKind?: FleetObservation['workloadKind'];
  readonly workload?: KubeObject;
  readonly pods?: readonly KubeObject[];
  readonly claims?: readonly KubeObject[];
  readonly claimNamed?: (name: string) => KubeObject | undefined;
  readonly services?: ReadonlyMap<string, KubeObject>;
  readonly networkPolicy?: KubeObject;
  readonly pdb?: KubeObject;
  readonly serviceAccount?: KubeObject;
  readonly storageClass?: KubeObject;
  readonly reservationName?: string;
  readonly reservation?: KubeObject;
  readonly node?: (name: string) => NodeObservation;
}

/** An observation of `fleet` with `parts` filled in and nothing else. */
export function observation(fleet: KubeObject, parts: ObservationParts = {}): FleetObservation {
  const workloadKind = parts.workloadKind ?? 'StatefulSet';
  const claim = (c: KubeObject) => asKind(c, 'PersistentVolumeClaim');
  const obs: { -readonly [K in keyof FleetObservation]: FleetObservation[K] } = {
    fleet: asKind(fleet, 'CelldFleet'),
    workloadKind,
    pods: (parts.pods ?? []).map((p) => asKind(p, 'Pod')),
    claims: (parts.claims ?? []).map(claim),
    claimNamed: (name) => {
      const found = parts.claimNamed?.(name);
      return found === undefined ? undefined : claim(found);
    },
    services: new Map(
      [...(parts.services ?? new Map<string, KubeObject>())].map(([k, s]) => [
        k,
        asKind(s, 'Service'),
      ]),
    ),
    node: parts.node ?? ((name) => ({ name, exists: false, ready: false })),
  };
  const { workload, networkPolicy, pdb, serviceAccount, storageClass, reservation } = parts;
  if (workload !== undefined) {
    obs.workload =
      workloadKind === 'Deployment'
        ? asKind(workload, 'Deployment')
        : asKind(workload, 'StatefulSet');
  }
  if (networkPolicy !== undefined) obs.networkPolicy = asKind(networkPolicy, 'NetworkPolicy');
  if (pdb !== undefined) obs.pdb = asKind(pdb, 'PodDisruptionBudget');
  if (serviceAccount !== undefined) obs.serviceAccount = asKind(serviceAccount, 'ServiceAccount');
  if (storageClass !== undefined) obs.storageClass = asKind(storageClass, 'StorageClass');
  if (parts.reservationName !== undefined) obs.reservationName = parts.reservationName;
  if (reservation !== undefined) obs.reservation = asKind(reservation, 'CelldStorageReservation');
  return obs;
}
