/**
 * The PV controller's pure decisions: volume matching, claim and volume sync plans, and PV
 * node affinity for the scheduler's volume hook; and the running controllers over them: the
 * PV controller (binder) and the scheduler's volume binding. The simulated CSI drivers that
 * provision and fail volumes are `src/sim/storage/`.
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
  createVolumeBinding,
  type VolumeBindingOptions,
} from './volume-binding.js';
export type { CsiDriverTopology } from './volume-binding-decisions.js';
export {
  planVolume,
  type VolumeOutcome,
  type VolumePlan,
  type VolumeSyncOptions,
} from './volume-sync.js';
export * from './volume-util.js';
