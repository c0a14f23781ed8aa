/**
 * Validation and defaulting of apiextensions.k8s.io/v1 CustomResourceDefinitions, as upstream's
 * `ValidateCustomResourceDefinition`, `ValidateCustomResourceDefinitionUpdate` and v1
 * `SetDefaults_CustomResourceDefinition` do them. Pure functions over the CRD's JSON.
 *
 * The server's generic metadata checks (DNS-subdomain name, labels…) are not repeated here;
 * only the CRD-specific name rule (`metadata.name` must be `<plural>.<group>`) is. Schema errors
 * follow upstream's internal form: a schema shared by all versions is reported under
 * `spec.validation.openAPIV3Schema` (see `crd-internal.ts`).
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../../api/field-error.js';
import { isJsonObject, type JsonObject, type KubeObject } from '../../api/object.js';
import { validateImmutableField } from '../../api/validation/object-meta.js';
import { type InternalSpec, obj, text, toInternal } from './crd-internal.js';
import { validateApiApproval, validateNames } from './crd-names.js';
import type { SchemaCheckOptions } from './crd-schema.js';
import { type SpecCheckOptions, validateSpec } from './crd-spec.js';

export { defaultCrd } from './crd-defaults.js';

/** Optional CEL hooks (the CEL module supplies them; without them rules are only checked statically). */
export type CrdValidationHooks = Pick<
  SchemaCheckOptions,
  'compileRules' | 'validateRulesOnDefault'
>;

const CREATE_OPTIONS: SpecCheckOptions = {
  allowDefaults: true,
  requireRecognizedConversionReviewVersion: true,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

function annotationsOf(crd: KubeObject): JsonObject {
  return obj(crd.metadata?.annotations);
}

function nameRule(crd: KubeObject, spec: InternalSpec): FieldError[] {
  const name = text(crd.metadata?.name);
  const required = `${text(obj(spec.names).plural)}.${spec.group}`;
  if (name === '' || name === required) return [];
  return [
    fieldErrors.invalid(path('metadata', 'name'), name, 'must be spec.names.plural+"."+spec.group'),
  ];
}

/** Upstream `ValidateCustomResourceDefinitionStoredVersions`. */
function validateStoredVersions(crd: KubeObject, spec: InternalSpec): FieldError[] {
  const p = path('status', 'storedVersions');
  const raw = obj(crd.status).storedVersions;
  const stored = Array.isArray(raw) ? raw.map(text) : [];
  if (stored.length === 0)
    return [fieldErrors.invalid(p, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i] as const));
  for (const v of spec.versions) {
    if (v.storage && !remaining.has(v.name)) {
      errs.push(fieldErrors.invalid(p, stored, `must have the storage version ${v.name}`));
    }
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      fieldErrors.invalid(
        p.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

function preserveUnknownFieldsRule(crd: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (old && obj(old.spec).preserveUnknownFields === true) return [];
  if (obj(crd.spec).preserveUnknownFields !== true) return [];
  return [
    fieldErrors.invalid(
      path('spec', 'preserveUnknownFields'),
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ),
  ];
}

function statusErrors(crd: KubeObject, spec: InternalSpec): FieldError[] {
  return [
    ...validateNames(obj(obj(crd.status).acceptedNames), path('status', 'acceptedNames')),
    ...validateStoredVersions(crd, spec),
  ];
}

/**
 * Errors of a CRD about to be created. Expects defaults applied ({@link defaultCrd}) and
 * `status.storedVersions` set (the strategy's `prepareForCreate`).
 */
export function validateCrd(crd: KubeObject, hooks: CrdValidationHooks = {}): FieldError[] {
  const spec = toInternal(crd.spec);
  return [
    ...nameRule(crd, spec),
    ...validateSpec(
      spec,
      obj(crd.spec).versions ?? null,
      { ...CREATE_OPTIONS, ...hooks },
      path('spec'),
    ),
    ...statusErrors(crd, spec),
    ...validateApiApproval(spec.group, annotationsOf(crd), undefined),
    ...preserveUnknownFieldsRule(crd, undefined),
  ];
}

function isEstablished(crd: KubeObject): boolean {
  const conditions = obj(crd.status).conditions;
  return (
    Array.isArray(conditions) &&
    conditions.some((c) => isJsonObject(c) && c.type === 'Established' && c.status === 'True')
  );
}

/** Ratcheting: a rule the old object already broke is not enforced on its update. */
function updateOptions(old: InternalSpec, oldCrd: KubeObject): SpecCheckOptions {
  const schemas = [old.validation, ...old.versions.map((v) => v.schema)]
    .map((h) => h?.openAPIV3Schema)
    .filter(isJsonObject);
  const anyNode = (pred: (s: JsonObject) => boolean): boolean =>
    schemas.some((s) => someNode(s, pred));
  const conversion = obj(obj(oldCrd.spec).conversion);
  const review = obj(conversion.webhook).conversionReviewVersions;
  const reviewList = Array.isArray(review) ? review : [];
  return {
    ...CREATE_OPTIONS,
    requireOpenAPISchema:
      old.validation !== undefined ||
      old.versions.every((v) => isJsonObject(v.schema?.openAPIV3Schema)),
    requireValidPropertyType: !anyNode(
      (s) => typeof s.type === 'string' && s.type !== '' && !VALID_TYPES.has(s.type),
    ),
    requireAtomicSetType: !anyNode(hasNonAtomicSetItems),
    requireRecognizedConversionReviewVersion:
      reviewList.length === 0 || reviewList.some((v) => v === 'v1' || v === 'v1beta1'),
  };
}

const VALID_TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);

function hasNonAtomicSetItems(s: JsonObject): boolean {
  const items = s.items;
  if (s['x-kubernetes-list-type'] !== 'set' || !isJsonObject(items)) return false;
  if (items.type === 'array')
    return (
      typeof items['x-kubernetes-list-type'] === 'string' &&
      items['x-kubernetes-list-type'] !== 'atomic'
    );
  if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

function someNode(s: unknown, pred: (s: JsonObject) => boolean): boolean {
  if (Array.isArray(s)) return s.some((x) => someNode(x, pred));
  if (!isJsonObject(s)) return false;
  if (pred(s)) return true;
  return Object.entries(s).some(
    ([k, v]) => k !== 'default' && k !== 'enum' && k !== 'example' && someNode(v, pred),
  );
}

/** Errors of an update from `old` to `crd` (immutable group and plural; scope and kind once established). */
export function validateCrdUpdate(
  crd: KubeObject,
  old: KubeObject,
  hooks: CrdValidationHooks = {},
): FieldError[] {
  const spec = toInternal(crd.spec);
  const oldSpec = toInternal(old.spec);
  const errs: FieldError[] = [
    ...validateSpec(
      spec,
      obj(crd.spec).versions ?? null,
      { ...updateOptions(oldSpec, old), ...hooks },
      path('spec'),
    ),
  ];
  if (isEstablished(old)) {
    errs.push(...validateImmutableField(spec.scope, oldSpec.scope, path('spec', 'scope')));
    errs.push(
      ...validateImmutableField(
        text(spec.names.kind),
        text(oldSpec.names.kind),
        path('spec', 'names', 'kind'),
      ),
    );
  }
  errs.push(...validateImmutableField(spec.group, oldSpec.group, path('spec', 'group')));
  errs.push(
    ...validateImmutableField(
      text(spec.names.plural),
      text(oldSpec.names.plural),
      path('spec', 'names', 'plural'),
    ),
  );
  errs.push(...statusErrors(crd, spec));
  errs.push(...validateApiApproval(spec.group, annotationsOf(crd), annotationsOf(old)));
  errs.push(...preserveUnknownFieldsRule(crd, old));
  return errs;
}
