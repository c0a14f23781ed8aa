/**
 * The volume protection controllers: `kubernetes.io/pvc-protection` keeps a claim while a
 * scheduled pod uses it, `kubernetes.io/pv-protection` keeps a volume while it is Bound.
 *
 * @module
 */
export {
  PV_PROTECTION_CONTROLLER_NAME,
  PV_PROTECTION_FINALIZER,
  pvProtectionController,
  volumeInUse,
} from './pv-protection.js';
export {
  claimInUse,
  PVC_PROTECTION_CONTROLLER_NAME,
  PVC_PROTECTION_FINALIZER,
  podClaimNames,
  podUsesClaim,
  pvcProtectionController,
} from './pvc-protection.js';
