/**
 * Generic `metadata` validation for create and update, after upstream's
 * `ValidateObjectMeta` / `ValidateObjectMetaUpdate` (`k8s.io/apimachinery/pkg/api/validation`).
 * The API server runs these for every kind; kind strategies add only what is specific to them.
 *
 * Not checked here: `metadata.resourceVersion` on update (the server resolves preconditions and
 * unconditional updates itself) and `managedFields` (owned by server-side apply).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import { deepEqual, type ObjectMeta } from '../object.js';
import type { NameValidation } from '../resource.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from './messages.js';
import {
  validateAnnotations,
  validateFinalizers,
  validateLabels,
  validateOwnerReferences,
} from './metadata-fields.js';
import { nameFnFor, nameIsDNSLabel } from './names.js';
import { validateNonnegativeField } from './numbers.js';

/** How a kind's metadata is checked (from its {@link ResourceDefinition}). */
export interface ObjectMetaOptions {
  /** Namespaced kinds require a namespace; cluster-scoped kinds forbid one. */
  readonly namespaced: boolean;
  /** How `name` (and a `generateName` prefix) is checked. */
  readonly nameValidation: NameValidation;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * Upstream `ValidateObjectMeta` for a create. Expects name generation to have happened: an
 * empty name is `Required value: name or generateName is required`.
 */
export function validateObjectMeta(
  meta: ObjectMeta,
  options: ObjectMetaOptions,
  fieldPath: FieldPath = path('metadata'),
): FieldError[] {
  const errs: FieldError[] = [];
  const nameFn = nameFnFor(options.nameValidation);
  const generateName = str(meta.generateName);
  if (generateName !== '') {
    for (const msg of nameFn(generateName, true)) {
      errs.push(fieldErrors.invalid(fieldPath.child('generateName'), generateName, msg));
    }
  }
  const name = str(meta.name);
  if (name === '') {
    errs.push(fieldErrors.required(fieldPath.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of nameFn(name, false))
      errs.push(fieldErrors.invalid(fieldPath.child('name'), name, msg));
  }
  errs.push(...validateNamespaceField(str(meta.namespace), options.namespaced, fieldPath));
  if (typeof meta.generation === 'number') {
    errs.push(...validateNonnegativeField(meta.generation, fieldPath.child('generation')));
  }
  errs.push(...validateCommonMeta(meta, fieldPath));
  return errs;
}

function validateNamespaceField(
  namespace: string,
  namespaced: boolean,
  fieldPath: FieldPath,
): FieldError[] {
  const p = fieldPath.child('namespace');
  if (!namespaced)
    return namespace === '' ? [] : [fieldErrors.forbidden(p, 'not allowed on this type')];
  if (namespace === '') return [fieldErrors.required(p, '')];
  return nameIsDNSLabel(namespace, false).map((msg) => fieldErrors.invalid(p, namespace, msg));
}

function validateCommonMeta(meta: ObjectMeta, fieldPath: FieldPath): FieldError[] {
  return [
    ...validateLabels(meta.labels, fieldPath.child('labels')),
    ...validateAnnotations(meta.annotations, fieldPath.child('annotations')),
    ...validateOwnerReferences(meta.ownerReferences, fieldPath.child('ownerReferences')),
    ...validateFinalizers(meta.finalizers, fieldPath.child('finalizers')),
  ];
}

/** Go's zero-value view of an optional field: absent and `null` are the same as empty. */
function zeroed(v: unknown): unknown {
  return v === undefined || v === null ? '' : v;
}

/** Upstream `ValidateImmutableField`: `Invalid value: <new>: field is immutable`. */
export function validateImmutableField(
  newVal: unknown,
  oldVal: unknown,
  fieldPath: FieldPath,
): FieldError[] {
  if (deepEqual(zeroed(newVal), zeroed(oldVal))) return [];
  return [fieldErrors.invalid(fieldPath, newVal ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}

/** Go's `%#v` of a `[]string`, as upstream prints the new finalizers. */
function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Upstream `ValidateObjectMetaUpdate`: name, namespace, uid, creationTimestamp,
 * deletionTimestamp and deletionGracePeriodSeconds are immutable, generation may not go down,
 * no finalizer may be added once deletion started, and labels, annotations, owner references
 * and finalizers are re-validated.
 */
export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  fieldPath: FieldPath = path('metadata'),
): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined && oldMeta.deletionTimestamp !== null) {
    const old = new Set(stringList(oldMeta.finalizers));
    const added = [...new Set(stringList(newMeta.finalizers).filter((f) => !old.has(f)))].sort();
    if (added.length > 0) {
      errs.push(
        fieldErrors.forbidden(
          fieldPath.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`,
        ),
      );
    }
  }
  const newGen = typeof newMeta.generation === 'number' ? newMeta.generation : 0;
  const oldGen = typeof oldMeta.generation === 'number' ? oldMeta.generation : 0;
  if (newGen < oldGen) {
    errs.push(
      fieldErrors.invalid(fieldPath.child('generation'), newGen, 'must not be decremented'),
    );
  }
  for (const key of [
    'name',
    'namespace',
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
  ] as const) {
    errs.push(...validateImmutableField(newMeta[key], oldMeta[key], fieldPath.child(key)));
  }
  errs.push(...validateCommonMeta(newMeta, fieldPath));
  return errs;
}
