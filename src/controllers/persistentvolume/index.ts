/**
 * The PV controller's pure decisions: volume matching, claim and volume sync plans, the
 * simulated CSI provisioners, and PV node affinity for the scheduler's volume hook; and the
 * running controllers over them: the PV controller (binder), the CSI provisioners, the
 * StorageClass bootstrap, and the storage faults ConfigMap (`simulatedStorage` bundles them).
 *
 * @module
 */

export {
  BINDER_CONTROLLER_NAME,
  BINDER_EVENT_COMPONENT,
  BINDER_RESYNC_MS,
  type BinderOptions,
  persistentVolumeBinderController,
} from './binder-controller.js';
export {
  type ClaimOutcome,
  type ClaimPlan,
  type ClaimSyncOptions,
  planClaim,
} from './claim-sync.js';
export {
  accessModesKey,
  findBestMatchForClaim,
  findMatchingVolume,
  type MatchOptions,
  volumeSatisfiesClaim,
} from './matching.js';
export { nodeLabels, VOLUME_REASONS, volumeNodeAffinityMatches } from './node-affinity.js';
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
  STORAGE_CLASSES,
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
export {
  createVolumeBinding,
  type VolumeBindingOptions,
} from './volume-binding.js';
export {
  planVolume,
  type VolumeOutcome,
  type VolumePlan,
  type VolumeSyncOptions,
} from './volume-sync.js';
export * from './volume-util.js';
