/**
 * The PersistentVolumeClaimResize admission plugin (`plugin/pkg/admission/storage/
 * persistentvolume/resize`): a claim's storage request may grow only when the claim is bound
 * and its StorageClass (the same before and after, non-empty) says
 * `allowVolumeExpansion: true`; otherwise 403 with upstream's text. Shrinking and unchanged
 * sizes are the PVC validation's business (it allows shrinking back above
 * `status.capacity`).
 *
 * Upstream validates after the kind's validation; the object store's update hook
 * (`preserve`) runs before it. To keep upstream's answers, an unbound claim is left to the
 * validation (which refuses any spec change of an unbound claim with 422, as upstream answers
 * first); only a bound claim whose class forbids expansion gets the 403 here. One difference
 * remains: a bound claim whose update is also invalid otherwise gets this 403, not the 422.
 *
 * @module
 */
import { forbidden } from '../../api/errors.js';
import { storageClassOf } from '../../api/kinds/storage-class.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { compareQuantities, parseQuantity, type Quantity } from '../../api/validation/quantity.js';
import type { Backend } from '../../storage/backend.js';
import type { Admission } from '../store/object-store.js';
import { getStorageClass } from './storage-classes.js';

export const RESIZE_NOT_ALLOWED =
  'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

function field(v: unknown, key: string): unknown {
  return isJsonObject(v) ? v[key] : undefined;
}

function requestedStorage(pvc: KubeObject): Quantity | undefined {
  const v = field(field(field(pvc.spec, 'resources'), 'requests'), 'storage');
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const r = parseQuantity(v);
  return r.ok ? r.quantity : undefined;
}

/** Upstream `allowResize`: one non-empty class on both, and it allows expansion. */
function allowResize(backend: Backend, next: KubeObject, old: KubeObject): boolean {
  const name = storageClassOf(next);
  if (name === '' || name !== storageClassOf(old)) return false;
  return getStorageClass(backend, name)?.allowVolumeExpansion === true;
}

/** Throws the 403 when `next` grows a bound claim its class does not let grow. */
export function checkClaimResize(backend: Backend, next: KubeObject, old: KubeObject): void {
  const newSize = requestedStorage(next);
  const oldSize = requestedStorage(old);
  if (newSize === undefined || oldSize === undefined) return;
  if (compareQuantities(newSize, oldSize) <= 0) return;
  // Unbound: the PVC validation refuses the change (422) before upstream's plugin would run.
  if (field(old.status, 'phase') !== 'Bound') return;
  if (!allowResize(backend, next, old)) {
    throw forbidden(
      { group: '', resource: 'persistentvolumeclaims' },
      old.metadata?.name ?? '',
      RESIZE_NOT_ALLOWED,
    );
  }
}

function isClaims(def: ResourceDefinition): boolean {
  return def.group === '' && def.plural === 'persistentvolumeclaims';
}

/** Updates of the claim itself only (`preserve` never runs for `/status`), as upstream. */
export function persistentVolumeClaimResizeAdmission(backend: Backend): Admission {
  return {
    preserve(def, next, current) {
      if (isClaims(def)) checkClaimResize(backend, next, current);
    },
  };
}
