/**
 * What the storage admission plugins need to know about StorageClasses and claims, read
 * synchronously from the backend (admission hooks are synchronous, like
 * `namespaceAdmission`): a class by name and the default class. The rules themselves
 * (`src/api/kinds/storage-class.ts`) are shared with the volume controllers.
 *
 * @module
 */
import { defaultClassOf } from '../../api/kinds/storage-class.js';
import type { KubeObject } from '../../api/object.js';
import type { Backend } from '../../storage/backend.js';
import { objectKey, resourcePrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';

const STORAGE_CLASSES = {
  group: 'storage.k8s.io',
  plural: 'storageclasses',
  namespaced: false,
} as const;

/** The StorageClass named `name`, if it exists. */
export function getStorageClass(backend: Backend, name: string): KubeObject | undefined {
  const kv = backend.getLatest(objectKey(STORAGE_CLASSES, '', name));
  return kv === undefined ? undefined : parseStoredObject(kv.value);
}

/** The default StorageClass (upstream `GetDefaultClass`), read from the backend. */
export function defaultStorageClass(backend: Backend): KubeObject | undefined {
  const classes = backend
    .list(resourcePrefix(STORAGE_CLASSES))
    .items.map((kv) => parseStoredObject(kv.value));
  return defaultClassOf(classes);
}
