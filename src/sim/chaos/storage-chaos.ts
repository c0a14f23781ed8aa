/**
 * The storage half of `fleetyard chaos`: faults the simulated CSI provisioners and the PV
 * controller react to, as plain API writes (the fault table is in
 * `src/sim/storage/storage-faults.ts`):
 *
 * | subcommand                    | write                                                        |
 * |-------------------------------|--------------------------------------------------------------|
 * | `lose-volume <claim>`         | the claim's PV is deleted and its finalizers removed: the claim turns `Lost` |
 * | `fail-zone <zone>`            | adds the zone to `failing-zones` of ConfigMap `kube-system/fleetyard-storage` |
 * | `restore-zone <zone>`         | removes it                                                   |
 * | `fail-node-storage <node>`    | adds the node to `failing-nodes` (the node-local provisioner) |
 * | `restore-node-storage <node>` | removes it                                                   |
 *
 * Losing a volume is what a real cluster shows when a disk is deleted behind Kubernetes' back
 * (an admin, a cloud console, a finalizer stripped by hand): the PV object vanishes while its
 * claim is still Bound.
 *
 * @module
 */
import { asKind, type ConfigMap } from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/api-errors.js';
import {
  FAILING_NODES_KEY,
  FAILING_ZONES_KEY,
  STORAGE_FAULTS_CONFIGMAP,
} from '../storage/index.js';

export type StorageChaos =
  | { readonly action: 'lose-volume'; readonly namespace: string; readonly claim: string }
  | {
      readonly action: 'fault-list';
      readonly key: typeof FAILING_ZONES_KEY | typeof FAILING_NODES_KEY;
      readonly value: string;
      readonly failing: boolean;
    };

export const STORAGE_SUBCOMMANDS = [
  'lose-volume',
  'fail-zone',
  'restore-zone',
  'fail-node-storage',
  'restore-node-storage',
] as const;

/** The storage command for a subcommand, or undefined when it is not a storage one. */
export function storageChaos(
  subcommand: string,
  name: string,
  namespace: string,
): StorageChaos | undefined {
  switch (subcommand) {
    case 'lose-volume':
      return { action: 'lose-volume', namespace, claim: name };
    case 'fail-zone':
    case 'restore-zone':
      return {
        action: 'fault-list',
        key: FAILING_ZONES_KEY,
        value: name,
        failing: subcommand === 'fail-zone',
      };
    case 'fail-node-storage':
    case 'restore-node-storage':
      return {
        action: 'fault-list',
        key: FAILING_NODES_KEY,
        value: name,
        failing: subcommand === 'fail-node-storage',
      };
    default:
      return undefined;
  }
}

export type StorageChaosClient = Pick<ApiClient, 'get' | 'patch' | 'delete' | 'create' | 'update'>;

const PVC = { group: '', version: 'v1', plural: 'persistentvolumeclaims' } as const;
const PV = { group: '', version: 'v1', plural: 'persistentvolumes' } as const;
const CONFIGMAPS = { group: '', version: 'v1', plural: 'configmaps' } as const;
const FIELD_MANAGER = 'fleetyard-chaos';

/** Runs one storage fault; resolves to kubectl-style output lines. */
export async function runStorageChaos(
  client: StorageChaosClient,
  command: StorageChaos,
): Promise<string> {
  if (command.action === 'lose-volume') return loseVolume(client, command.namespace, command.claim);
  return editFaultList(client, command.key, command.value, command.failing);
}

async function loseVolume(
  client: StorageChaosClient,
  namespace: string,
  claimName: string,
): Promise<string> {
  const claim = asKind(
    await client.get({ ...PVC, namespace, name: claimName }),
    'PersistentVolumeClaim',
  );
  const volumeName = claim.spec?.volumeName;
  if (volumeName === undefined || volumeName === '') {
    throw new Error(`persistentvolumeclaim "${claimName}" is not bound to a volume`);
  }
  // Delete first, then strip the finalizers: pv-protection keeps a Bound PV (the point of it),
  // and its controller re-adds a missing finalizer to a PV that is not being deleted, so the
  // other order races with it and can leave the PV Terminating for good.
  try {
    await client.delete({ ...PV, name: volumeName });
  } catch (err) {
    if (isNotFound(err)) return `persistentvolume/${volumeName} already gone\n`;
    throw err;
  }
  try {
    await client.patch({ ...PV, name: volumeName }, { metadata: { finalizers: null } }, 'merge', {
      fieldManager: FIELD_MANAGER,
    });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return `persistentvolume/${volumeName} deleted (claim ${namespace}/${claimName} lost its volume)\n`;
}

/** Adds or removes one entry of a comma list in the faults ConfigMap, creating it if absent. */
async function editFaultList(
  client: StorageChaosClient,
  key: string,
  value: string,
  failing: boolean,
): Promise<string> {
  const ref = { ...CONFIGMAPS, ...STORAGE_FAULTS_CONFIGMAP };
  // Read-modify-write under the resourceVersion; 5 tries covers a controller's concurrent edit.
  for (let attempt = 0; attempt < 5; attempt++) {
    let current: ConfigMap | undefined;
    try {
      current = asKind(await client.get(ref), 'ConfigMap');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const data = { ...current?.data };
    const items = new Set(
      (data[key] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );
    if (failing) items.add(value);
    else items.delete(value);
    const next = [...items].sort().join(',');
    if ((data[key] ?? '') === next && current !== undefined) {
      return `configmap/${ref.name} unchanged\n`;
    }
    data[key] = next;
    try {
      if (current === undefined) {
        await client.create(
          { ...CONFIGMAPS, namespace: ref.namespace },
          { metadata: { name: ref.name, namespace: ref.namespace }, data },
          { fieldManager: FIELD_MANAGER },
        );
        return `configmap/${ref.name} created\n`;
      }
      await client.update(ref, { ...current, data }, { fieldManager: FIELD_MANAGER });
      return `configmap/${ref.name} configured\n`;
    } catch (err) {
      if (!isConflict(err) && !isAlreadyExists(err)) throw err;
    }
  }
  throw new Error(`configmap/${ref.name}: too many concurrent changes, try again`);
}
