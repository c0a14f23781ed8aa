/**
 * CRD-creation checks on schema defaults (upstream `apiserver/schema/defaulting/validation.go`
 * `ValidateDefaults`): every `default` must be pruned (`must not have unknown fields`), must
 * form valid embedded-resource metadata, and must validate against its own schema — errors
 * are reported under `…properties[x].default`, e.g.
 * `spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value:
 * "string":  in body must be of type integer: "string"` (sic: upstream's empty data path).
 *
 * Defaults inside `additionalProperties` are not visited (they are forbidden there). A default
 * inside TypeMeta/ObjectMeta of an embedded resource is checked against its own schema only
 * (upstream additionally builds the surrounding object; deviation). CEL rules on defaults are
 * left to the optional `validateRules` hook.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../../api/field-error.js';
import { deepCopy, deepEqual } from '../../api/object.js';
import type { Schema } from '../../api/schema/types.js';
import { validateEmbeddedResourcesAt } from './embedded-resource.js';
import { pruneValue } from './prune.js';
import { hasDefault, itemsOf, type RawSchema, schemaMap, typed } from './raw-schema.js';
import { validateValue } from './validate-object.js';

export interface DefaultsValidationOptions {
  /** Upstream `requirePrunedDefaults` (false only when ratcheting an old CRD that had unpruned defaults). */
  readonly requirePrunedDefaults?: boolean;
  /** CEL evaluation of `x-kubernetes-validations` against a default (the CEL module's hook). */
  readonly validateRules?: (schema: Schema, value: unknown, path: FieldPath) => FieldError[];
}

const META_FIELDS = new Set(['metadata', 'apiVersion', 'kind']);

/** All default-value errors of the (structural) root schema `s` at `path`. */
export function validateDefaults(
  path: FieldPath,
  s: RawSchema,
  options: DefaultsValidationOptions = {},
): FieldError[] {
  const root: RawSchema = { ...s, 'x-kubernetes-embedded-resource': true };
  return walk(path, root, false, options);
}

function walk(
  path: FieldPath,
  s: RawSchema,
  insideMeta: boolean,
  o: DefaultsValidationOptions,
): FieldError[] {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const meta = embedded ? false : insideMeta;
  const errs: FieldError[] = [];
  if (hasDefault(s)) errs.push(...checkDefault(path, s, meta, o));
  const items = itemsOf(s);
  if (items) errs.push(...walk(path.child('items'), items, meta, o));
  for (const [k, sub] of schemaMap(s, 'properties')) {
    const subMeta = meta || (embedded && META_FIELDS.has(k));
    errs.push(...walk(path.child('properties').key(k), sub, subMeta, o));
  }
  return errs;
}

function checkDefault(
  path: FieldPath,
  s: RawSchema,
  insideMeta: boolean,
  o: DefaultsValidationOptions,
): FieldError[] {
  const p = path.child('default');
  const value = s.default;
  const schema = typed(s);
  if (insideMeta) return validateValue(value, schema, String(p));
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const errs: FieldError[] = [];
  if (o.requirePrunedDefaults !== false) {
    const pruned = deepCopy(value);
    pruneValue(pruned, schema, embedded);
    if (!deepEqual(pruned, value))
      errs.push(fieldErrors.invalid(p, value, 'must not have unknown fields'));
  }
  const metaErrs = validateEmbeddedResourcesAt(value, schema, p, embedded);
  if (metaErrs.length > 0) return [...errs, ...metaErrs];
  const valueErrs = validateValue(value, schema, String(p));
  if (valueErrs.length > 0) return [...errs, ...valueErrs];
  return [...errs, ...(o.validateRules?.(schema, value, p) ?? [])];
}
