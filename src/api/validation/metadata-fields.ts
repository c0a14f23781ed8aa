/**
 * Validation of the parts of `metadata` every kind shares: labels, annotations (with the
 * 256 KiB total limit), owner references and finalizers, with upstream's paths and texts
 * (`ValidateLabels`, `ValidateAnnotations`, `ValidateOwnerReferences`, `ValidateFinalizers`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isJsonObject } from '../object.js';
import { isQualifiedName, isValidLabelValue } from './label-names.js';
import { byteLength } from './messages.js';

/** Upstream `TotalAnnotationSizeLimitB`: 256 KiB for all keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;

/** Upstream `ValidateLabelName`: errors are reported at the map's path, as upstream does. */
export function validateLabelName(name: string, fieldPath: FieldPath): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldErrors.invalid(fieldPath, name, msg));
}

/** Upstream `ValidateLabels` (also used for `nodeSelector` and Service `selector`). */
export function validateLabels(labels: unknown, fieldPath: FieldPath): FieldError[] {
  if (labels === undefined || labels === null) return [];
  if (!isJsonObject(labels))
    return [fieldErrors.invalid(fieldPath, labels, 'must be a map of strings')];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    errs.push(...validateLabelName(k, fieldPath));
    if (typeof v !== 'string') {
      errs.push(fieldErrors.invalid(fieldPath, v, 'must be a string'));
      continue;
    }
    for (const msg of isValidLabelValue(v)) errs.push(fieldErrors.invalid(fieldPath, v, msg));
  }
  return errs;
}

/**
 * Upstream `ValidateAnnotations`: keys are qualified names (compared lowercased), and keys plus
 * values may total at most 256 KiB (`Too long: may not be more than 262144 bytes`).
 */
export function validateAnnotations(annotations: unknown, fieldPath: FieldPath): FieldError[] {
  if (annotations === undefined || annotations === null) return [];
  if (!isJsonObject(annotations)) {
    return [fieldErrors.invalid(fieldPath, annotations, 'must be a map of strings')];
  }
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase()))
      errs.push(fieldErrors.invalid(fieldPath, k, msg));
    if (typeof v !== 'string') {
      errs.push(fieldErrors.invalid(fieldPath.key(k), v, 'must be a string'));
      continue;
    }
    total += byteLength(k) + byteLength(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) {
    errs.push(fieldErrors.tooLong(fieldPath, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  }
  return errs;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Upstream `schema.FromAPIVersionAndKind`'s version: after the `/`, and empty when malformed. */
function versionOf(apiVersion: string): string {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return apiVersion;
  return parts.length === 2 ? (parts[1] ?? '') : '';
}

function validateOwnerReference(ref: Record<string, unknown>, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(ref.apiVersion);
  const kind = str(ref.kind);
  if (versionOf(apiVersion) === '') {
    errs.push(
      fieldErrors.invalid(fieldPath.child('apiVersion'), apiVersion, 'version must not be empty'),
    );
  }
  if (kind === '')
    errs.push(fieldErrors.invalid(fieldPath.child('kind'), kind, 'must not be empty'));
  if (str(ref.name) === '')
    errs.push(fieldErrors.invalid(fieldPath.child('name'), str(ref.name), 'must not be empty'));
  if (str(ref.uid) === '')
    errs.push(fieldErrors.invalid(fieldPath.child('uid'), str(ref.uid), 'must not be empty'));
  // Upstream `BannedOwners`: core Events may not own anything.
  if (apiVersion === 'v1' && kind === 'Event') {
    errs.push(
      fieldErrors.invalid(fieldPath, ref, '/v1, Kind=Event is disallowed from being an owner'),
    );
  }
  return errs;
}

/**
 * Upstream `ValidateOwnerReferences`: apiVersion (with a version), kind, name and uid are
 * required (reported at `ownerReferences.<field>`, without an index, as upstream does), and at
 * most one reference may be the controller.
 */
export function validateOwnerReferences(refs: unknown, fieldPath: FieldPath): FieldError[] {
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) return [fieldErrors.invalid(fieldPath, refs, 'must be a list')];
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    if (!isJsonObject(ref)) {
      errs.push(fieldErrors.invalid(fieldPath, ref, 'must be an object'));
      continue;
    }
    errs.push(...validateOwnerReference(ref, fieldPath));
    if (ref.controller !== true) continue;
    const current = `${str(ref.kind)}/${str(ref.name)}`;
    if (firstController === '') {
      firstController = current;
    } else {
      errs.push(
        fieldErrors.invalid(
          fieldPath,
          refs,
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
        ),
      );
    }
  }
  return errs;
}

/**
 * Upstream `ValidateFinalizers`: each a qualified name (reported at `finalizers`, without an
 * index), and not both `orphan` and `foregroundDeletion`.
 */
export function validateFinalizers(finalizers: unknown, fieldPath: FieldPath): FieldError[] {
  if (finalizers === undefined || finalizers === null) return [];
  if (!Array.isArray(finalizers))
    return [fieldErrors.invalid(fieldPath, finalizers, 'must be a list')];
  const errs: FieldError[] = [];
  for (const f of finalizers) {
    if (typeof f !== 'string') {
      errs.push(fieldErrors.invalid(fieldPath, f, 'must be a string'));
      continue;
    }
    for (const msg of isQualifiedName(f)) errs.push(fieldErrors.invalid(fieldPath, f, msg));
  }
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(
      fieldErrors.invalid(
        fieldPath,
        finalizers,
        'finalizer orphan and foregroundDeletion cannot be both set',
      ),
    );
  }
  return errs;
}

/** The finalizer names upstream's core types accept without a `/` (`IsStandardFinalizerName`). */
export const STANDARD_FINALIZERS: readonly string[] = [
  'kubernetes',
  'orphan',
  'foregroundDeletion',
];

/**
 * Upstream core `validateKubeFinalizerName`, which built-in kinds add on top of
 * {@link validateFinalizers}: a name without a `/` must be a standard one. Upstream reports
 * these at `finalizers[i]` and repeats the qualified-name errors there; that is kept.
 */
export function validateKubeFinalizerNames(
  finalizers: unknown,
  fieldPath: FieldPath,
): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const errs: FieldError[] = [];
  finalizers.forEach((f, i) => {
    if (typeof f !== 'string') return;
    const p = fieldPath.index(i);
    for (const msg of isQualifiedName(f)) errs.push(fieldErrors.invalid(p, f, msg));
    if (!f.includes('/') && !STANDARD_FINALIZERS.includes(f)) {
      errs.push(
        fieldErrors.invalid(
          p,
          f,
          'name is neither a standard finalizer name nor is it fully qualified',
        ),
      );
    }
  });
  return errs;
}
