/**
 * Validation of a whole object: generic metadata rules plus the kind's own strategy.
 *
 * @module
 */
import { type FieldError, path } from '../../api/field-error.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../api/validation/object-meta.js';

export function validateForCreate(def: ResourceDefinition, obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(
    obj.metadata ?? {},
    { namespaced: def.namespaced, nameValidation: def.nameValidation },
    path('metadata'),
  );
  const own = def.strategy.validate?.(obj) ?? [];
  if (own.length > 0) return errors.concat(own);
  return errors.concat(def.strategy.validateCreate?.(obj) ?? []);
}

/** Status writes check metadata and what the kind's status strategy adds: the spec they carry is the stored one. */
export function validateForUpdate(
  def: ResourceDefinition,
  obj: KubeObject,
  old: KubeObject,
  subresource: string,
): FieldError[] {
  const errors = validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {});
  // A binding changes only what the scheduler may set (`spec.nodeName`, `PodScheduled`).
  if (subresource === 'binding') return errors;
  // Their handlers check what each may change first (`handlers/pod-subresource-write.ts`).
  if (subresource === 'ephemeralcontainers' || subresource === 'resize') return errors;
  if (subresource === 'status') {
    return errors.concat(def.strategy.validateStatusUpdate?.(obj, old) ?? []);
  }
  const own = def.strategy.validate?.(obj) ?? [];
  if (own.length > 0) return errors.concat(own);
  return errors.concat(def.strategy.validateUpdate?.(obj, old) ?? []);
}
