/**
 * Hand-built {@link FleetObservation}s for the pure parts of the operator controller (gates,
 * status): a fleet object and only the children a case names; everything else is absent, as
 * an empty cache would report it.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import type { FleetObservation } from '../observe.js';

export const FLEET_UID = 'fleet-uid-1';

/** A CelldFleet object as the cache holds it. */
export function fleetObject(
  spec: Record<string, unknown>,
  meta: Partial<NonNullable<KubeObject['metadata']>> = {},
  status?: Record<string, unknown>,
): KubeObject {
  return {
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
  };
}

/** An observation of `fleet` with `parts` filled in and nothing else. */
export function observation(
  fleet: KubeObject,
  parts: Partial<Omit<FleetObservation, 'fleet'>> = {},
): FleetObservation {
  return {
    fleet,
    pods: [],
    claims: [],
    claimNamed: () => undefined,
    services: new Map(),
    node: (name) => ({ name, exists: false, ready: false }),
    ...parts,
    workloadKind: parts.workloadKind ?? 'StatefulSet',
  };
}
