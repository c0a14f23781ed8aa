/**
 * The StorageObjectInUseProtection admission plugin (`plugin/pkg/admission/storage/
 * storageobjectinuseprotection`): every new PersistentVolumeClaim gets the
 * `kubernetes.io/pvc-protection` finalizer and every new PersistentVolume the
 * `kubernetes.io/pv-protection` one, so deleting a claim a pod still uses (or a bound volume)
 * only marks it Terminating until the protection controllers remove the finalizer.
 *
 * Upstream mutates before validation; here the hook runs after it, which changes nothing: the
 * finalizers added are standard names.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Admission } from '../store/object-store.js';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

function finalizerFor(def: ResourceDefinition): string | undefined {
  if (def.group !== '') return undefined;
  if (def.plural === 'persistentvolumeclaims') return PVC_PROTECTION_FINALIZER;
  if (def.plural === 'persistentvolumes') return PV_PROTECTION_FINALIZER;
  return undefined;
}

function addFinalizer(obj: KubeObject, finalizer: string): void {
  const meta = obj.metadata ?? {};
  const current = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (current.includes(finalizer)) return;
  obj.metadata = { ...meta, finalizers: [...current, finalizer] };
}

/** Creates only (upstream handles `admission.Create`). */
export function storageObjectInUseProtectionAdmission(): Admission {
  return {
    admitCreate(def, _namespace, obj) {
      const finalizer = finalizerFor(def);
      if (finalizer !== undefined) addFinalizer(obj, finalizer);
    },
  };
}
