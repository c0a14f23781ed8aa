/**
 * Rows of the storage kinds, as upstream `printPersistentVolume`,
 * `printPersistentVolumeClaim` and `printStorageClass`.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, isDeleting, meta, nameOf, obj, optObj, optStr, str, stringMap } from './access.js';
import { accessModesString, quantityString } from './format.js';
import type { PrintedRow } from './types.js';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';

/** The beta annotation wins over the field (upstream `GetPersistentVolume[Claim]Class`). */
function storageClass(o: KubeObject, field: unknown): string {
  const annotations = stringMap(meta(o).annotations);
  return annotations[BETA_STORAGE_CLASS] ?? str(field);
}

function orUnset(v: unknown): string {
  return optStr(v) ?? '<unset>';
}

function phaseOf(o: KubeObject): string {
  return isDeleting(o) ? 'Terminating' : str(obj(o.status).phase);
}

export function printPersistentVolume(pv: KubeObject, now: Date): PrintedRow {
  const spec = obj(pv.spec);
  const claimRef = optObj(spec.claimRef);
  return {
    cells: [
      nameOf(pv),
      quantityString(obj(spec.capacity).storage),
      accessModesString(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      phaseOf(pv),
      claimRef === undefined ? '' : `${str(claimRef.namespace)}/${str(claimRef.name)}`,
      storageClass(pv, spec.storageClassName),
      orUnset(spec.volumeAttributesClassName),
      str(obj(pv.status).reason),
      ageOf(pv, now),
      orUnset(spec.volumeMode),
    ],
  };
}

export function printPersistentVolumeClaim(pvc: KubeObject, now: Date): PrintedRow {
  const spec = obj(pvc.spec);
  const status = obj(pvc.status);
  const bound = str(spec.volumeName) !== '';
  return {
    cells: [
      nameOf(pvc),
      phaseOf(pvc),
      str(spec.volumeName),
      bound ? quantityString(obj(status.capacity).storage) : '',
      bound ? accessModesString(status.accessModes) : '',
      storageClass(pvc, spec.storageClassName),
      orUnset(spec.volumeAttributesClassName),
      ageOf(pvc, now),
      orUnset(spec.volumeMode),
    ],
  };
}

export function printStorageClass(sc: KubeObject, now: Date): PrintedRow {
  const annotations = stringMap(meta(sc).annotations);
  const isDefault =
    annotations[DEFAULT_CLASS] === 'true' || annotations[BETA_DEFAULT_CLASS] === 'true';
  return {
    cells: [
      isDefault ? `${nameOf(sc)} (default)` : nameOf(sc),
      str(sc.provisioner),
      optStr(sc.reclaimPolicy) ?? 'Delete',
      optStr(sc.volumeBindingMode) ?? 'Immediate',
      sc.allowVolumeExpansion === true,
      ageOf(sc, now),
    ],
  };
}
