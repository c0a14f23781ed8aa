/**
 * The admission chain kube-apiserver enables by default, in its order, as fleetyard runs it:
 * NamespaceLifecycle, LimitRanger, the Service IP allocation (upstream's registry does it),
 * Priority, DefaultTolerationSeconds, DefaultStorageClass, DefaultIngressClass,
 * StorageObjectInUseProtection, PersistentVolumeClaimResize, and ResourceQuota last, so it
 * charges the object as it will be stored.
 *
 * @module
 */
import type { Backend } from '../../storage/backend.js';
import type { Clock } from '../../util/clock.js';
import { namespaceAdmission } from '../namespaces.js';
import type { Admission } from '../store/object-store.js';
import { composeAdmission } from './chain.js';
import { defaultIngressClassAdmission } from './default-ingress-class.js';
import { defaultStorageClassAdmission } from './default-storage-class.js';
import { defaultTolerationSecondsAdmission } from './default-tolerations.js';
import { limitRangerAdmission } from './limit-ranger.js';
import { priorityAdmission } from './priority.js';
import { persistentVolumeClaimResizeAdmission } from './pvc-resize.js';
import { resourceQuotaAdmission } from './resource-quota.js';
import { storageObjectInUseProtectionAdmission } from './storage-object-in-use-protection.js';

export interface DefaultAdmissionOptions {
  readonly backend: Backend;
  readonly clock: Clock;
  /** The allocator of Service cluster IPs and node ports (an admission step here). */
  readonly services: Admission;
  readonly notReadyTolerationSeconds: number | undefined;
  readonly unreachableTolerationSeconds: number | undefined;
}

export function defaultAdmission(o: DefaultAdmissionOptions): Admission {
  return composeAdmission(
    namespaceAdmission(o.backend),
    // LimitRanger fills defaults before anything counts them.
    limitRangerAdmission(o.backend),
    o.services,
    priorityAdmission(o.backend),
    defaultTolerationSecondsAdmission({
      notReadyTolerationSeconds: o.notReadyTolerationSeconds,
      unreachableTolerationSeconds: o.unreachableTolerationSeconds,
    }),
    defaultStorageClassAdmission(o.backend),
    defaultIngressClassAdmission(o.backend),
    storageObjectInUseProtectionAdmission(),
    persistentVolumeClaimResizeAdmission(o.backend),
    resourceQuotaAdmission(o.backend, { clock: o.clock }),
  );
}
