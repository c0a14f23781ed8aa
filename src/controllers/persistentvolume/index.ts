/**
 * The PV controller's pure decisions: volume matching, claim and volume sync plans, the
 * simulated CSI provisioners, and PV node affinity for the scheduler's volume hook.
 *
 * @module
 */
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
  type DriverModel,
  EBS_DRIVER,
  HOSTPATH_DRIVER,
  type ProvisionOptions,
  type ProvisionResult,
  provision,
  roundedCapacity,
  shouldProvision,
} from './provisioning.js';
export {
  planVolume,
  type VolumeOutcome,
  type VolumePlan,
  type VolumeSyncOptions,
} from './volume-sync.js';
export * from './volume-util.js';
