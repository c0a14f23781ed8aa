/**
 * Server-side apply and managedFields. Entry points for the API handlers:
 *
 * - {@link applyPatch}: `PATCH` with `application/apply-patch+yaml` (create when absent).
 * - {@link recordUpdate}: every other write (create, update, JSON/merge/strategic patch, status).
 * - {@link recordScaleUpdate}: writes through `/scale`.
 * - {@link managerOrUserAgent} and {@link validateWriteOptions}: the manager name and the
 *   Create/Update/PatchOptions checks.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import type { SchemaNavigator } from '../schema/navigator.js';
import type { Schema } from '../schema/types.js';
import { FieldSet } from './field-set.js';
import { fieldSetOfPaths } from './field-set-builder.js';
import { rawFieldSetOf } from './field-set-of.js';
import { type FieldPath, fieldElement } from './path-element.js';
import { stripMeta } from './strip-meta.js';
import { TypeResolver } from './type-resolver.js';

export { ApplyConflicts, conflictError } from './conflicts.js';
export {
  type ApplyOptions,
  applyPatch,
  BEFORE_FIRST_APPLY_MANAGER,
  type FieldManagerOptions,
  recordUpdate,
} from './field-manager.js';
export { FieldSet } from './field-set.js';
export { LAST_APPLIED_ANNOTATION } from './last-applied.js';
export {
  ANCIENT_CHANGES_MANAGER,
  decodeManagedFields,
  encodeManagedFields,
  MAX_UPDATE_MANAGERS,
  type ManagerEntry,
  type Managers,
  managerIdentity,
} from './managed.js';
export {
  FIELD_MANAGER_MAX_LENGTH,
  managerOrUserAgent,
  type OptionsKind,
  prefixFromUserAgent,
  validateFieldManager,
  validateWriteOptions,
  type WriteOptionsInput,
} from './manager-name.js';
export {
  type FieldPath,
  fieldElement,
  indexElement,
  keyElement,
  type PathElement,
  pathToString,
  valueElement,
} from './path-element.js';

export { recordScaleUpdate, type ScaleUpdateOptions } from './scale.js';
export { STRIP_SET } from './strip-meta.js';

/** Reads `fieldsV1` JSON (throws with upstream's message when malformed). */
export function fieldSetFromFieldsV1(json: unknown): FieldSet {
  return FieldSet.fromFieldsV1(json);
}

/** The `fieldsV1` JSON of a set. */
export function fieldSetToFieldsV1(set: FieldSet): Record<string, unknown> {
  return set.toFieldsV1();
}

/**
 * The fields an object sets, as an applier would own them: list semantics from the schema,
 * type meta and server-set metadata stripped.
 */
export function fieldSetOf(
  obj: KubeObject,
  schema: Schema | undefined,
  nav: SchemaNavigator,
): FieldSet {
  return stripMeta(rawFieldSetOf(new TypeResolver(schema, nav), obj));
}

/** A set of plain field-name paths, e.g. `fieldSetFromPaths([['status']])` for reset fields. */
export function fieldSetFromPaths(paths: readonly (readonly string[])[]): FieldSet {
  return fieldSetOfPaths(paths.map((p): FieldPath => p.map(fieldElement)));
}
