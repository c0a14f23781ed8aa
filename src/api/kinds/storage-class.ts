/**
 * The StorageClass rules shared by the storage admission plugins and the volume controllers:
 * which class a claim asked for, whether it asked at all, and which class is the default.
 * Upstream keeps them in `k8s.io/component-helpers/storage/volume` for the same reason.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../object.js';
import { parseTime } from '../time.js';

/** The class a claim asked for with the deprecated annotation (it wins over the field). */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

function storageClassNameOf(obj: KubeObject): unknown {
  return isJsonObject(obj.spec) ? obj.spec.storageClassName : undefined;
}

/** Upstream `PersistentVolumeClaimHasClass`: the annotation or the field is present (even ""). */
export function claimHasClass(claim: KubeObject): boolean {
  const annotations = claim.metadata?.annotations ?? {};
  if (Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) return true;
  const name = storageClassNameOf(claim);
  return name !== undefined && name !== null;
}

/**
 * Upstream `GetPersistentVolumeClaimClass` and `GetPersistentVolumeClass`: the annotation, else
 * the field, else "".
 */
export function storageClassOf(claimOrVolume: KubeObject): string {
  const annotation = claimOrVolume.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (annotation !== undefined) return annotation;
  const name = storageClassNameOf(claimOrVolume);
  return typeof name === 'string' ? name : '';
}

/** Upstream `IsDefaultAnnotation`: either annotation set to exactly "true". */
export function isDefaultClass(sc: KubeObject): boolean {
  const a = sc.metadata?.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

/**
 * Upstream `GetDefaultClass` (1.26+): among several defaults the newest (creationTimestamp)
 * wins, then the first by name, so adding a new default while migrating never breaks claims.
 */
export function defaultClassOf(classes: readonly KubeObject[]): KubeObject | undefined {
  const created = (c: KubeObject) => parseTime(c.metadata?.creationTimestamp) ?? 0;
  const name = (c: KubeObject) => c.metadata?.name ?? '';
  const defaults = classes.filter(isDefaultClass);
  defaults.sort((a, b) => {
    const byTime = created(b) - created(a);
    if (byTime !== 0) return byTime;
    return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
  });
  return defaults[0];
}
