/**
 * The simulated CSI drivers: a zonal, EBS-like driver and a node-local hostpath driver, their
 * provisioners, the StorageClasses `up` creates for them, and the storage faults ConfigMap
 * through which volumes, zones and nodes fail (`fleetyard chaos lose-volume`, `fail-zone`…).
 * The control plane's side of storage (the PV binder, the scheduler's volume binding) is
 * `src/controllers/persistentvolume/`; it learns about these drivers only through
 * {@link simulatedVolumeBinding}'s `csiDrivers`, as upstream learns them from CSINode objects.
 *
 * @module
 */
import type { ControllerContext } from '../../controller/context.js';
import {
  type CsiDriverTopology,
  createVolumeBinding,
  type VolumeBindingOptions,
} from '../../controllers/persistentvolume/index.js';
import type { VolumeBindingHook } from '../../scheduler/volume-binding-hook.js';
import { type DriverModel, EBS_DRIVER, HOSTPATH_DRIVER } from './provisioning.js';

export {
  type CsiProvisionerOptions,
  csiProvisionerController,
  csiProvisionerName,
  volumeDomain,
} from './provisioner-controller.js';
export {
  type DriverModel,
  EBS_DRIVER,
  HOSTPATH_DRIVER,
  type ProvisionOptions,
  type ProvisionResult,
  provision,
  roundedCapacity,
  shouldProvision,
} from './provisioning.js';
export { type SimulatedStorageOptions, simulatedStorage } from './simulated-storage.js';
export {
  type DefaultStorageClass,
  simulatedStorageClasses,
  storageClassBootstrap,
} from './storage-classes.js';
export {
  FAILING_NODES_KEY,
  FAILING_ZONES_KEY,
  NODE_CAPACITY_KEY,
  parseStorageFaults,
  STORAGE_FAULTS_CONFIGMAP,
  STORAGE_FAULTS_NAME,
  STORAGE_FAULTS_NAMESPACE,
  type StorageFaults,
  ZONE_CAPACITY_KEY,
} from './storage-faults.js';

/** The simulated drivers, by provisioner name. */
export const SIMULATED_DRIVERS: ReadonlyMap<string, DriverModel & CsiDriverTopology> = new Map([
  [HOSTPATH_DRIVER.name, HOSTPATH_DRIVER],
  [EBS_DRIVER.name, EBS_DRIVER],
]);

/** The scheduler's volume binding in a cluster whose drivers are the simulated ones. */
export function simulatedVolumeBinding(
  ctx: ControllerContext,
  requeue: () => void,
  options: Omit<VolumeBindingOptions, 'csiDrivers'> = {},
): VolumeBindingHook {
  return createVolumeBinding(ctx, requeue, { ...options, csiDrivers: SIMULATED_DRIVERS });
}
