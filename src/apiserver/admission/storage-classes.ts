/**
 * What the storage admission plugins need to know about StorageClasses and claims, read
 * synchronously from the backend (admission hooks are synchronous, like
 * `namespaceAdmission`): a class by name, the default class, and a claim's class.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { Backend } from '../../storage/backend.js';
import { objectKey, resourcePrefix } from '../store/keys.js';

const STORAGE_CLASSES = {
  group: 'storage.k8s.io',
  plural: 'storageclasses',
  namespaced: false,
} as const;

/** The class a claim asked for with the deprecated annotation (it wins over the field). */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

/** The StorageClass named `name`, if it exists. */
export function getStorageClass(backend: Backend, name: string): KubeObject | undefined {
  const kv = backend.getLatest(objectKey(STORAGE_CLASSES, '', name));
  return kv === undefined ? undefined : (JSON.parse(kv.value) as KubeObject);
}

/** Upstream `IsDefaultAnnotation`: either annotation set to exactly "true". */
export function isDefaultClass(sc: KubeObject): boolean {
  const a = sc.metadata?.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

function createdMs(sc: KubeObject): number {
  const t = Date.parse(sc.metadata?.creationTimestamp ?? '');
  return Number.isNaN(t) ? 0 : t;
}

/**
 * Upstream `GetDefaultClass`: among several defaults the newest (creationTimestamp) wins,
 * then the first by name, so adding a new default while migrating never breaks claims.
 */
export function defaultStorageClass(backend: Backend): KubeObject | undefined {
  const defaults = backend
    .list(resourcePrefix(STORAGE_CLASSES))
    .items.map((kv) => JSON.parse(kv.value) as KubeObject)
    .filter(isDefaultClass);
  defaults.sort((a, b) => {
    const byTime = createdMs(b) - createdMs(a);
    if (byTime !== 0) return byTime;
    const an = a.metadata?.name ?? '';
    const bn = b.metadata?.name ?? '';
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
  return defaults[0];
}

function specOf(pvc: KubeObject): Record<string, unknown> {
  const spec = pvc.spec;
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec)
    ? (spec as Record<string, unknown>)
    : {};
}

/** Upstream `PersistentVolumeClaimHasClass`: the annotation or the field is present (even ""). */
export function claimHasClass(pvc: KubeObject): boolean {
  const annotations = pvc.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) return true;
  const name = specOf(pvc).storageClassName;
  return name !== undefined && name !== null;
}

/** Upstream `GetPersistentVolumeClaimClass`: the annotation, else the field, else "". */
export function claimClass(pvc: KubeObject): string {
  const annotation = pvc.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (annotation !== undefined) return annotation;
  const name = specOf(pvc).storageClassName;
  return typeof name === 'string' ? name : '';
}
