/**
 * What `fleetyard up` runs for storage: the PV controller, one simulated CSI provisioner per
 * modelled driver (hostpath, ebs), and the bootstrap of the `standard` and `ebs`
 * StorageClasses (`storage-classes.ts`).
 *
 * @module
 */
import type { ControllerDefinition } from '../../controller/context.js';
import { persistentVolumeBinderController } from '../../controllers/persistentvolume/binder-controller.js';
import { csiProvisionerController } from './provisioner-controller.js';
import { EBS_DRIVER, HOSTPATH_DRIVER } from './provisioning.js';
import { type DefaultStorageClass, storageClassBootstrap } from './storage-classes.js';

export interface SimulatedStorageOptions {
  /** The class annotated as the cluster default (`none`: no default). */
  readonly defaultClass: DefaultStorageClass;
}

/** The binder, both provisioners, and the StorageClass bootstrap. */
export function simulatedStorage(options: SimulatedStorageOptions): ControllerDefinition[] {
  return [
    storageClassBootstrap(options.defaultClass),
    persistentVolumeBinderController(),
    csiProvisionerController({ driver: HOSTPATH_DRIVER }),
    csiProvisionerController({ driver: EBS_DRIVER }),
  ];
}
