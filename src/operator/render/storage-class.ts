/**
 * The StorageClass contract of a PersistentFleet (docs/design/operator-api.md §1.4): reclaim policy
 * Delete (a removed claim's disk is then freed by CSI, never by the operator),
 * WaitForFirstConsumer binding (a disk is made in the zone its first Pod is scheduled to,
 * which the zone rules rely on) and a supported CSI provisioner. `hostpath.csi.k8s.io` is
 * accepted only when local testing is enabled: its disks live on one node's filesystem.
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';

export const EBS_PROVISIONER = 'ebs.csi.aws.com';
export const HOSTPATH_PROVISIONER = 'hostpath.csi.k8s.io';

/**
 * What a disk of the class pins its member to: `node` for a node-local disk (hostpath: the data
 * lives on one node's filesystem), `zone` for a zonal one (an EBS volume attaches to any node of
 * its zone). The contract admits only these two provisioners.
 */
export function diskScope(sc: KubeObject | undefined): 'node' | 'zone' {
  return sc?.provisioner === HOSTPATH_PROVISIONER ? 'node' : 'zone';
}

export type StorageClassVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: 'StorageClassMissing' | 'InvalidStorageClass';
      readonly message: string;
    };

export interface StorageClassContractOptions {
  readonly localTesting: boolean;
  /** The fleet's `storage.storageClassName`, named in the messages. */
  readonly className?: string;
}

function requirement(localTesting: boolean): string {
  const provisioners = localTesting
    ? `${EBS_PROVISIONER} or ${HOSTPATH_PROVISIONER}`
    : EBS_PROVISIONER;
  return `PersistentFleet needs reclaimPolicy Delete, volumeBindingMode WaitForFirstConsumer and provisioner ${provisioners}`;
}

/** Checks a StorageClass (undefined when it was not found) against the contract. */
export function storageClassContract(
  sc: KubeObject | undefined,
  options: StorageClassContractOptions,
): StorageClassVerdict {
  const name = options.className ?? sc?.metadata?.name ?? '';
  if (sc === undefined) {
    return {
      ok: false,
      reason: 'StorageClassMissing',
      message: `StorageClass "${name}" was not found; create it or name another. ${requirement(options.localTesting)}.`,
    };
  }
  // The API server defaults reclaimPolicy to Delete and volumeBindingMode to Immediate.
  const reclaim = typeof sc.reclaimPolicy === 'string' ? sc.reclaimPolicy : 'Delete';
  const binding = typeof sc.volumeBindingMode === 'string' ? sc.volumeBindingMode : 'Immediate';
  const provisioner = typeof sc.provisioner === 'string' ? sc.provisioner : '';
  const allowed = [EBS_PROVISIONER, ...(options.localTesting ? [HOSTPATH_PROVISIONER] : [])];
  const problems: string[] = [];
  if (reclaim !== 'Delete') problems.push(`reclaimPolicy is ${reclaim}`);
  if (binding !== 'WaitForFirstConsumer') problems.push(`volumeBindingMode is ${binding}`);
  if (!allowed.includes(provisioner)) {
    const hint =
      provisioner === HOSTPATH_PROVISIONER ? ' (allowed only when local testing is enabled)' : '';
    problems.push(`provisioner is ${provisioner || '(none)'}${hint}`);
  }
  if (problems.length === 0) return { ok: true };
  return {
    ok: false,
    reason: 'InvalidStorageClass',
    message: `StorageClass "${name}" does not fit: ${problems.join(', ')}. ${requirement(options.localTesting)}.`,
  };
}
