/**
 * The DefaultStorageClass admission plugin (`plugin/pkg/admission/storage/storageclass/
 * setdefault`): a PersistentVolumeClaim created without a class (no `spec.storageClassName`,
 * not even "", and no beta annotation) gets the default StorageClass's name. No default class:
 * the claim is left alone (it can only bind to class-less volumes, or later get a class from
 * the PV controller's retroactive defaulting).
 *
 * Upstream runs it as mutating admission before validation; the object store runs admission
 * hooks after validation. That is harmless here: the only field set is a class name that
 * already passed StorageClass name validation.
 *
 * @module
 */

import { claimHasClass } from '../../api/kinds/storage-class.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Backend } from '../../storage/backend.js';
import type { Admission } from '../store/object-store.js';
import { defaultStorageClass } from './storage-classes.js';

function isClaims(def: ResourceDefinition): boolean {
  return def.group === '' && def.plural === 'persistentvolumeclaims';
}

/** Creates only (upstream handles `admission.Create`); every create path goes through here. */
export function defaultStorageClassAdmission(backend: Backend): Admission {
  return {
    admitCreate(def, _namespace, obj) {
      if (!isClaims(def) || claimHasClass(obj)) return;
      const name = defaultStorageClass(backend)?.metadata?.name;
      if (name === undefined) return;
      const spec = typeof obj.spec === 'object' && obj.spec !== null ? obj.spec : {};
      obj.spec = { ...spec, storageClassName: name };
    },
  };
}
