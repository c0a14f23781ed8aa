/**
 * The resource quota controller (upstream `pkg/controller/resourcequota`): keeps each
 * ResourceQuota's `status.hard` and `status.used` current, for quota admission to charge
 * against. `resourceQuotaController` is what the controller manager runs.
 *
 * @module
 */
export {
  QUOTA_RESYNC_MS,
  RESOURCE_QUOTA_CONTROLLER_NAME,
  resourceQuotaController,
} from './controller.js';
export { planQuota, type QuotaPlan, type QuotaStatus, usageFingerprint } from './plan.js';
