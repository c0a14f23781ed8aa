/**
 * The phases the API-fault sweep drives, each in its own namespace: how the namespace is
 * brought to the phase's starting state (with a fault-free operator that is then stopped),
 * the change that starts the phase, and the end state that counts as converged.
 *
 * | phase                | profile         | start state    | trigger                         | converged                          |
 * |----------------------|-----------------|----------------|---------------------------------|------------------------------------|
 * | `persistent-create`  | PersistentFleet | SA only        | create the fleet (3 replicas)   | Ready, 3 ready                     |
 * | `persistent-scale-in`| PersistentFleet | Ready, 3       | `spec.replicas` 3 → 2           | Ready, 2 ready                     |
 * | `persistent-replace` | PersistentFleet | Ready, 3       | member 1's volume lost (claim Lost) | Ready, 3 ready, `data-orders-1` a new Bound claim |
 * | `persistent-delete`  | PersistentFleet | Ready, 3       | delete the fleet                | the fleet is gone                  |
 * | `bucket-create`      | Bucket          | SA only        | create the fleet (2 replicas)   | Ready, 2 ready                     |
 * | `bucket-delete`      | Bucket          | Ready, 2       | delete the fleet                | the fleet is gone                  |
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import { RESOURCES } from '../../../controller/context.js';
import { eventually, type Harness } from '../../../controller/testing/harness.js';
import { runStorageChaos } from '../../../sim/chaos/storage-chaos.js';
import { CELLD_API_VERSION } from '../../api/types.js';
import { FLEETS, SERVICE_ACCOUNTS } from '../resources.js';

export const FLEET_NAME = 'orders';
export const LOST_CLAIM = `data-${FLEET_NAME}-1`;
const NAMESPACES = { group: '', version: 'v1', plural: 'namespaces' };
const IMAGE = `ghcr.io/ewhauser/celld@sha256:${'4f'.repeat(32)}`;

export type Profile = 'PersistentFleet' | 'Bucket';

export interface Phase {
  readonly name: string;
  readonly profile: Profile;
  /** Whether the phase starts from a Ready fleet (else from the ServiceAccount alone). */
  readonly startsReady: boolean;
  /** Starts the phase (the operator under test is not running yet). */
  trigger(h: Harness, ns: string): Promise<void>;
  /** The phase's end state has been reached. */
  converged(h: Harness, ns: string, start: PhaseStart): Promise<boolean>;
}

/** What the namespace held when the phase began. */
export interface PhaseStart {
  /** Every child's uid at the start: a delete of one of these is of the "initial" incarnation. */
  readonly uids: ReadonlySet<string>;
  readonly fleetUid: string | undefined;
  readonly reservation: KubeObject | undefined;
  /** Claim name → uid. */
  readonly claims: ReadonlyMap<string, string>;
}

export function fleetRef(ns: string) {
  return { ...FLEETS, namespace: ns, name: FLEET_NAME };
}

function fleetObject(ns: string, profile: Profile): KubeObject {
  const persistent = profile === 'PersistentFleet';
  return {
    apiVersion: CELLD_API_VERSION,
    kind: 'CelldFleet',
    metadata: { name: FLEET_NAME, namespace: ns },
    spec: {
      profile,
      replicas: persistent ? 3 : 2,
      runtimeImage: IMAGE,
      serviceAccountName: 'celld',
      storage: {
        bucket: `${ns}-data`,
        region: 'us-east-1',
        sizeGiB: 1,
        ...(persistent ? { storageClassName: 'ebs' } : {}),
      },
      placement: { zones: ['local-a', 'local-b'], mode: 'Strict' },
      execution: { cpuRequest: '10m', memoryRequest: '16Mi' },
    },
  };
}

/** The namespace and the fleet's ServiceAccount. */
export async function prepareNamespace(h: Harness, ns: string): Promise<void> {
  await h.client.create(NAMESPACES, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
  await h.client.create(
    { ...SERVICE_ACCOUNTS, namespace: ns },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'celld', namespace: ns } },
  );
}

export function createFleet(h: Harness, ns: string, profile: Profile): Promise<KubeObject> {
  return h.client.create({ ...FLEETS, namespace: ns }, fleetObject(ns, profile));
}

interface FleetStatusView {
  state?: string;
  readyReplicas?: number;
  observedGeneration?: number;
}

/** Ready at the current generation with every replica ready. */
export async function fleetReady(h: Harness, ns: string): Promise<boolean> {
  const fleet = await h.get(fleetRef(ns));
  const status = fleet?.status as FleetStatusView | undefined;
  const replicas = (fleet?.spec as { replicas?: number } | undefined)?.replicas;
  return (
    status?.state === 'Ready' &&
    status.observedGeneration === fleet?.metadata?.generation &&
    status.readyReplicas === replicas
  );
}

async function fleetGone(h: Harness, ns: string): Promise<boolean> {
  return (await h.get(fleetRef(ns))) === undefined;
}

async function deleteFleet(h: Harness, ns: string): Promise<void> {
  await h.client.delete(fleetRef(ns));
}

async function loseVolume(h: Harness, ns: string): Promise<void> {
  await runStorageChaos(h.client, { action: 'lose-volume', namespace: ns, claim: LOST_CLAIM });
  const claimRef = { ...RESOURCES.persistentvolumeclaims, namespace: ns, name: LOST_CLAIM };
  await eventually(
    async () =>
      ((await h.get(claimRef))?.status as { phase?: string } | undefined)?.phase === 'Lost',
    { timeoutMs: 15_000 },
  );
}

async function replaced(h: Harness, ns: string, start: PhaseStart): Promise<boolean> {
  const claim = await h.get({
    ...RESOURCES.persistentvolumeclaims,
    namespace: ns,
    name: LOST_CLAIM,
  });
  return (
    claim !== undefined &&
    claim.metadata?.uid !== start.claims.get(LOST_CLAIM) &&
    (claim.status as { phase?: string } | undefined)?.phase === 'Bound' &&
    (await fleetReady(h, ns))
  );
}

export const PHASES: readonly Phase[] = [
  {
    name: 'persistent-create',
    profile: 'PersistentFleet',
    startsReady: false,
    trigger: async (h, ns) => void (await createFleet(h, ns, 'PersistentFleet')),
    converged: (h, ns) => fleetReady(h, ns),
  },
  {
    name: 'persistent-scale-in',
    profile: 'PersistentFleet',
    startsReady: true,
    trigger: async (h, ns) =>
      void (await h.client.patch(fleetRef(ns), { spec: { replicas: 2 } }, 'merge')),
    converged: (h, ns) => fleetReady(h, ns),
  },
  {
    name: 'persistent-replace',
    profile: 'PersistentFleet',
    startsReady: true,
    trigger: loseVolume,
    converged: replaced,
  },
  {
    name: 'persistent-delete',
    profile: 'PersistentFleet',
    startsReady: true,
    trigger: deleteFleet,
    converged: (h, ns) => fleetGone(h, ns),
  },
  {
    name: 'bucket-create',
    profile: 'Bucket',
    startsReady: false,
    trigger: async (h, ns) => void (await createFleet(h, ns, 'Bucket')),
    converged: (h, ns) => fleetReady(h, ns),
  },
  {
    name: 'bucket-delete',
    profile: 'Bucket',
    startsReady: true,
    trigger: deleteFleet,
    converged: (h, ns) => fleetGone(h, ns),
  },
];
